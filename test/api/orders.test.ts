import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CURSOR_MAX_LENGTH } from '../../src/api/schemas.ts'
import { PAGE_CACHE_MAX_BYTES, PAGE_CACHE_MAX_ORDERS, PAGE_CACHE_MAX_PAGES } from '../../src/services/order-service.ts'
import { writeOrderAs } from '../support/write-order-as.ts'
import { approvedProject, plainProject, createHarness, createKey, bearer, PREFIX, type Harness, markLaunched } from './harness.ts'

let h: Harness
let key: string
beforeEach(async () => {
  h = await createHarness()
  key = (await createKey(h, 'buyer')).apiKey
  for (const slug of ['alpha', 'beta', 'gamma']) await approvedProject(h, slug)
})
afterEach(async () => {
  await h.destroy()
})

const item = (slug: string, maxSpendUsdc = '100', maxFdvUsdc: string | null = '400000', expiresInMs = 3_600_000) => ({
  slug,
  maxSpendUsdc,
  maxFdvUsdc,
  expiresInMs,
})
const send = (method: 'POST' | 'PATCH' | 'DELETE', items: unknown, apiKey = key) =>
  h.app.inject({ method, url: `${PREFIX}/orders`, headers: bearer(apiKey), payload: { items } })
const list = async (query = '', apiKey = key) => {
  const res = await h.app.inject({ method: 'GET', url: `${PREFIX}/orders${query}`, headers: bearer(apiKey) })
  expect(res.statusCode).toBe(200)
  return res.json()
}

describe('POST /orders', () => {
  it('results are index-aligned; per-item failures keep the 200', async () => {
    const res = await send('POST', [
      item('alpha'),
      item('nope'),
      item('beta', '0'),
      item('gamma', '5', null),
      item('alpha'),
      item('beta', '1', '0'),
      item('beta', '1', '1', 0),
    ])
    expect(res.statusCode).toBe(200)
    expect(res.json().results).toEqual([
      { slug: 'alpha', ok: true, status: 'created' },
      { slug: 'nope', ok: false, code: 'unknown_project', message: expect.any(String) },
      { slug: 'beta', ok: false, code: 'invalid_amount', message: expect.any(String) },
      { slug: 'gamma', ok: true, status: 'created' },
      { slug: 'alpha', ok: false, code: 'duplicate_slug', message: expect.any(String) },
      { slug: 'beta', ok: false, code: 'duplicate_slug', message: expect.any(String) },
      { slug: 'beta', ok: false, code: 'duplicate_slug', message: expect.any(String) },
    ])
  })

  it('per-item value codes: invalid_fdv, invalid_expiry', async () => {
    const res = await send('POST', [item('alpha', '1', '0'), item('beta', '1', null, 1.5), item('gamma', '1.1234567')])
    expect(res.json().results.map((r: { code: string }) => r.code)).toEqual(['invalid_fdv', 'invalid_expiry', 'invalid_amount'])
  })

  it('is idempotent: the same POST again answers unchanged and keeps the values', async () => {
    await send('POST', [item('alpha', '100')])
    const again = await send('POST', [item('alpha', '999')])
    expect(again.json().results).toEqual([{ slug: 'alpha', ok: true, status: 'unchanged' }])
    expect((await list()).data).toMatchObject([{ slug: 'alpha', maxSpendUsdc: '100' }])
  })

  it('a slug whose order was deleted gets a new order (created)', async () => {
    await send('POST', [item('alpha', '100')])
    await send('DELETE', [{ slug: 'alpha' }])
    const res = await send('POST', [item('alpha', '7')])
    expect(res.json().results).toEqual([{ slug: 'alpha', ok: true, status: 'created' }])
    expect((await list()).data).toMatchObject([{ slug: 'alpha', status: 'active', maxSpendUsdc: '7' }])
  })

  it('project_launched once the project has launched', async () => {
    await markLaunched(h, 'beta', {
      chain: 'base',
      tokenAddress: '0x00000000000000000000000000000000000000b7',
      symbol: 'B',
      name: 'Beta',
      decimals: 18,
      launchedAt: h.now.value,
    })
    const res = await send('POST', [item('beta')])
    expect(res.json().results[0]).toMatchObject({ ok: false, code: 'project_launched' })
  })

  it('400 for 0 or 51 items, a wrong shape, a missing field or a missing body', async () => {
    const bodies: unknown[] = [
      { items: [] },
      { items: Array.from({ length: 51 }, (_v, i) => item(`s${i}`)) },
      { items: 'alpha' },
      { items: [{ slug: 'alpha', maxSpendUsdc: 100, maxFdvUsdc: null, expiresInMs: 1 }] },
      { items: [{ slug: 'alpha', maxSpendUsdc: '100', expiresInMs: 1 }] },
      { items: [{ slug: 'alpha', maxSpendUsdc: '100', maxFdvUsdc: null }] },
      {},
      [],
    ]
    for (const payload of bodies) {
      const res = await h.app.inject({ method: 'POST', url: `${PREFIX}/orders`, headers: bearer(key), payload: payload as object })
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400)
      expect(res.json()).toMatchObject({ error: 'Bad request', message: 'Invalid request body' })
    }
    const noBody = await h.app.inject({ method: 'POST', url: `${PREFIX}/orders`, headers: bearer(key) })
    expect(noBody.statusCode).toBe(400)
    expect(noBody.json()).toMatchObject({ error: 'Bad request', message: 'Invalid request body' })
  })

  it('accepts exactly 50 items', async () => {
    for (let i = 0; i < 50; i += 1) await plainProject(h, `x${i}`)
    const res = await send(
      'POST',
      Array.from({ length: 50 }, (_v, i) => item(`x${i}`)),
    )
    expect(res.statusCode).toBe(200)
    expect(res.json().results).toHaveLength(50)
    expect(res.json().results.every((r: { status: string }) => r.status === 'created')).toBe(true)
  })
})

