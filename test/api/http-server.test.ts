import { once } from 'node:events'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { judgeReadiness } from '../../src/domain/health/readiness.ts'
import { approvedProject, createHarness, PREFIX, type Harness } from './harness.ts'

/** The same app on a real listening socket (port 0), with a real LevelDB; then a restart on the same data dir. */
let h: Harness
let base: string

async function listen(harness: Harness): Promise<string> {
  await harness.app.listen({ host: '127.0.0.1', port: 0 })
  const address = harness.app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return `http://127.0.0.1:${address.port}`
}

beforeAll(async () => {
  h = await createHarness()
  base = await listen(h)
})
afterAll(async () => {
  await h.destroy()
})

const call = async (method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
  const headers: Record<string, string> = { ...options.headers }
  if (options.key) headers.authorization = `Bearer ${options.key}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${base}${path.startsWith('/docs') ? '' : PREFIX}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) }
}

describe('over real HTTP', () => {
  let apiKey: string
  let ownerKey: string

  it('walks all 14 endpoints', async () => {
    const created = await call('POST', '/api-keys', { body: { label: 'http-buyer' } })
    expect(created.status).toBe(201)
    apiKey = created.json().apiKey
    ownerKey = (await approvedProject(h, 'alpha')).apiKey

    expect(
      (
        await call('POST', '/api-key-requests', {
          body: { useCases: ['launching_a_token'], projectName: 'P', projectUrls: ['https://p.example'], projectInfo: 'i', contact: 'c' },
        })
      ).json(),
    ).toMatchObject({ status: 'received' })
    expect(
      (
        await call('POST', '/projects', {
          body: { projectName: 'P', projectUrls: ['https://p.example'], projectInfo: 'i', contact: 'c', email: 'p@p.example' },
        })
      ).json(),
    ).toMatchObject({ status: 'received' })
    expect((await call('POST', '/feedback', { body: { message: 'm', name: 'n', contact: 'c' } })).json()).toMatchObject({ status: 'received' })

    const me = await call('GET', '/me', { key: apiKey })
    expect(me.status).toBe(200)
    expect(me.json()).toMatchObject({ label: 'http-buyer', ownedProjectSlugs: [] })
    expect(me.headers.get('x-ratelimit-limit')).toBe('100')
    expect(me.headers.get('x-ratelimit-remaining')).toBe('99')
    expect(Number(me.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0)

    expect((await call('GET', '/projects', { key: apiKey })).json().meta.total).toBe(1)
    const post = await call('POST', '/orders', {
      key: apiKey,
      body: { items: [{ slug: 'alpha', maxSpendUsdc: '25', maxFdvUsdc: '300000', expiresInMs: 600_000 }] },
    })
    expect(post.json().results).toEqual([{ slug: 'alpha', ok: true, status: 'created' }])
    expect((await call('PATCH', '/orders', { key: apiKey, body: { items: [{ slug: 'alpha', maxSpendUsdc: '30' }] } })).json().results[0].status).toBe('updated')
    expect((await call('GET', '/orders', { key: apiKey })).json().data).toMatchObject([{ slug: 'alpha', maxSpendUsdc: '30' }])
    expect((await call('GET', '/projects/alpha', { key: ownerKey })).json()).toMatchObject({ stats: { orderCount: 1 }, ownerStats: { buyersCount: 1 } })
    expect((await call('GET', '/projects/alpha/buyers', { key: ownerKey })).json().data).toMatchObject([{ maxSpendUsdc: '30', maxFdvUsdc: '300000' }])
    expect((await call('GET', '/wallet', { key: apiKey })).json().balances.base).toHaveLength(2)
    expect(
      (
        await call('POST', '/wallet/withdrawals', {
          key: apiKey,
          body: { tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', withdrawAddress: '0x000000000000000000000000000000000000dEaD', amount: '1' },
        })
      ).json(),
    ).toMatchObject({ chain: 'base', amount: '1000000' })
    expect((await call('DELETE', '/orders', { key: apiKey, body: { items: [{ slug: 'alpha' }] } })).json().results[0].status).toBe('deleted')
    expect((await call('DELETE', '/orders', { key: apiKey, body: { items: [{ slug: 'alpha' }] } })).json().results[0].status).toBe('already_deleted')
    expect(
      (await call('POST', '/orders', { key: apiKey, body: { items: [{ slug: 'alpha', maxSpendUsdc: '40', maxFdvUsdc: null, expiresInMs: 600_000 }] } })).json()
        .results[0].status,
    ).toBe('created')
  })

  it('errors over the wire', async () => {
    const unauth = await call('GET', '/me')
    expect(unauth.status).toBe(401)
    expect(unauth.json()).toMatchObject({ error: 'Unauthorized' })
    expect((await call('GET', '/nope')).status).toBe(404)
    expect((await call('PUT', '/orders', { key: apiKey })).status).toBe(405)
    const malformed = await call('POST', '/feedback', { headers: { 'content-type': 'application/json' }, body: undefined })
    expect(malformed.status).toBe(400)
    const raw = await fetch(`${base}${PREFIX}/feedback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message":' })
    expect(raw.status).toBe(400)
    expect(await raw.json()).toEqual({ error: 'Bad request', message: 'Invalid request body' })
    const huge = await fetch(`${base}${PREFIX}/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(300_000) }),
    })
    expect(huge.status).toBe(413)
    const form = await fetch(`${base}${PREFIX}/feedback`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b' })
    expect(form.status).toBe(415)
  })

  it('requests fastify never routes answer in the error shape too, without echoing the URL: malformed HTTP, 431, a bad URL, 414', async () => {
    const port = new URL(base).port
    /** One raw request on its own connection; the whole answer once the server closes it (or after 5 s). */
    const raw = async (text: string) => {
      const socket = connect(Number(port), '127.0.0.1')
      await once(socket, 'connect')
      let out = ''
      socket.on('data', (chunk: Buffer) => (out += chunk.toString()))
      socket.write(text)
      await Promise.race([once(socket, 'close'), new Promise((resolve) => setTimeout(resolve, 5_000))])
      socket.destroy()
      const [head = '', body = ''] = out.split('\r\n\r\n')
      return { status: Number(head.split(' ')[1]), body: JSON.parse(body) as Record<string, unknown> }
    }
    const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`
    expect(await raw('GARBAGE\r\n\r\n')).toEqual({ status: 400, body: { error: 'Bad request', message: 'Malformed HTTP request.' } })
    expect(await raw(get(`${PREFIX}/projects`, `X-Big: ${'a'.repeat(20_000)}\r\n`))).toEqual({
      status: 431,
      body: { error: 'Request header fields too large', message: 'The request headers are too large.' },
    })
    expect(await raw(get(`${PREFIX}/projects/%zz`))).toEqual({ status: 400, body: { error: 'Bad request', message: 'Malformed URL.' } })
    const long = await raw(get(`${PREFIX}/projects/${'a'.repeat(300)}`))
    expect(long).toEqual({ status: 414, body: { error: 'URI too long', message: 'A path segment is too long.' } })
    // A path with a trailing slash is not the endpoint: 404, not a 405 whose Allow lists the method asked for.
    const slash = await call('GET', '/orders/', { key: apiKey })
    expect(slash.status).toBe(404)
    expect(slash.json()).toEqual({ error: 'Not found', message: 'No such endpoint.' })
    expect((await call('PUT', '/orders/', { key: apiKey })).headers.get('allow')).toContain('GET')
  })

  it('serves the OpenAPI document and the /docs page', async () => {
    const doc = (await call('GET', '/openapi.json')).json()
    expect(doc.openapi).toBe('3.1.0')
    const docs = await call('GET', '/docs')
    expect(docs.status).toBe(200)
    expect(docs.headers.get('content-type')).toContain('text/html')
    expect(docs.text).toContain('/api/public/v1/orders')
    expect(docs.text).not.toMatch(/<script|https?:\/\/(cdn|unpkg|jsdelivr)/)
  })

  it('the label race over the wire: one 201, one 409', async () => {
    h.wallets.provisionDelayMs = 30
    const results = await Promise.all([
      call('POST', '/api-keys', { body: { label: 'wire-race' } }),
      call('POST', '/api-keys', { body: { label: 'wire-race' } }),
    ])
    h.wallets.provisionDelayMs = 0
    expect(results.map((r) => r.status).sort()).toEqual([201, 409])
  })

  it('a burst over the wire: rate-limit headers on every answer, 429 past the limit', async () => {
    const { apiKey: burstKey } = (await call('POST', '/api-keys', { body: { label: 'wire-burst' } })).json()
    const answers = await Promise.all(Array.from({ length: 110 }, () => call('GET', '/orders', { key: burstKey })))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(100)
    const limited = answers.filter((a) => a.status === 429)
    expect(limited).toHaveLength(10)
    for (const answer of answers) expect(answer.headers.get('x-ratelimit-limit')).toBe('100')
    expect(limited[0]!.json()).toMatchObject({ error: 'Too many requests', message: 'Rate limit exceeded. Retry after the window resets.' })
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('a restart (close and reopen store and app) keeps every record', async () => {
    const before = {
      keys: await h.services.keys.listKeys(),
      projects: await h.services.projects.listAllProjects(),
      reviews: await h.services.reviews.list(),
      orders: (await call('GET', '/orders?status=active', { key: apiKey })).json().data,
    }
    h = await h.restart()
    base = await listen(h)
    expect(await h.services.keys.listKeys()).toEqual(before.keys)
    expect(await h.services.projects.listAllProjects()).toEqual(before.projects)
    expect(await h.services.reviews.list()).toEqual(before.reviews)
    expect((await call('GET', '/orders?status=active', { key: apiKey })).json().data).toEqual(before.orders)
    expect((await call('GET', '/orders?status=deleted', { key: apiKey })).json().data).toEqual([])
    expect((await call('GET', '/me', { key: ownerKey })).json().ownedProjectSlugs).toEqual(['alpha'])
    expect((await call('POST', '/api-keys', { body: { label: 'http-buyer' } })).status).toBe(409)
    // The user index counter survives too: the next key gets a fresh wallet.
    const next = (await call('POST', '/api-keys', { body: { label: 'after-restart' } })).json()
    expect(before.keys.map((k) => k.walletAddress)).not.toContain(next.serviceWalletAddress)
  })
})

