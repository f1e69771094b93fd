import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { OrderRecord } from '../../src/domain/records.ts'
import { decodeCursor, descendingKey, encodeCursor } from '../../src/store/cursor.ts'
import { del, openStore, put, type Store, type StoreOperation } from '../../src/store/open-store.ts'
import { spendGroupPrefix, VISIBLE_GROUP, buyersPrefix, projectStatusPrefix } from '../../src/store/order-index.ts'
import { writeOrderAs } from '../support/write-order-as.ts'
import { readAll, readIndexPage } from '../../src/store/paginate.ts'

let dir: string
let store: Store

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prebuy-store-'))
  store = await openStore({ dataDir: dir })
})
afterEach(async () => {
  await store.close().catch(() => undefined)
  await rm(dir, { recursive: true, force: true })
})

const order = (slug: string, spend: string, status: OrderRecord['status'] = 'active', keyId = 'k1'): OrderRecord => ({
  keyId,
  slug,
  status,
  maxSpendUsdc: spend,
  maxFdvUsdc: null,
  expiresInMs: 1000,
  createdAt: 1,
  updatedAt: 1,
})

const writeOrder = (next: OrderRecord, followers = 0) => writeOrderAs(store, next, followers)

describe('openStore', () => {
  it('lives in <dataDir>/db and keeps records across close and reopen', async () => {
    expect(store.path).toBe(join(dir, 'db'))
    await store.batch([put(store.sub.meta, 'nextUserIndex', 7), put(store.sub.keysByLabel, 'a', 'k1')])
    await store.close()
    store = await openStore({ dataDir: dir })
    expect(await store.sub.meta.get('nextUserIndex')).toBe(7)
    expect(await store.sub.keysByLabel.get('a')).toBe('k1')
  })

  it('a batch across sublevels is atomic: a failing batch writes nothing', async () => {
    const bad = { type: 'put', sublevel: store.sub.meta, key: undefined, value: 1 } as unknown as StoreOperation
    await expect(store.batch([put(store.sub.keysByLabel, 'x', 'k'), bad])).rejects.toThrow()
    expect(await store.sub.keysByLabel.get('x')).toBeUndefined()
    const noValue = { type: 'put', sublevel: store.sub.meta, key: 'v', value: undefined } as unknown as StoreOperation
    await expect(store.batch([put(store.sub.keysByLabel, 'x', 'k'), noValue])).rejects.toThrow()
    expect(await store.sub.keysByLabel.get('x')).toBeUndefined()
    expect(await store.sub.meta.get('v')).toBeUndefined()
    await store.batch([put(store.sub.keysByLabel, 'x', 'k'), put(store.sub.meta, 'n', 1)])
    await store.batch([del(store.sub.keysByLabel, 'x'), put(store.sub.meta, 'n', 2)])
    expect(await store.sub.keysByLabel.get('x')).toBeUndefined()
    expect(await store.sub.meta.get('n')).toBe(2)
  })

  it('a batch writes exactly what the sublevels read back: values, keys with separators, and key order', async () => {
    const records = store.sublevel<{ n: number; text: string; nested: { list: number[] } | null }>('encoded')
    const keys = ['b!2', 'a', 'b!10', 'ü-unicode', 'a!']
    await store.batch(keys.map((key, n) => put(records, key, { n, text: `${key} "quoted" \\ ✓`, nested: n % 2 ? null : { list: [n, n + 1] } })))
    for (const [n, key] of keys.entries())
      expect(await records.get(key)).toEqual({ n, text: `${key} "quoted" \\ ✓`, nested: n % 2 ? null : { list: [n, n + 1] } })
    const listed: string[] = []
    for await (const key of records.keys()) listed.push(key)
    expect(listed).toEqual([...keys].sort())
    // Nothing leaked into another sublevel or the root's key space of another sublevel.
    expect(await store.sub.meta.get('a')).toBeUndefined()
    await store.batch([del(records, 'a'), del(records, 'b!2')])
    expect(await records.get('a')).toBeUndefined()
    expect(await records.get('a!')).toMatchObject({ n: 4 })
  })

  it('a batch on a closed store is refused with level’s error and no listener hears of it', async () => {
    const heard: number[] = []
    store.onBatch((operations) => heard.push(operations.length))
    await store.close()
    await expect(store.batch([put(store.sub.meta, 'late', 1)])).rejects.toMatchObject({ code: 'LEVEL_DATABASE_NOT_OPEN' })
    expect(heard).toEqual([])
    store = await openStore({ dataDir: dir })
    expect(await store.sub.meta.get('late')).toBeUndefined()
  })

  it('sublevels are isolated and extra sublevels can be added later', async () => {
    const launches = store.sublevel<{ block: number }>('launches')
    expect(store.sublevel('launches')).toBe(launches)
    await store.batch([put(launches, 'alpha', { block: 5 }), put(store.sub.projectsByOwner, 'alpha', 'x')])
    expect(await launches.get('alpha')).toEqual({ block: 5 })
    expect(await store.sub.projects.get('alpha')).toBeUndefined()
  })
})

