import { afterAll, describe, expect, it } from 'vitest'
import { buildAdminApp } from '../../../daemon/admin/build-admin-app.ts'
import type { AdminOperations } from '../../../daemon/admin/admin-operations.ts'
import { isOperatorAuthorized } from '../../../daemon/admin/token-guard.ts'
import { PrebuyError } from '../../../src/common/errors.ts'
import { silentLogger } from '../../../src/common/logger.ts'

// The HTTP guard and error shape only; the operations behind it run for real in daemon-e2e.test.ts.
const TOKEN = 'prebuy_op_test-token'
const unused = () => Promise.reject(new Error('not used in this test'))
const operations = new Proxy({} as AdminOperations, {
  get: (_target, name) =>
    name === 'revokeKey'
      ? () => Promise.reject(new PrebuyError('not_found', 'key_not_found', 'no key with id or label k'))
      : name === 'devnet'
        ? undefined
        : unused,
})
const app = buildAdminApp({
  operations,
  operatorToken: TOKEN,
  logger: silentLogger,
  extensions: [(instance) => instance.get('/admin/v1/extension', async () => ({ extended: true }))],
})
afterAll(() => app.close())

describe('isOperatorAuthorized', () => {
  it('accepts only the exact bearer token', () => {
    expect(isOperatorAuthorized(`Bearer ${TOKEN}`, TOKEN)).toBe(true)
    expect(isOperatorAuthorized(`bearer ${TOKEN}`, TOKEN)).toBe(true)
    expect(isOperatorAuthorized(undefined, TOKEN)).toBe(false)
    expect(isOperatorAuthorized('', TOKEN)).toBe(false)
    expect(isOperatorAuthorized(TOKEN, TOKEN)).toBe(false)
    expect(isOperatorAuthorized(`Bearer ${TOKEN}x`, TOKEN)).toBe(false)
    expect(isOperatorAuthorized(`Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe(false)
    expect(isOperatorAuthorized('Bearer ', TOKEN)).toBe(false)
    expect(isOperatorAuthorized(`Basic ${TOKEN}`, TOKEN)).toBe(false)
  })
})

describe('admin app', () => {
  it('guards extension routes and unknown routes like the built-in ones', async () => {
    expect((await app.inject({ url: '/admin/v1/extension' })).statusCode).toBe(401)
    const ok = await app.inject({ url: '/admin/v1/extension', headers: { authorization: `Bearer ${TOKEN}` } })
    expect(ok.json()).toEqual({ extended: true })
    const unknownWithoutToken = await app.inject({ url: '/admin/v1/what' })
    expect(unknownWithoutToken.statusCode).toBe(401)
    expect(unknownWithoutToken.json()).toEqual({ error: 'Unauthorized', message: 'A valid operator token is required.' })
    const unknown = await app.inject({ url: '/admin/v1/what', headers: { authorization: `Bearer ${TOKEN}` } })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toEqual({ error: 'Not found', message: 'No such admin route.' })
  })

  it('maps typed errors, validation failures and surprises to {error, message}', async () => {
    const headers = { authorization: `Bearer ${TOKEN}` }
    const notFound = await app.inject({ method: 'POST', url: '/admin/v1/keys/k/revoke', headers, payload: {} })
    expect(notFound.statusCode).toBe(404)
    expect(notFound.json()).toEqual({ error: 'Not found', message: 'no key with id or label k', code: 'key_not_found' })
    const invalid = await app.inject({ method: 'POST', url: '/admin/v1/blocklist', headers, payload: { type: 'phone', value: 'x' } })
    expect(invalid.statusCode).toBe(400)
    expect(invalid.json().message).toMatch(/^type: /)
    const devnetOnly = await app.inject({ method: 'POST', url: '/admin/v1/devnet/mine', headers, payload: {} })
    expect(devnetOnly.statusCode).toBe(400)
    expect(devnetOnly.json().message).toContain('devnet')
    const surprise = await app.inject({ url: '/admin/v1/keys', headers })
    expect(surprise.statusCode).toBe(500)
    expect(surprise.json()).toEqual({ error: 'Internal server error', message: 'The operation failed; see the daemon log.' })
    const malformed = await app.inject({
      method: 'PUT',
      url: '/admin/v1/desk',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"open":',
    })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().error).toBe('Bad request')
  })
})
