import fc from 'fast-check'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOrderLoader } from '../../daemon/executor/load-orders.ts'
import { bookWallets } from '../../daemon/executor/book-wallets.ts'
import { createWarmBooks, type LoadedOrder } from '../../daemon/executor/warm-books.ts'
import type { OrderRecord, OrderStatus } from '../../src/domain/records.ts'
import { put, type Store } from '../../src/store/open-store.ts'
import { orderKey } from '../../src/store/order-index.ts'
import { orderWriteOps } from '../../src/store/order-writes.ts'
import { openTempStore } from '../support/temp-store.ts'

const wallet = (userIndex: number) => `0x${(userIndex + 1).toString(16).padStart(40, '0')}` as Address
const keyOf = (i: number) => `key_${String(i).padStart(3, '0')}`

/**
 * The warm books' orders carried over order writes (warm-books.ts patchHeld, load-orders.ts patch): a real LevelDB,
 * the real loader and the one order write path (orderWriteOps). What is held after any sequence of writes is exactly
 * what a fresh load of the store reads, without the store read, and a tick after a write gets it from the snapshot.
 */
describe('warm books patched by order writes (real LevelDB, the real loader)', () => {
  let temp: Awaited<ReturnType<typeof openTempStore>>
  let store: Store

  beforeAll(async () => {
    temp = await openTempStore('warm-patch')
    store = temp.store
  })
  afterAll(async () => {
    await temp?.remove()
  })

  /** The loader over the store, counting its full loads; wallets derived from the user index. */
  const books = (slug: string) => {
    const loader = createOrderLoader({ store, wallets: { walletAddress: async (userIndex: number) => wallet(userIndex) } })
    const counted = { loads: 0 }
    const warm = createWarmBooks({
      store,
      slugsOf: async () => [slug],
      loadOrders: (s, previous) => {
        counted.loads++
        return loader.load(s, previous)
      },
      patchOrders: loader.patch,
      readBalances: async (_chain, wallets) => new Map(wallets.map((w) => [w.toLowerCase(), 1n])),
      // Long: the reload after a write would also find the patched orders; here the take itself must.
      reloadDelayMs: 60_000,
    })
    return { warm, loader, counted }
  }

  /** One order's write through the one write path, from its stored state (none: placed). */
  async function write(
    slug: string,
    i: number,
    change: { status?: OrderStatus; maxFdvUsdc?: string | null },
    writer: 'api' | 'executor' = 'api',
  ): Promise<void> {
    const key = keyOf(i)
    const previous = (await store.sub.orders.get(orderKey(key, slug))) as OrderRecord | undefined
    const at = (previous?.updatedAt ?? 0) + 1
    const next: OrderRecord = previous
      ? { ...previous, ...change, updatedAt: at }
      : { keyId: key, slug, status: 'active', maxSpendUsdc: `${i + 1}`, maxFdvUsdc: null, expiresInMs: 3_600_000, createdAt: at, updatedAt: at, ...change }
    // A buyer's key is created (its user written) before its first order, in a batch of its own, as the API does.
    if (!(await store.sub.users.get(key))) await store.batch([put(store.sub.users, key, { keyId: key, userIndex: i })])
    await store.batch(orderWriteOps(store, previous, next, { writer, followers: 0 }))
  }

  /** A buyer's follower count written (a linked social profile), as the social link does: their user record. */
  const follow = (i: number, followerCount: number) =>
    store.batch([put(store.sub.users, keyOf(i), { keyId: keyOf(i), userIndex: i, social: { followerCount } as never })])

  const summary = (orders: readonly LoadedOrder[] | undefined) =>
    orders?.map((o) => [o.order.keyId, o.order.status, o.order.maxFdvUsdc, o.userIndex, o.wallet, o.followers])

  it('a PATCH, a placement and an order leaving the book: the tick after each gets the orders from the snapshot, exact, unchanged ones the same objects, with no store load', async () => {
    const slug = 'patched'
    for (let i = 0; i < 5; i++) await write(slug, i, {})
    const { warm, loader, counted } = books(slug)
    try {
      warm.refresh('base', 10n)
      const first = await warm.take('base', slug, 10n)
      expect(first?.orders).toHaveLength(5)
      const loads = counted.loads
      // A PATCH of one order's limit.
      await write(slug, 2, { maxFdvUsdc: '1000000' })
      const afterPatch = await warm.take('base', slug, 10n)
      expect(summary(afterPatch?.orders)).toEqual(summary(await loader.load(slug)))
      expect(afterPatch?.orders?.[2]?.order.maxFdvUsdc).toBe('1000000')
      for (const i of [0, 1, 3, 4]) expect(afterPatch?.orders?.[i]).toBe(first?.orders?.[i])
      // Its write version: the tick's commit skips its re-read only while nothing else was written.
      expect(afterPatch?.ordersVersion).toBe(warm.ordersVersion?.(slug))
      // A new order (its buyer read from the store), then one moved to executing: in keyId order, then gone.
      await write(slug, 7, {})
      await write(slug, 0, { status: 'executing' }, 'executor')
      const later = await warm.take('base', slug, 10n)
      expect(summary(later?.orders)).toEqual(summary(await loader.load(slug)))
      expect(later?.orders?.map((o) => o.order.keyId)).toEqual([keyOf(1), keyOf(2), keyOf(3), keyOf(4), keyOf(7)])
      expect(later?.orders?.[4]?.wallet).toBe(wallet(7))
      // None of it read the project from the store; the next block's refresh does not either.
      expect(counted.loads).toBe(loads)
      warm.refresh('base', 11n)
      expect(summary((await warm.take('base', slug, 11n))?.orders)).toEqual(summary(later?.orders))
      expect(counted.loads).toBe(loads)
      // A new key with no order yet (its user written): the orders are carried over as they are.
      await store.batch([put(store.sub.users, keyOf(50), { keyId: keyOf(50), userIndex: 50 })])
      const carried = await warm.take('base', slug, 11n)
      expect(carried?.orders).toBe(later?.orders)
      // A buyer's follower count (it orders the book: the spec's priority): their order takes it.
      await follow(3, 1_234)
      const followed = await warm.take('base', slug, 11n)
      expect(summary(followed?.orders)).toEqual(summary(await loader.load(slug)))
      expect(followed?.orders?.find((o) => o.order.keyId === keyOf(3))?.followers).toBe(1_234)
      expect(counted.loads).toBe(loads)
    } finally {
      warm.stop()
    }
  })

  it('a PATCH keeps the book’s wallets: the next refresh reads no balance; a new buyer’s placement reads theirs alone', async () => {
    const slug = 'patched-wallets'
    for (let i = 0; i < 5; i++) await write(slug, i, {})
    const loader = createOrderLoader({ store, wallets: { walletAddress: async (userIndex: number) => wallet(userIndex) } })
    const reads: string[][] = []
    const warm = createWarmBooks({
      store,
      slugsOf: async () => [slug],
      loadOrders: loader.load,
      patchOrders: loader.patch,
      readBalances: async (_chain, wallets) => {
        reads.push(wallets.map((w) => w.toLowerCase()))
        return new Map(wallets.map((w) => [w.toLowerCase(), 1n]))
      },
      // No stablecoin moves: only a wallet new to the book can need a read.
      changedWallets: async () => new Set(),
      reloadDelayMs: 60_000,
    })
    try {
      warm.refresh('base', 20n)
      const first = await warm.take('base', slug, 20n)
      expect(reads).toHaveLength(1)
      // A PATCH (a new list, the same buyers): the refresh after it reads nothing, and keeps the balances as they were.
      await write(slug, 2, { maxFdvUsdc: '5000' })
      warm.refresh('base', 21n)
      const patched = await warm.take('base', slug, 21n)
      expect(patched?.orders?.find((o) => o.order.keyId === keyOf(2))?.order.maxFdvUsdc).toBe('5000')
      expect(reads).toHaveLength(1)
      expect(patched?.balances.get(wallet(2).toLowerCase())).toBe(1n)
      // Known without a look at all 5 wallets: the patched list took the first list's wallets as they were.
      expect(bookWallets(patched!.orders!)).toBe(bookWallets(first!.orders!))
      // A cancellation (a buyer leaves the book): nothing to read either.
      await write(slug, 4, { status: 'deleted' })
      warm.refresh('base', 22n)
      expect((await warm.take('base', slug, 22n))?.orders).toHaveLength(4)
      expect(reads).toHaveLength(1)
      // A new buyer's order: their wallet alone is read.
      await write(slug, 9, {})
      warm.refresh('base', 23n)
      const placed = await warm.take('base', slug, 23n)
      expect(placed?.orders).toHaveLength(5)
      expect(reads.at(-1)).toEqual([wallet(9).toLowerCase()])
      expect(placed?.balances.get(wallet(9).toLowerCase())).toBe(1n)
    } finally {
      warm.stop()
    }
  })

  it('after any sequence of writes (some landing while the orders are still being loaded or patched), what is held is what a fresh load reads', async () => {
    const ACTIONS = fc.array(
      fc.record({
        i: fc.integer({ min: 0, max: 11 }),
        kind: fc.constantFrom('place-or-patch', 'cancel', 'execute', 'release', 'fill', 'follow'),
        // Taken without waiting for the write before it (the write then lands while the take awaits the load).
        overlap: fc.boolean(),
      }),
      { minLength: 1, maxLength: 12 },
    )
    let run = 0
    await fc.assert(
      fc.asyncProperty(ACTIONS, async (actions) => {
        const slug = `prop-${run++}`
        for (let i = 0; i < 4; i++) await write(slug, i, {})
        const { warm, loader } = books(slug)
        try {
          warm.refresh('base', 1n)
          for (const [n, action] of actions.entries()) {
            const stored = (await store.sub.orders.get(orderKey(keyOf(action.i), slug))) as OrderRecord | undefined
            const status = stored?.status
            let writing: Promise<void> = Promise.resolve()
            // Only moves the write path allows from the order's state (order-transitions.ts); others are skipped.
            if (action.kind === 'place-or-patch' && status !== 'executing') writing = write(slug, action.i, { status: 'active', maxFdvUsdc: `${n + 1}000` })
            else if (action.kind === 'cancel' && status === 'active') writing = write(slug, action.i, { status: 'deleted' })
            else if (action.kind === 'execute' && status === 'active') writing = write(slug, action.i, { status: 'executing' }, 'executor')
            else if (action.kind === 'release' && status === 'executing') writing = write(slug, action.i, { status: 'active' }, 'executor')
            else if (action.kind === 'fill' && status === 'executing') writing = write(slug, action.i, { status: 'filled' }, 'executor')
            else if (action.kind === 'follow') writing = follow(action.i, n * 10)
            const taking = action.overlap ? warm.take('base', slug, 1n) : undefined
            await writing
            await taking
            const held = await warm.take('base', slug, 1n)
            // Exact or nothing (the tick then loads itself): never a stale list.
            if (held?.orders) expect(summary(held.orders)).toEqual(summary(await loader.load(slug)))
          }
          // A write while a patch is under way is not patched (one at a time): the next ask loads once, exact too.
          expect(summary(await warm.orders?.(slug))).toEqual(summary(await loader.load(slug)))
          const final = await warm.take('base', slug, 1n)
          if (final?.orders) expect(summary(final.orders)).toEqual(summary(await loader.load(slug)))
        } finally {
          warm.stop()
        }
      }),
      { numRuns: 40 },
    )
  })
})