describe('PATCH /orders', () => {
  it('updated, unchanged, no_active_order, unknown_project, index-aligned', async () => {
    await send('POST', [item('alpha', '100', '400000')])
    const res = await send('PATCH', [
      { slug: 'alpha', maxFdvUsdc: null },
      { slug: 'alpha', expiresInMs: 5 },
      { slug: 'beta', maxSpendUsdc: '1' },
      { slug: 'zzz', maxSpendUsdc: '1' },
    ])
    expect(res.statusCode).toBe(200)
    expect(res.json().results).toEqual([
      { slug: 'alpha', ok: true, status: 'updated' },
      { slug: 'alpha', ok: false, code: 'duplicate_slug', message: expect.any(String) },
      { slug: 'beta', ok: false, code: 'no_active_order', message: expect.any(String) },
      { slug: 'zzz', ok: false, code: 'unknown_project', message: expect.any(String) },
    ])
    const [order] = (await list()).data
    expect(order).toMatchObject({ slug: 'alpha', maxFdvUsdc: null, maxSpendUsdc: '100' })
    const same = await send('PATCH', [{ slug: 'alpha', maxSpendUsdc: '100.00' }])
    expect(same.json().results).toEqual([{ slug: 'alpha', ok: true, status: 'unchanged' }])
  })

  it('updatedAt moves, createdAt stays', async () => {
    await send('POST', [item('alpha')])
    h.now.value += 5000
    await send('PATCH', [{ slug: 'alpha', maxSpendUsdc: '5' }])
    const [order] = (await list()).data
    expect(Date.parse(order.updatedAt) - Date.parse(order.createdAt)).toBe(5000)
  })

  it('order_not_active on an order the executor has moved on; no_active_order on a deleted one', async () => {
    await send('POST', [item('alpha'), item('beta')])
    const record = await h.services.orders.getOrder((await h.services.keys.listKeys()).find((k) => k.label === 'buyer')!.id, 'alpha')
    await writeOrderAs(h.store, { ...record!, status: 'filled' })
    await send('DELETE', [{ slug: 'beta' }])
    const res = await send('PATCH', [
      { slug: 'alpha', maxSpendUsdc: '1' },
      { slug: 'beta', maxSpendUsdc: '1' },
    ])
    expect(res.json().results.map((r: { code: string }) => r.code)).toEqual(['order_not_active', 'no_active_order'])
  })

  it('400 when an item has only a slug', async () => {
    const res = await send('PATCH', [{ slug: 'alpha' }])
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ error: 'Bad request', message: 'Invalid request body' })
  })
})

