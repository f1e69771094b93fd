import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWarmBooks, DIRECT_BALANCES_MAX_WALLETS, type LoadedOrder, MAX_CARRIED_BALANCE_BLOCKS } from '../../daemon/executor/warm-books.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import { orderKey } from '../../src/store/order-index.ts'
import { del, openStore, put, type Store } from '../../src/store/open-store.ts'
import { readAll } from '../../src/store/paginate.ts'
import { until } from '../sync/until.ts'

const wallet = (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}` as Address
const order = (i: number, maxSpendUsdc: string, updatedAt = i): OrderRecord => ({
  keyId: `key_${i}`,
  slug: 'warm',
  status: 'active',
  maxSpendUsdc,
  maxFdvUsdc: null,
  expiresInMs: 3_600_000,
  createdAt: i,
  updatedAt,
})

describe('warm books (pre-launch orders and balances kept ready for the launch tick)', () => {
  let dir: string
  let store: Store
  // Chain state the fake balance reader serves, per wallet; reads record the block they were made at.
  const chainBalances = new Map<string, bigint>()
  const balanceReads: bigint[] = []
  let storeLoads = 0

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'prebuy-warm-'))
    store = await openStore({ dataDir: dir })
  })
  afterAll(async () => {
    await store.close()
    await rm(dir, { recursive: true, force: true })
  })

  const warmBooks = () =>
    createWarmBooks({
      store,
      slugsOf: async () => ['warm'],
      async loadOrders(slug): Promise<LoadedOrder[]> {
        storeLoads++
        const all = await readAll(store.sub.orders, '')
        return all
          .map((e) => e.value as OrderRecord)
          .filter((o) => o.slug === slug && o.status === 'active')
          .map((o) => {
            const i = Number(o.keyId.slice(4))
            return { order: o, userIndex: i, followers: 0, wallet: wallet(i) }
          })
      },
      async readBalances(_chain, wallets, blockNumber) {
        balanceReads.push(blockNumber)
        return new Map(wallets.map((w) => [w.toLowerCase(), chainBalances.get(w.toLowerCase()) ?? 0n]))
      },
    })

  it('after the previous block, re-reads only the wallets the block transferred (and any new one); a gap or a reorg reads all', async () => {
    const slug = 'transfers'
    await store.batch([
      put(store.sub.orders, orderKey('key_31', slug), { ...order(31, '5'), slug }),
      put(store.sub.orders, orderKey('key_32', slug), { ...order(32, '5'), slug }),
    ])
    const chain = new Map([
      [wallet(31).toLowerCase(), 10n],
      [wallet(32).toLowerCase(), 20n],
    ])
    const reads: string[][] = []
    const ranges: Array<[bigint, bigint]> = []
    let transferred = new Set<string>()
    const warm = createWarmBooks({
      store,
      slugsOf: async () => [slug],
      loadOrders: async () => [31, 32].map((i) => ({ order: { ...order(i, '5'), slug }, userIndex: i, followers: 0, wallet: wallet(i) })),
      async readBalances(_chain, wallets) {
        reads.push(wallets.map((w) => w.toLowerCase()))
        return new Map(wallets.map((w) => [w.toLowerCase(), chain.get(w.toLowerCase()) ?? 0n]))
      },
      changedWallets: async (_chain, block, from = block) => {
        ranges.push([from, block])
        return transferred
      },
    })
    try {
      warm.refresh('base', 10n)
      const first = await warm.take('base', slug, 10n)
      expect(first?.balances.get(wallet(32).toLowerCase())).toBe(20n)
      expect(reads.at(-1)?.length).toBe(2)
      // A state that read every wallet: derived from nothing (the executor holds no balance across it).
      expect(first?.state?.since).toBeUndefined()
      // Block 11 moved wallet 31's funds only: one wallet read, the other carried over.
      chain.set(wallet(31).toLowerCase(), 1n)
      transferred = new Set([wallet(31).toLowerCase(), '0x000000000000000000000000000000000000dead'])
      warm.refresh('base', 11n)
      const next = await warm.take('base', slug, 11n)
      expect(reads.at(-1)).toEqual([wallet(31).toLowerCase()])
      expect(next?.balances.get(wallet(31).toLowerCase())).toBe(1n)
      expect(next?.balances.get(wallet(32).toLowerCase())).toBe(20n)
      // Derived from block 10's state, changed exactly in the block's Transfer-log wallets.
      expect(next?.state?.since).toEqual({ serial: first?.state?.serial, changed: transferred })
      expect(next?.state?.serial).not.toBe(first?.state?.serial)
      // Block 12 with no transfer: no balance read at all, and no copy: block 11's map serves (a copy of 17,000
      // balances on every block was a CPU cost of a held book, the held-ticks bench's profile).
      transferred = new Set()
      const count = reads.length
      warm.refresh('base', 12n)
      const quiet = await warm.take('base', slug, 12n)
      expect(quiet?.balances.get(wallet(31).toLowerCase())).toBe(1n)
      expect(reads.length).toBe(count)
      expect(quiet?.balances).toBe(next?.balances)
      // A gap (block 14 after 12: a refresh skipped while one ran) is carried over the Transfer logs of blocks 13-14,
      // asked in one query; only the wallet they name is read.
      chain.set(wallet(32).toLowerCase(), 7n)
      transferred = new Set([wallet(32).toLowerCase()])
      warm.refresh('base', 14n)
      const carried = await warm.take('base', slug, 14n)
      expect(ranges.at(-1)).toEqual([13n, 14n])
      expect(reads.at(-1)).toEqual([wallet(32).toLowerCase()])
      expect(carried?.balances.get(wallet(32).toLowerCase())).toBe(7n)
      expect(carried?.balances.get(wallet(31).toLowerCase())).toBe(1n)
      expect(carried?.state?.since?.changed).toEqual(transferred)
      // A gap beyond MAX_CARRIED_BALANCE_BLOCKS reads every wallet again; so does the first block after a reorg.
      const far = 14n + MAX_CARRIED_BALANCE_BLOCKS + 1n
      warm.refresh('base', far)
      expect((await warm.take('base', slug, far))?.state?.since).toBeUndefined()
      expect(reads.at(-1)?.length).toBe(2)
      warm.reset('base')
      expect(await warm.take('base', slug, far)).toBeUndefined()
      warm.refresh('base', far + 1n)
      expect((await warm.take('base', slug, far + 1n))?.state?.since).toBeUndefined()
      expect(reads.at(-1)?.length).toBe(2)
    } finally {
      warm.stop()
    }
  })

  it('reloads a warm project shortly after an order write, so the next block (the launch) finds its orders loaded', async () => {
    const slug = 'late'
    let loads = 0
    const warm = createWarmBooks({
      store,
      slugsOf: async () => [slug],
      async loadOrders() {
        loads++
        const all = await readAll(store.sub.orders, '')
        return all
          .map((e) => e.value as OrderRecord)
          .filter((o) => o.slug === slug && o.status === 'active')
          .map((o) => ({ order: o, userIndex: 0, followers: 0, wallet: wallet(Number(o.keyId.slice(4))) }))
      },
      readBalances: async (_chain, wallets) => new Map(wallets.map((w) => [w.toLowerCase(), 1n])),
      reloadDelayMs: 10,
    })
    try {
      warm.refresh('base', 20n)
      expect((await warm.take('base', slug, 20n))?.orders).toEqual([])
      expect(loads).toBe(1)
      await store.batch([put(store.sub.orders, orderKey('key_41', slug), { ...order(41, '3'), slug })])
      await new Promise((r) => setTimeout(r, 60))
      expect(loads).toBe(2)
      // The new order's wallet got its balance at the snapshot's block, merged into that snapshot.
      expect((await warm.take('base', slug, 20n))?.balances.get(wallet(41).toLowerCase())).toBe(1n)
      warm.refresh('base', 21n)
      expect((await warm.take('base', slug, 21n))?.orders?.map((o) => o.order.keyId)).toEqual(['key_41'])
      expect(loads).toBe(2)
    } finally {
      warm.stop()
    }
  })

  it('serves the snapshot of exactly the ticked block, and sees placements, edits, deletions and balance changes', async () => {
    await store.batch([put(store.sub.orders, orderKey('key_1', 'warm'), order(1, '10'))])
    chainBalances.set(wallet(1).toLowerCase(), 100n)
    const warm = warmBooks()
    try {
      warm.refresh('base', 5n)
      const first = await warm.take('base', 'warm', 5n)
      expect(first?.orders?.map((o) => [o.order.keyId, o.order.maxSpendUsdc])).toEqual([['key_1', '10']])
      expect(first?.balances.get(wallet(1).toLowerCase())).toBe(100n)
      expect(balanceReads).toContain(5n)
      // Another block's tick never gets this block's balances.
      expect(await warm.take('base', 'warm', 6n)).toBeUndefined()

      // An order placed after the snapshot was read: the orders are no longer exact (the caller reloads them).
      await store.batch([put(store.sub.orders, orderKey('key_2', 'warm'), order(2, '20'))])
      const stale = await warm.take('base', 'warm', 5n)
      expect(stale?.orders).toBeUndefined()
      expect(stale?.balances.get(wallet(1).toLowerCase())).toBe(100n)

      // The next block's refresh holds the new order, an edit, and the new balance.
      chainBalances.set(wallet(1).toLowerCase(), 40n)
      chainBalances.set(wallet(2).toLowerCase(), 7n)
      await store.batch([put(store.sub.orders, orderKey('key_1', 'warm'), order(1, '15', 99))])
      warm.refresh('base', 6n)
      const second = await warm.take('base', 'warm', 6n)
      expect(second?.orders?.map((o) => [o.order.keyId, o.order.maxSpendUsdc]).sort()).toEqual([
        ['key_1', '15'],
        ['key_2', '20'],
      ])
      expect(second?.balances.get(wallet(1).toLowerCase())).toBe(40n)
      expect(second?.balances.get(wallet(2).toLowerCase())).toBe(7n)

      // A deletion, then a refresh: gone.
      await store.batch([del(store.sub.orders, orderKey('key_2', 'warm'))])
      expect((await warm.take('base', 'warm', 6n))?.orders).toBeUndefined()
      warm.refresh('base', 7n)
      expect((await warm.take('base', 'warm', 7n))?.orders?.map((o) => o.order.keyId)).toEqual(['key_1'])

      // An unrelated project's write leaves this snapshot exact; a user write does not.
      const loads = storeLoads
      await store.batch([put(store.sub.orders, orderKey('key_9', 'other'), { ...order(9, '1'), slug: 'other' })])
      expect((await warm.take('base', 'warm', 7n))?.orders?.map((o) => o.order.keyId)).toEqual(['key_1'])
      expect(storeLoads).toBe(loads)
      await store.batch([put(store.sub.users, 'key_1', { keyId: 'key_1', userIndex: 1 })])
      expect((await warm.take('base', 'warm', 7n))?.orders).toBeUndefined()

      // Blocks without writes re-read only balances: the orders are carried over, not loaded from the store again.
      warm.refresh('base', 8n)
      expect((await warm.take('base', 'warm', 8n))?.orders?.map((o) => o.order.keyId)).toEqual(['key_1'])
      const afterWrite = storeLoads
      chainBalances.set(wallet(1).toLowerCase(), 3n)
      warm.refresh('base', 9n)
      const quiet = await warm.take('base', 'warm', 9n)
      expect(quiet?.orders?.map((o) => o.order.keyId)).toEqual(['key_1'])
      expect(quiet?.balances.get(wallet(1).toLowerCase())).toBe(3n)
      expect(storeLoads).toBe(afterWrite)
      expect(balanceReads.at(-1)).toBe(9n)
    } finally {
      warm.stop()
    }
  })

  it('refreshes a block once (a pushed launch log starts it before the block’s own signal); after a reset, again', async () => {
    const warm = warmBooks()
    try {
      await store.batch([put(store.sub.orders, orderKey('key_41', 'warm'), order(41, '5'))])
      const before = balanceReads.length
      warm.refresh('base', 20n)
      warm.refresh('base', 20n)
      await warm.take('base', 'warm', 20n)
      warm.refresh('base', 20n)
      await warm.take('base', 'warm', 20n)
      // Before: the second and third calls refreshed block 20 again (two more balance reads).
      expect(balanceReads.slice(before)).toEqual([20n])
      // A reorg resets the chain's refreshes: the new block at that number is read again.
      warm.reset('base')
      warm.refresh('base', 20n)
      await warm.take('base', 'warm', 20n)
      expect(balanceReads.slice(before)).toEqual([20n, 20n])
    } finally {
      warm.stop()
    }
  })
  /** A project's active orders from the store, each buyer's wallet from its key's number. */
  const storedOrders = async (slug: string): Promise<LoadedOrder[]> =>
    (await readAll(store.sub.orders, ''))
      .map((e) => e.value as OrderRecord)
      .filter((o) => o.slug === slug && o.status === 'active')
      .map((o) => ({ order: o, userIndex: Number(o.keyId.slice(4)), followers: 0, wallet: wallet(Number(o.keyId.slice(4))) }))

  it('writes while an order load runs queue one load, not one each: the refresh after them waits for two loads (the silent 17,000-order book)', async () => {
    // docs/execution.md §3, "The silent book: cause and fix": each write's debounced reload (and each block's refresh)
    // queued a full load of the project behind the one under way; with loads slower than the writes (17,000 orders:
    // 0.5-2.6 s a load at load 12, a write every few ms while seeding, two PATCHes a second) the queue grew without
    // end, and the refresh of a tick's block, and so the tick, waited behind all of it: no tick for minutes.
    const slug = 'coalesce'
    const held: Array<() => void> = []
    let hold = true
    let loads = 0
    const warm = createWarmBooks({
      store,
      slugsOf: async () => [slug],
      async loadOrders(s) {
        loads++
        // The first load is held (slower than every write below), the others answer at the store's speed.
        if (hold) await new Promise<void>((resolve) => held.push(resolve))
        return storedOrders(s)
      },
      readBalances: async (_chain, wallets) => new Map(wallets.map((w) => [w.toLowerCase(), 1n])),
      reloadDelayMs: 1,
    })
    try {
      warm.refresh('base', 30n)
      await until('the first load under way', () => held.length === 1)
      for (let i = 0; i < 10; i++) {
        await store.batch([put(store.sub.orders, orderKey(`key_${60 + i}`, slug), { ...order(60 + i, '5'), slug })])
        // Past the write's debounced reload (a 1 ms timer, set before this one: it runs first), which asks for the orders.
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      hold = false
      held.shift()!()
      await warm.take('base', slug, 30n)
      warm.refresh('base', 31n)
      const next = await warm.take('base', slug, 31n)
      expect(next?.orders?.map((o) => o.order.keyId)).toEqual(Array.from({ length: 10 }, (_, i) => `key_${60 + i}`))
      // The held load, then one load that every reload and the next refresh joined. Before: 11, one per write.
      expect(loads).toBe(2)
    } finally {
      warm.stop()
    }
  })

  /** `count` active orders of `slug`, buyers `from` on (one wallet each). */
  const seedOrders = (slug: string, from: number, count: number) =>
    store.batch(Array.from({ length: count }, (_, i) => put(store.sub.orders, orderKey(`key_${from + i}`, slug), { ...order(from + i, '5'), slug })))

  it('a wallet new to the book since the newest refresh is read at the next one, and by a tick carried past it, with no transfer in between', async () => {
    // The refresh and the carried tick look only at the transferred wallets while the book's held list is the one the
    // balances were read for; a placement gives a new list, whose wallets must all be checked again.
    const slug = 'newwallet'
    const big = DIRECT_BALANCES_MAX_WALLETS + 4
    await seedOrders(slug, 3000, big)
    const reads: Array<{ block: bigint; wallets: string[] }> = []
    const warm = createWarmBooks({
      store,
      slugsOf: async () => [slug],
      loadOrders: storedOrders,
      async readBalances(_chain, wallets, block) {
        reads.push({ block, wallets: wallets.map((w) => w.toLowerCase()) })
        return new Map(wallets.map((w) => [w.toLowerCase(), 9n]))
      },
      changedWallets: async () => new Set(),
      // The write's own reload (which would also read the new wallet, into the newest snapshot) held off.
      reloadDelayMs: 60_000,
    })
    const newWallet = (i: number) => wallet(i).toLowerCase()
    try {
      warm.refresh('base', 60n)
      expect((await warm.take('base', slug, 60n))?.balances.has(newWallet(3000))).toBe(true)
      await store.batch([put(store.sub.orders, orderKey('key_3900', slug), { ...order(3900, '5'), slug })])
      warm.refresh('base', 61n)
      const refreshed = await warm.take('base', slug, 61n)
      expect(refreshed?.orders?.length).toBe(big + 1)
      expect(reads.at(-1)).toEqual({ block: 61n, wallets: [newWallet(3900)] })
      expect(refreshed?.balances.get(newWallet(3900))).toBe(9n)
      // The same for a tick whose block has no refresh (carried from block 61's).
      await store.batch([put(store.sub.orders, orderKey('key_3901', slug), { ...order(3901, '5'), slug })])
      const carried = await warm.take('base', slug, 63n)
      expect(carried?.orders?.length).toBe(big + 2)
      expect(reads.at(-1)).toEqual({ block: 63n, wallets: [newWallet(3901)] })
      expect(carried?.balances.get(newWallet(3901))).toBe(9n)
    } finally {
      warm.stop()
    }
  })

  it('a tick whose block has no refresh carries its balances from the newest finished one by the Transfer logs; a small book reads them', async () => {
    // A refresh slower than a block makes the blocks arriving meanwhile skip theirs: a tick of such a block used to read
    // every balance of its book itself (17,000 wallets: 5-10 s a tick at load 12, the book ticked once in 40 blocks).
    const slug = 'carry'
    const big = DIRECT_BALANCES_MAX_WALLETS + 44
    await seedOrders(slug, 1000, big)
    const chain = new Map<string, bigint>()
    const reads: Array<{ block: bigint; wallets: string[] }> = []
    const ranges: Array<[bigint, bigint]> = []
    // The wallets whose stablecoin moved, per block (the Transfer logs the fake log query serves).
    const transfers = new Map<bigint, string[]>()
    let slugs = [slug]
    const warm = createWarmBooks({
      store,
      slugsOf: async () => slugs,
      loadOrders: storedOrders,
      async readBalances(_chain, wallets, block) {
        reads.push({ block, wallets: wallets.map((w) => w.toLowerCase()) })
        return new Map(wallets.map((w) => [w.toLowerCase(), chain.get(w.toLowerCase()) ?? 9n]))
      },
      changedWallets: async (_chain, block, from = block) => {
        ranges.push([from, block])
        const out = new Set<string>()
        for (let b = from; b <= block; b++) for (const w of transfers.get(b) ?? []) out.add(w)
        return out
      },
    })
    const moved = wallet(1000).toLowerCase()
    try {
      warm.refresh('base', 40n)
      const first = await warm.take('base', slug, 40n)
      expect(reads.at(-1)?.wallets.length).toBe(big)
      // Blocks 41 and 42 got no refresh (one was under way); wallet 1000's balance moved in 42.
      chain.set(moved, 5n)
      transfers.set(42n, [moved])
      const tick = await warm.take('base', slug, 42n)
      expect(tick?.orders?.length).toBe(big)
      expect(tick?.ordersVersion).toBeDefined()
      expect(ranges.at(-1)).toEqual([41n, 42n])
      // One wallet read, at the tick's block; every other balance carried from block 40.
      expect(reads.at(-1)).toEqual({ block: 42n, wallets: [moved] })
      expect(tick?.balances.get(moved)).toBe(5n)
      expect(tick?.balances.get(wallet(1001).toLowerCase())).toBe(9n)
      expect(tick?.state?.since).toEqual({ serial: first?.state?.serial, changed: new Set([moved]) })
      // Nothing moved since the newest refresh (block 45): no read at all.
      warm.refresh('base', 45n)
      await warm.take('base', slug, 45n)
      const count = reads.length
      expect((await warm.take('base', slug, 47n))?.balances.get(moved)).toBe(5n)
      expect(ranges.at(-1)).toEqual([46n, 47n])
      expect(reads.length).toBe(count)
      // A write since the newest refresh: the tick's orders are loaded again (the edit in them), the balances carried.
      await store.batch([put(store.sub.orders, orderKey('key_1001', slug), { ...order(1001, '6'), slug })])
      const written = await warm.take('base', slug, 48n)
      expect(written?.orders?.find((o) => o.order.keyId === 'key_1001')?.order.maxSpendUsdc).toBe('6')
      expect(written?.balances.get(moved)).toBe(5n)
      // Never backwards, nor over a gap beyond MAX_CARRIED_BALANCE_BLOCKS, nor after a reorg.
      expect(await warm.take('base', slug, 44n)).toBeUndefined()
      expect(await warm.take('base', slug, 45n + MAX_CARRIED_BALANCE_BLOCKS + 1n)).toBeUndefined()
      // A small book (up to DIRECT_BALANCES_MAX_WALLETS wallets): its balances read at the block, no log query.
      const small = 'carry-small'
      await store.batch([put(store.sub.orders, orderKey('key_2000', small), { ...order(2000, '5'), slug: small })])
      slugs = [slug, small]
      warm.refresh('base', 50n)
      await warm.take('base', small, 50n)
      const queries = ranges.length
      const smallTick = await warm.take('base', small, 52n)
      expect(reads.at(-1)).toEqual({ block: 52n, wallets: [wallet(2000).toLowerCase()] })
      expect(smallTick?.orders?.map((o) => o.order.keyId)).toEqual(['key_2000'])
      expect(ranges.length).toBe(queries)
      warm.reset('base')
      expect(await warm.take('base', slug, 53n)).toBeUndefined()
    } finally {
      warm.stop()
    }
  })
})
