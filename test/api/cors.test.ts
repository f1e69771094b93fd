import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CORS_EXPOSE_HEADERS, CORS_MAX_AGE_SECONDS } from '../../daemon/http/cors.ts'
import { createHarness, PREFIX, type Harness } from './harness.ts'

/** CORS over real HTTP (a listening socket, what a browser talks to): one app with an allowlist, one without (the default). */
const APP = 'https://app.example'
const OTHER = 'https://evil.example'

async function listen(harness: Harness): Promise<string> {
  await harness.app.listen({ host: '127.0.0.1', port: 0 })
  const address = harness.app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return `http://127.0.0.1:${address.port}${PREFIX}`
}

const preflight = (base: string, path: string, origin: string, method = 'POST') =>
  fetch(`${base}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
  })

let on: Harness
let off: Harness
let onBase: string
let offBase: string
let apiKey: string

beforeAll(async () => {
  on = await createHarness({ corsOrigins: [APP, 'http://localhost:5173'] })
  off = await createHarness()
  onBase = await listen(on)
  offBase = await listen(off)
  const created = await fetch(`${onBase}/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ label: 'browser' }),
  })
  apiKey = ((await created.json()) as { apiKey: string }).apiKey
})
afterAll(async () => {
  await on.destroy()
  await off.destroy()
})

describe('CORS with an origin allowlist', () => {
  it('answers an allowed origin’s preflight 204 with the methods, headers and max age', async () => {
    const res = await preflight(onBase, '/orders', APP)
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, PATCH, DELETE')
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type')
    expect(res.headers.get('access-control-max-age')).toBe(String(CORS_MAX_AGE_SECONDS))
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    expect(res.headers.get('vary')).toBe('Origin')
    // The second allowed origin gets its own origin back, never the list.
    expect((await preflight(onBase, '/me', 'http://localhost:5173', 'GET')).headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
  })

  it('lets an allowed page read an answer and its rate-limit headers', async () => {
    const res = await fetch(`${onBase}/me`, { headers: { origin: APP, authorization: `Bearer ${apiKey}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
    expect(res.headers.get('access-control-expose-headers')).toBe(CORS_EXPOSE_HEADERS)
    expect(CORS_EXPOSE_HEADERS).toBe('X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After')
    expect(res.headers.get('vary')).toBe('Origin')
    expect(res.headers.get('x-ratelimit-limit')).toBe('100')
    expect(((await res.json()) as { label: string }).label).toBe('browser')
  })

  it('sends the CORS headers on errors too (a 401 the page can read)', async () => {
    const res = await fetch(`${onBase}/me`, { headers: { origin: APP } })
    expect(res.status).toBe(401)
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
    expect(await res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) })
  })

  it('gives another origin no CORS header: its preflight is answered as without CORS, its answers unreadable', async () => {
    const res = await preflight(onBase, '/orders', OTHER)
    expect(res.status).toBe(405)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('access-control-allow-methods')).toBeNull()
    expect(res.headers.get('vary')).toBe('Origin')
    const get = await fetch(`${onBase}/me`, { headers: { origin: OTHER, authorization: `Bearer ${apiKey}` } })
    expect(get.status).toBe(200)
    expect(get.headers.get('access-control-allow-origin')).toBeNull()
    expect(get.headers.get('access-control-expose-headers')).toBeNull()
    // An origin differing only by scheme or port is another origin.
    expect((await preflight(onBase, '/orders', 'http://app.example')).headers.get('access-control-allow-origin')).toBeNull()
    expect((await preflight(onBase, '/orders', 'https://app.example:8443')).headers.get('access-control-allow-origin')).toBeNull()
  })

  it('leaves a plain OPTIONS (no Access-Control-Request-Method) to the router', async () => {
    const res = await fetch(`${onBase}/orders`, { method: 'OPTIONS', headers: { origin: APP } })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toContain('GET')
  })
})

describe('CORS off (the default)', () => {
  it('behaves as before: a preflight is a 405 with Allow, and no response carries CORS headers', async () => {
    const res = await preflight(offBase, '/orders', APP)
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toContain('POST')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('vary')).toBeNull()
    const created = await fetch(`${offBase}/api-keys`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'x' }),
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('access-control-allow-origin')).toBeNull()
  })
})
