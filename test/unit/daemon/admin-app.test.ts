import { once } from 'node:events'
import { connect } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { buildAdminApp } from '../../../daemon/admin/build-admin-app.ts'
import type { AdminOperations } from '../../../daemon/admin/admin-operations.ts'
import { createServiceOperations } from '../../../daemon/admin/service-operations.ts'
import type { Services } from '../../../src/services/services.ts'
import type { DevnetOperations } from '../../../devnet/admin/devnet-operations.ts'
import { devnetRoutes } from '../../../devnet/admin/devnet-routes.ts'
import { isOperatorAuthorized } from '../../../daemon/admin/token-guard.ts'
import { AdminApiError, createAdminClient } from '../../../src/admin-client/admin-client.ts'
import { PrebuyError } from '../../../src/common/errors.ts'
import { silentLogger } from '../../../src/common/logger.ts'

// The HTTP guard and error shape only; the operations behind it run for real in daemon-e2e.test.ts.
const TOKEN = 'prebuy_op_test-token'
const unused = () => Promise.reject(new Error('not used in this test'))
const operations = new Proxy({} as AdminOperations, {
  get: (_target, name) => (name === 'revokeKey' ? () => Promise.reject(new PrebuyError('key_not_found', 'no key with id or label k')) : unused),
})
const devnet = new Proxy({} as DevnetOperations, {
  get: (_target, name) => (name === 'mine' ? (blocks: number) => Promise.resolve({ chain: 'all', blocks, blockNumbers: { base: '7' } }) : unused),
})
// The daemon on real chains (no devnet routes) and on its own devnet.
const app = buildAdminApp({ operations, operatorToken: TOKEN, logger: silentLogger })
const devnetApp = buildAdminApp({ operations, devnetRoutes: (app) => devnetRoutes(app, devnet), operatorToken: TOKEN, logger: silentLogger })
afterAll(() => Promise.all([app.close(), devnetApp.close()]))

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
  it('guards the devnet routes and unknown routes like the core ones', async () => {
    expect((await devnetApp.inject({ method: 'POST', url: '/admin/v1/devnet/mine', payload: { blocks: 2 } })).statusCode).toBe(401)
    const ok = await devnetApp.inject({ method: 'POST', url: '/admin/v1/devnet/mine', headers: { authorization: `Bearer ${TOKEN}` }, payload: { blocks: 2 } })
    expect(ok.json()).toEqual({ chain: 'all', blocks: 2, blockNumbers: { base: '7' } })
    const unknownWithoutToken = await app.inject({ url: '/admin/v1/what' })
    expect(unknownWithoutToken.statusCode).toBe(401)
    expect(unknownWithoutToken.json()).toEqual({ error: 'Unauthorized', message: 'A valid operator token is required.', code: 'invalid_operator_token' })
    const unknown = await app.inject({ url: '/admin/v1/what', headers: { authorization: `Bearer ${TOKEN}` } })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toEqual({ error: 'Not found', message: 'No such admin route.', code: 'route_not_found' })
  })

  it('answers every invalid request, core or devnet, with one 400 {error, message, code}', async () => {
    const headers = { authorization: `Bearer ${TOKEN}` }
    const core = await devnetApp.inject({
      method: 'POST',
      url: '/admin/v1/registrations/rev_1/approve',
      headers,
      payload: { slug: 'moon', creator: '0x1', launchpad: 'zora', chain: 'base' },
    })
    expect(core.statusCode).toBe(400)
    expect(core.json()).toEqual({ error: 'Bad request', message: 'creator: expected a 0x-prefixed 20-byte hex address', code: 'invalid_request' })
    const devnetRoute = await devnetApp.inject({ method: 'POST', url: '/admin/v1/devnet/swap', headers, payload: { token: '0x1', usdc: '5' } })
    expect(devnetRoute.statusCode).toBe(400)
    expect(devnetRoute.json()).toEqual({ error: 'Bad request', message: 'token: expected a 0x-prefixed 20-byte hex address', code: 'invalid_request' })
    const noAmount = await devnetApp.inject({ method: 'POST', url: '/admin/v1/devnet/fund', headers, payload: { address: `0x${'ab'.repeat(20)}` } })
    expect(noAmount.json()).toEqual({ error: 'Bad request', message: 'give usdc, eth or both', code: 'invalid_request' })
    const unknownField = await devnetApp.inject({ method: 'PUT', url: '/admin/v1/desk', headers, payload: { open: true, later: 1 } })
    expect(unknownField.json()).toEqual({ error: 'Bad request', message: expect.stringContaining('later'), code: 'invalid_request' })
  })

  it('maps typed errors, validation failures and surprises to {error, message, code}', async () => {
    const headers = { authorization: `Bearer ${TOKEN}` }
    const notFound = await app.inject({ method: 'POST', url: '/admin/v1/keys/k/revoke', headers, payload: {} })
    expect(notFound.statusCode).toBe(404)
    expect(notFound.json()).toEqual({ error: 'Not found', message: 'no key with id or label k', code: 'key_not_found' })
    const invalid = await app.inject({ method: 'POST', url: '/admin/v1/blocklist', headers, payload: { type: 'phone', value: 'x' } })
    expect(invalid.statusCode).toBe(400)
    expect(invalid.json()).toEqual({ error: 'Bad request', message: expect.stringMatching(/^type: /), code: 'invalid_request' })
    const devnetOnly = await app.inject({ method: 'POST', url: '/admin/v1/devnet/mine', headers, payload: {} })
    expect(devnetOnly.statusCode).toBe(400)
    expect(devnetOnly.json()).toEqual({ error: 'Bad request', message: expect.stringContaining('devnet'), code: 'devnet_only' })
    // Every devnet path gives the same reason on real chains, launch and swap included.
    for (const path of ['launch', 'swap']) {
      const refused = await app.inject({ method: 'POST', url: `/admin/v1/devnet/${path}`, headers, payload: {} })
      expect(refused.statusCode).toBe(400)
      expect(refused.json().message).toBe(devnetOnly.json().message)
    }
    const surprise = await app.inject({ url: '/admin/v1/keys', headers })
    expect(surprise.statusCode).toBe(500)
    expect(surprise.json()).toEqual({ error: 'Internal server error', message: 'The operation failed; see the daemon log.', code: 'internal_error' })
    const malformed = await app.inject({
      method: 'PUT',
      url: '/admin/v1/desk',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"open":',
    })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json()).toEqual({ error: 'Bad request', message: expect.any(String), code: 'invalid_body' })
  })

  it('is what the admin client speaks: contract requests in, contract results or AdminApiError with the code out', async () => {
    // The client's fetch, served by the app in process.
    const fetchFromApp = (async (input: URL, init: RequestInit) => {
      const response = await devnetApp.inject({
        method: init.method as 'GET',
        url: `${input.pathname}${input.search}`,
        headers: init.headers as Record<string, string>,
        ...(init.body === undefined ? {} : { payload: init.body as string }),
      })
      return new Response(response.body, { status: response.statusCode })
    }) as typeof fetch
    const client = createAdminClient({ adminUrl: 'http://127.0.0.1:1', operatorToken: TOKEN, fetch: fetchFromApp })
    expect(await client.devnetMine(3)).toEqual({ chain: 'all', blocks: 3, blockNumbers: { base: '7' } })
    const refused = await client.revokeKey('k').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(AdminApiError)
    expect(refused).toMatchObject({ status: 404, error: 'Not found', message: 'no key with id or label k', code: 'key_not_found' })
    const invalid = await client.devnetSwap({ token: '0x1', usdc: '1' }).catch((error: unknown) => error)
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_request', message: 'token: expected a 0x-prefixed 20-byte hex address' })
  })

  it('PATCH projects/:slug/binding answers the project and, for a new deployer, the warnings about it (as at approval)', async () => {
    // The route and its real handler (service-operations.ts) over a fake launch-binding service.
    const seen: unknown[] = []
    const launches = {
      updateBinding: (slug: string, request: unknown) => {
        seen.push({ slug, request })
        return Promise.resolve({ slug, chain: 'base' })
      },
      deployerWarnings: (chain: string, deployer: string) => Promise.resolve([`${deployer} is a contract on ${chain}`]),
    }
    const bindingOps = createServiceOperations({ services: { launches } as unknown as Services, status: unused, backup: unused as never })
    const bindingApp = buildAdminApp({ operations: bindingOps, operatorToken: TOKEN, logger: silentLogger })
    const patch = (payload: object) =>
      bindingApp.inject({ method: 'PATCH', url: '/admin/v1/projects/moon/binding', headers: { authorization: `Bearer ${TOKEN}` }, payload })
    const creator = '0x00000000000000000000000000000000000000c1'
    expect((await patch({ creator, symbol: 'MOON' })).json()).toEqual({
      project: { slug: 'moon', chain: 'base' },
      deployerWarnings: [`${creator} is a contract on base`],
    })
    expect((await patch({ symbol: null })).json()).toEqual({ project: { slug: 'moon', chain: 'base' }, deployerWarnings: [] })
    expect(seen).toEqual([
      { slug: 'moon', request: { creatorAddress: creator, expectedSymbol: 'MOON' } },
      { slug: 'moon', request: { expectedSymbol: null } },
    ])
    expect((await patch({})).statusCode).toBe(400)
    await bindingApp.close()
  })

  it('answers what no route sees like the public listener, before the token check, never echoing the URL', async () => {
    const listener = buildAdminApp({ operations, operatorToken: TOKEN, logger: silentLogger })
    try {
      const address = await listener.listen({ port: 0, host: '127.0.0.1' })
      const port = Number(new URL(address).port)
      const raw = async (text: string) => {
        const socket = connect(port, '127.0.0.1')
        await once(socket, 'connect')
        let out = ''
        socket.on('data', (chunk: Buffer) => (out += chunk.toString()))
        socket.write(text)
        await once(socket, 'close')
        const [head = '', body = ''] = out.split('\r\n\r\n')
        return { status: Number(head.split(' ')[1]), body }
      }
      const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`
      const badUrl = await raw(get('/admin/v1/keys/%zz-secret-path'))
      expect(badUrl.status).toBe(400)
      expect(JSON.parse(badUrl.body)).toEqual({ error: 'Bad request', message: 'Malformed URL.' })
      expect(badUrl.body).not.toContain('secret-path')
      const big = await raw(get('/admin/v1/status', `X-Big: ${'a'.repeat(20_000)}\r\n`))
      expect(big.status).toBe(431)
      expect(JSON.parse(big.body)).toEqual({ error: 'Request header fields too large', message: 'The request headers are too large.' })
      expect(JSON.parse((await raw('GARBAGE\r\n\r\n')).body)).toEqual({ error: 'Bad request', message: 'Malformed HTTP request.' })
    } finally {
      await listener.close()
    }
  })
})