describe('order indexes', () => {
  it('orders list by spend descending (numeric, not lexicographic), ties by slug', async () => {
    for (const [slug, spend] of [
      ['a', '9'],
      ['b', '10'],
      ['c', '100.5'],
      ['d', '10'],
      ['e', '0.000001'],
    ] as const)
      await writeOrder(order(slug, spend))
    const page = await readIndexPage(store.sub.ordersBySpend, spendGroupPrefix('k1', VISIBLE_GROUP), { limit: 10 })
    expect(page.entries.map((e) => e.value.slug)).toEqual(['c', 'b', 'd', 'a', 'e'])
    expect(page.nextCursor).toBeNull()
  })

  it('moving an order between states and spends leaves exactly its current index entries', async () => {
    await writeOrder(order('a', '5'))
    await writeOrder(order('a', '50'))
    await writeOrder(order('a', '50', 'deleted'))
    expect(await readAll(store.sub.ordersBySpend, 'k1!')).toHaveLength(1)
    expect((await readAll(store.sub.ordersBySpend, spendGroupPrefix('k1', 'deleted'))).map((e) => e.value.slug)).toEqual(['a'])
    expect(await readAll(store.sub.ordersBySpend, spendGroupPrefix('k1', VISIBLE_GROUP))).toHaveLength(0)
    expect(await readAll(store.sub.ordersByProject, projectStatusPrefix('a', 'active'))).toHaveLength(0)
    expect(await readAll(store.sub.ordersByProject, projectStatusPrefix('a', 'deleted'))).toHaveLength(1)
    expect(await readAll(store.sub.buyersByProject, buyersPrefix('a'))).toHaveLength(0)
    await writeOrder(order('a', '7'))
    expect((await readAll(store.sub.buyersByProject, buyersPrefix('a'))).map((e) => e.value)).toEqual(['k1'])
    expect(await readAll(store.sub.ordersBySpend, 'k1!')).toHaveLength(2)
  })

  it('buyers of a project order by follower count descending', async () => {
    await writeOrder(order('p', '1', 'active', 'k-low'), 3)
    await writeOrder(order('p', '1', 'active', 'k-high'), 1_000_000)
    await writeOrder(order('p', '1', 'active', 'k-none'), 0)
    await writeOrder(order('p', '1', 'active', 'k-mid'), 250)
    expect((await readAll(store.sub.buyersByProject, buyersPrefix('p'))).map((e) => e.value)).toEqual(['k-high', 'k-mid', 'k-low', 'k-none'])
  })
})

describe('cursors', () => {
  it('are opaque base64url of the last key and refuse foreign or garbage values', () => {
    const cursor = encodeCursor('k1!visible!0001!a')
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeCursor(cursor, 'k1!visible!')).toBe('k1!visible!0001!a')
    expect(() => decodeCursor(cursor, 'k2!visible!')).toThrow(/Invalid cursor/)
    expect(() => decodeCursor('!!!', 'k1!')).toThrow(/Invalid cursor/)
    expect(() => decodeCursor(encodeCursor('k1!'), 'k1!')).toThrow(/Invalid cursor/)
  })

  it('descending keys are fixed width and invert the order', () => {
    expect(descendingKey(0n, 4)).toBe('9999')
    expect(descendingKey(9999n, 4)).toBe('0000')
    expect(descendingKey(5n, 4) > descendingKey(10n, 4)).toBe(true)
  })

  it('a walk sees every record that existed when it began exactly once, while others are inserted', async () => {
    const initial = Array.from({ length: 57 }, (_v, i) => `s${String(i).padStart(3, '0')}`)
    for (const [i, slug] of initial.entries()) await writeOrder(order(slug, String(1 + (i % 9))))
    const seen: string[] = []
    let cursor: string | undefined
    let inserted = 0
    do {
      const page = await readIndexPage(store.sub.ordersBySpend, spendGroupPrefix('k1', VISIBLE_GROUP), { cursor, limit: 5 })
      seen.push(...page.entries.map((e) => e.value.slug))
      // Concurrent inserts at every spend level, before and after the walk's position.
      await Promise.all([writeOrder(order(`n${inserted}a`, '9')), writeOrder(order(`n${inserted}b`, '1')), writeOrder(order(`n${inserted}c`, '5'))])
      inserted += 1
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    expect(new Set(seen).size).toBe(seen.length)
    for (const slug of initial) expect(seen).toContain(slug)
  })
})

describe('engineStats: LevelDB’s own figures for the metrics', () => {
  it('memory while writes sit in the memtable; table files once a full write buffer is flushed; null once closed', async () => {
    const settings = store.sub.settings as unknown as Parameters<typeof put>[0]
    expect(store.engineStats()).toMatchObject({ tableFiles: 0 })
    // Past LevelDB's 4 MB write buffer (classic-level's default writeBufferSize): the memtable goes to a table file.
    const value = 'x'.repeat(10_000)
    for (let batch = 0; batch < 6; batch++) {
      await store.batch(Array.from({ length: 100 }, (_, i) => put(settings, `fill-${batch}-${i}`, value)))
    }
    const deadline = Date.now() + 30_000
    while ((store.engineStats()?.tableFiles ?? 0) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    const stats = store.engineStats()!
    expect(stats.tableFiles).toBeGreaterThan(0)
    expect(stats.memoryBytes).toBeGreaterThan(0)
    await store.close()
    expect(store.engineStats()).toBeNull()
  })
})