describe('DELETE /orders', () => {
  it('deleted, then already_deleted (idempotent); never-placed is already_deleted; unknown project is reported', async () => {
    await send('POST', [item('alpha')])
    const first = await send('DELETE', [{ slug: 'alpha' }, { slug: 'beta' }, { slug: 'nope' }])
    expect(first.statusCode).toBe(200)
    expect(first.json().results).toEqual([
      { slug: 'alpha', ok: true, status: 'deleted' },
      { slug: 'beta', ok: true, status: 'already_deleted' },
      { slug: 'nope', ok: false, code: 'unknown_project', message: expect.any(String) },
    ])
    const second = await send('DELETE', [{ slug: 'alpha' }])
    expect(second.json().results).toEqual([{ slug: 'alpha', ok: true, status: 'already_deleted' }])
  })

  it('400 for an empty batch', async () => {
    expect((await send('DELETE', [])).statusCode).toBe(400)
  })
})

describe('GET /orders', () => {
  it('spend descending, deleted excluded unless status=deleted, record fields as documented', async () => {
    await send('POST', [item('alpha', '10'), item('beta', '250.5', null), item('gamma', '99')])
    await send('DELETE', [{ slug: 'gamma' }])
    const page = await list()
    expect(page.data.map((o: { slug: string }) => o.slug)).toEqual(['beta', 'alpha'])
    expect(page.meta).toEqual({ total: 2, limit: 20, nextCursor: null })
    expect(Object.keys(page.data[0]).sort()).toEqual(['createdAt', 'expiresInMs', 'maxFdvUsdc', 'maxSpendUsdc', 'slug', 'status', 'updatedAt'])
    expect(page.data[0]).toMatchObject({ slug: 'beta', status: 'active', maxSpendUsdc: '250.5', maxFdvUsdc: null, expiresInMs: 3_600_000 })
    expect((await list('?status=deleted')).data).toMatchObject([{ slug: 'gamma', status: 'deleted' }])
    expect((await list('?status=active')).data).toHaveLength(2)
    expect((await list('?status=filled')).data).toHaveLength(0)
  })

  it("meta.total counts the key's orders under the status filter on every page, and follows writes", async () => {
    await send('POST', [item('alpha', '10'), item('beta', '20'), item('gamma', '30')])
    await send('DELETE', [{ slug: 'gamma' }])
    const first = await list('?limit=1')
    expect(first.meta).toMatchObject({ total: 2, limit: 1 })
    expect((await list(`?limit=1&cursor=${encodeURIComponent(first.meta.nextCursor)}`)).meta.total).toBe(2)
    expect((await list('?status=deleted')).meta.total).toBe(1)
    expect((await list('?status=active')).meta.total).toBe(2)
    expect((await list('?status=filled')).meta.total).toBe(0)
    // The cached page is dropped on the key's next write: the total follows it.
    await send('DELETE', [{ slug: 'alpha' }])
    expect((await list('?limit=1')).meta.total).toBe(1)
    expect((await list('?status=deleted')).meta.total).toBe(2)
  })

  it('shows what happened once executed', async () => {
    await send('POST', [item('alpha', '10')])
    const keyId = (await h.services.keys.listKeys()).find((k) => k.label === 'buyer')!.id
    const record = await h.services.orders.getOrder(keyId, 'alpha')
    const execution = { spentUsdc: '10', tokensReceived: '970', feeTokens: '30', txHash: `0x${'12'.repeat(32)}`, executedAt: h.now.value }
    expect((await list()).data[0].status).toBe('active')
    // A write that bypasses the order service (the executor's) is visible at once: the page cache follows store.batch.
    await writeOrderAs(h.store, { ...record!, status: 'filled', execution })
    const [order] = (await list()).data
    expect(order).toMatchObject({
      status: 'filled',
      execution: { spentUsdc: '10', tokensReceived: '970', feeTokens: '30', txHash: execution.txHash, executedAt: new Date(h.now.value).toISOString() },
    })
  })

  it('400 for an unknown status, a bad cursor or a non-integer limit; limits are clamped', async () => {
    for (const query of ['?status=weird', '?cursor=%21%21', '?limit=abc', '?cursor=']) {
      const res = await h.app.inject({ method: 'GET', url: `${PREFIX}/orders${query}`, headers: bearer(key) })
      expect(res.statusCode, query).toBe(400)
      expect(res.json().error).toBe('Bad request')
    }
    await send('POST', [item('alpha'), item('beta')])
    expect((await list('?limit=0')).meta.limit).toBe(1)
    expect((await list('?limit=0')).data).toHaveLength(1)
    expect((await list('?limit=1000')).meta.limit).toBe(100)
  })

  it('a cursor walk has no duplicates and no gaps, also under concurrent inserts', async () => {
    const slugs = Array.from({ length: 45 }, (_v, i) => `p${i}`)
    for (const slug of slugs) await plainProject(h, slug)
    for (let i = 0; i < 15; i += 1) for (const s of 'abc') await plainProject(h, `q${i}${s}`)
    await send(
      'POST',
      slugs.map((slug, i) => item(slug, String(1 + (i % 7)))),
    )
    const seen: string[] = []
    let cursor: string | null = null
    let round = 0
    do {
      const page = await list(`?limit=4${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...page.data.map((o: { slug: string }) => o.slug))
      await send('POST', [item(`q${round}a`, '7'), item(`q${round}b`, '1'), item(`q${round}c`, '3')])
      round += 1
      cursor = page.meta.nextCursor
    } while (cursor)
    expect(new Set(seen).size).toBe(seen.length)
    for (const slug of slugs) expect(seen).toContain(slug)
    // Pages come in spend order.
    const spends = (await list('?limit=100')).data.map((o: { maxSpendUsdc: string }) => Number(o.maxSpendUsdc))
    expect([...spends].sort((a, b) => b - a)).toEqual(spends)
  })

  it('the page cache is bounded: distinct cursors, even of empty pages, never grow it past PAGE_CACHE_MAX_PAGES', async () => {
    await send('POST', [item('alpha'), item('beta')])
    const issued = (await list('?limit=1')).meta.nextCursor as string
    const lastKey = Buffer.from(issued, 'base64url').toString('utf8')
    const keyId = (await h.services.keys.listKeys()).find((k) => k.label === 'buyer')!.id
    // Cursors a client may craft under its own prefix: valid, distinct, each page empty or one order.
    for (let i = 0; i < PAGE_CACHE_MAX_PAGES + 500; i += 1) {
      const cursor = Buffer.from(`${lastKey}~${i}`, 'utf8').toString('base64url')
      await h.services.orders.listOrders(keyId, { cursor, limit: 20 })
      expect(h.services.orders.pageCacheSize().pages).toBeLessThanOrEqual(PAGE_CACHE_MAX_PAGES)
    }
    expect(h.services.orders.pageCacheSize().orders).toBeLessThanOrEqual(PAGE_CACHE_MAX_ORDERS)
    // Still correct afterwards: the first page is the real one.
    expect((await list('?limit=1')).meta.nextCursor).toBe(issued)
  }, 60_000)

  it('the page cache is bounded by bytes too, and cursors by length', async () => {
    await send('POST', [item('alpha'), item('beta')])
    const issued = (await list('?limit=1')).meta.nextCursor as string
    const lastKey = Buffer.from(issued, 'base64url').toString('utf8')
    const keyId = (await h.services.keys.listKeys()).find((k) => k.label === 'buyer')!.id
    // Long crafted cursors (the service itself takes them; the API refuses them below): ~40 KB of cache key each.
    const pad = 'x'.repeat(20_000)
    for (let i = 0; i < 1_200; i += 1) {
      const cursor = Buffer.from(`${lastKey}~${pad}${i}`, 'utf8').toString('base64url')
      await h.services.orders.listOrders(keyId, { cursor, limit: 20 })
      expect(h.services.orders.pageCacheSize().bytes).toBeLessThanOrEqual(PAGE_CACHE_MAX_BYTES)
    }
    expect(h.services.orders.pageCacheSize().pages).toBeLessThan(1_200)
    const long = Buffer.from(`${lastKey}~${'y'.repeat(CURSOR_MAX_LENGTH)}`, 'utf8').toString('base64url')
    const res = await h.app.inject({ method: 'GET', url: `${PREFIX}/orders?cursor=${long}`, headers: bearer(key) })
    expect(res.statusCode).toBe(400)
    expect(JSON.stringify(res.json())).toMatch(/cursor/)
    expect((await list('?limit=1')).meta.nextCursor).toBe(issued)
  }, 60_000)

  it('a cursor from one key does not walk another key', async () => {
    const other = (await createKey(h, 'other')).apiKey
    await send('POST', [item('alpha'), item('beta')])
    const page = await list('?limit=1')
    const res = await h.app.inject({ method: 'GET', url: `${PREFIX}/orders?cursor=${page.meta.nextCursor}`, headers: bearer(other) })
    expect(res.statusCode).toBe(400)
  })
})

describe('key isolation', () => {
  it('a key only sees and changes its own orders', async () => {
    const other = (await createKey(h, 'other')).apiKey
    await send('POST', [item('alpha', '10')])
    expect((await list('', other)).data).toEqual([])
    expect((await send('DELETE', [{ slug: 'alpha' }], other)).json().results).toEqual([{ slug: 'alpha', ok: true, status: 'already_deleted' }])
    expect((await send('PATCH', [{ slug: 'alpha', maxSpendUsdc: '1' }], other)).json().results[0]).toMatchObject({ code: 'no_active_order' })
    expect((await send('POST', [item('alpha', '20')], other)).json().results[0]).toMatchObject({ status: 'created' })
    expect((await list()).data).toMatchObject([{ slug: 'alpha', maxSpendUsdc: '10', status: 'active' }])
    expect((await list('', other)).data).toMatchObject([{ slug: 'alpha', maxSpendUsdc: '20', status: 'active' }])
  })
})

describe('revoking a key', () => {
  it("cancels the key's active orders in the revocation's batch; an executing one settles as usual; other keys are untouched", async () => {
    const { createServiceOperations } = await import('../../daemon/admin/service-operations.ts')
    const operations = createServiceOperations({
      services: h.services,
      status: () => Promise.reject(new Error('unused')),
      backup: () => {
        throw new Error('unused')
      },
    })
    const other = (await createKey(h, 'other')).apiKey
    await send('POST', [item('alpha'), item('beta'), item('gamma')])
    await send('POST', [item('alpha')], other)
    const keyId = (await h.services.keys.listKeys()).find((k) => k.label === 'buyer')!.id
    // One order is in flight (the executor marked it executing).
    await writeOrderAs(h.store, { ...(await h.services.orders.getOrder(keyId, 'gamma'))!, status: 'executing' })

    const result = await operations.revokeKey({ id: 'buyer' })
    expect(result).toMatchObject({ key: { label: 'buyer' }, cancelledOrders: 2 })
    expect(result.key.revokedAt).not.toBeNull()
    expect((await h.services.orders.getOrder(keyId, 'alpha'))?.status).toBe('deleted')
    expect((await h.services.orders.getOrder(keyId, 'beta'))?.status).toBe('deleted')
    expect((await h.services.orders.getOrder(keyId, 'gamma'))?.status).toBe('executing')
    // The key is refused at once; the other key's order is untouched.
    expect((await h.app.inject({ method: 'GET', url: `${PREFIX}/orders`, headers: bearer(key) })).statusCode).toBe(401)
    expect((await list('', other)).data).toMatchObject([{ slug: 'alpha', status: 'active' }])
    // Revoking again changes nothing.
    expect(await operations.revokeKey({ id: 'buyer' })).toMatchObject({ cancelledOrders: 0 })
  })
})