describe('slow clients', () => {
  it('are cut off: slow headers and slow bodies get a 408 in the error shape and their connection closed; the server keeps serving', async () => {
    const slow = await createHarness({ timeouts: { headersMs: 300, requestMs: 600, checkIntervalMs: 50 } })
    try {
      const address = await listen(slow)
      const port = Number(new URL(address).port)
      /** Sends `text` and never finishes the request; resolves with what the server said once it closed the connection. */
      const stall = async (text: string) => {
        const socket = connect(port, '127.0.0.1')
        await once(socket, 'connect')
        let out = ''
        socket.on('data', (chunk: Buffer) => (out += chunk.toString()))
        socket.write(text)
        await once(socket, 'close')
        return out
      }
      const headers = await stall(`GET ${PREFIX}/projects HTTP/1.1\r\nHost: x\r\nX-Slow: `)
      expect(headers).toMatch(/^HTTP\/1\.1 408 /)
      expect(JSON.parse(headers.split('\r\n\r\n')[1]!)).toEqual({ error: 'Request timeout', message: 'The request took too long to arrive.' })
      const body = await stall(`POST ${PREFIX}/feedback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"mess`)
      expect(body).toMatch(/^HTTP\/1\.1 408 /)
      // A client that keeps dripping header bytes after its 408 and never closes its side (half-open) is cut off:
      // the connection does not stay open for as long as it keeps sending.
      const dripper = connect({ port, host: '127.0.0.1', allowHalfOpen: true })
      await once(dripper, 'connect')
      let answered = ''
      dripper.on('data', (chunk: Buffer) => (answered += chunk.toString()))
      dripper.on('error', () => undefined) // the reset the server ends it with
      let closed = false
      dripper.on('close', () => (closed = true))
      dripper.write(`GET ${PREFIX}/projects HTTP/1.1\r\nHost: x\r\nX-Drip: `)
      const deadline = Date.now() + 20_000
      while (!closed && Date.now() < deadline) {
        if (!dripper.destroyed && answered !== '') dripper.write('a')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(answered).toMatch(/^HTTP\/1\.1 408 /)
      expect(closed).toBe(true)
      dripper.destroy()
      expect((await fetch(`${address}${PREFIX}/openapi.json`)).status).toBe(200)
    } finally {
      await slow.destroy()
    }
  }, 30_000)
})

describe('health probes', () => {
  it('GET /healthz answers while serving; GET /readyz says ready, or 503 in the error shape with the failing checks', async () => {
    let report = judgeReadiness({ store: { open: true, writable: true }, chains: [{ chain: 'base', head: 10n, indexed: 10n }], maxLagBlocks: 5 })
    const probed = await createHarness({ readiness: async () => report })
    try {
      const address = await listen(probed)
      const health = await fetch(`${address}/healthz`)
      expect(health.status).toBe(200)
      expect(await health.json()).toEqual({ status: 'ok' })
      const ready = await fetch(`${address}/readyz`)
      expect(ready.status).toBe(200)
      expect(await ready.json()).toEqual({ status: 'ready', checks: report.checks })
      report = judgeReadiness({ store: { open: true, writable: false }, chains: [{ chain: 'base', head: null, indexed: 10n }], maxLagBlocks: 5 })
      const notReady = await fetch(`${address}/readyz`)
      expect(notReady.status).toBe(503)
      expect(notReady.headers.get('retry-after')).toBe('5')
      expect(await notReady.json()).toEqual({
        error: 'Service unavailable',
        message: 'Not ready: the store refused a write (disk full or read-only?): restart the daemon once fixed; base: the chain does not answer.',
        checks: report.checks,
      })
    } finally {
      await probed.destroy()
    }
  })

  it('without the daemon probe, /readyz checks the store: not ready once it is closed', async () => {
    const alone = await createHarness()
    const address = await listen(alone)
    expect((await fetch(`${address}/readyz`)).status).toBe(200)
    await alone.store.close()
    const closed = await fetch(`${address}/readyz`)
    expect(closed.status).toBe(503)
    expect(((await closed.json()) as { checks: unknown }).checks).toEqual({ store: 'closed', chains: {} })
    await alone.destroy().catch(() => undefined)
  })
})
