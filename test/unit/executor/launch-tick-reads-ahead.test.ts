import pino from 'pino'
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { createLaunchTickReadsAhead } from '../../../daemon/executor/launch-tick-reads-ahead.ts'
import { bookWallets } from '../../../daemon/executor/book-wallets.ts'
import { rememberLaunchBuckets } from '../../../daemon/executor/launch-buckets.ts'
import type { LoadedOrder } from '../../../daemon/executor/warm-books.ts'
import type { OrderRecord } from '../../../src/domain/records.ts'
import { launch } from '../../executor/parts/executor-fixture.ts'

/**
 * The executor's reads ahead of a launch tick wait one timer turn before their work (issue 23 item 3): the indexer's
 * receipt and record reads, asked just before the `launch_ahead` hint, leave in the read client's batch on a 0 ms timer
 * (viem's batch scheduler); run at once, the hint's work over a large book held that timer and the receipt left ~20 ms
 * after the launch log (the split bench's fetch log, 2026-11-27). Counted, not timed: a 0 ms timer set before the hint
 * (the batch's flush, as viem sets it) fires before the hint's first quote.
 */
const USDC = 1_000_000n
const loaded = (w: number): LoadedOrder => ({
  order: {
    keyId: `k${w}`,
    slug: launch.slug,
    status: 'active',
    maxSpendUsdc: '10',
    maxFdvUsdc: null,
    expiresInMs: 60_000,
    createdAt: w,
    updatedAt: w,
  } as OrderRecord,
  userIndex: w,
  followers: 0,
  wallet: `0x${w.toString(16).padStart(40, '0')}` as Address,
})

/** The executor's parts the reads ahead use: quotes asked through `quoteLaunchAhead`; the warm snapshot never asked. */
const contextOf = (quoteLaunchAhead: (hint: unknown, spends: bigint[]) => unknown, batchBuyers: Record<string, string> = {}) =>
  ({
    batchBuyers,
    ticking: new Set<string>(),
    quotes: { quoteLaunchAhead },
    wallets: {},
    log: pino({ level: 'silent' }),
    // The hint is for the block after the one booksBefore was told: the warm snapshot is never asked here.
    warm: { snapshot: () => Promise.resolve(undefined), refresh: () => undefined },
  }) as unknown as Parameters<typeof createLaunchTickReadsAhead>[0]

describe('the reads ahead of a launch tick', () => {
  it('start after a 0 ms timer set before the hint (the record round’s batch leaves first)', async () => {
    const order: string[] = []
    const quoted: bigint[][] = []
    const ctx = contextOf((_hint, spends) => {
      order.push('quote')
      quoted.push(spends)
    })
    const reads = createLaunchTickReadsAhead(
      ctx,
      { prefetchAllowances: () => undefined, readied: () => undefined, readSequenceSoon: () => undefined },
      async () => new Map(),
    )
    const orders = [loaded(1), loaded(2)]
    const books = Promise.resolve({ orders: new Map([[launch.slug, orders]]), balances: new Map(orders.map((o) => [o.wallet.toLowerCase(), 100n * USDC])) })
    await books
    reads.booksBefore('base', 11n, books as never)
    // The record round's reads were asked just before the hint: their batch flushes on a 0 ms timer.
    setTimeout(() => order.push('record round flushed'), 0)
    reads.launchAhead({ type: 'launch_ahead', chain: 'base', blockNumber: 11n, nextBlockTimestamp: 1, pairedUsdAtoms: '1', launch, slugs: [launch.slug] })
    // Microtasks alone: no quote yet (before the change, the hint's work ran as soon as the books' promise settled).
    for (let i = 0; i < 50; i++) await Promise.resolve()
    expect(order).toEqual([])
    const deadline = Date.now() + 10_000
    while (order.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1))
    expect(order).toEqual(['record round flushed', 'quote'])
    // One spend bucket (tick-quotes.ts candidateBuckets: a bucket at or above the book's spends) for the two orders.
    expect(quoted).toHaveLength(1)
    expect(quoted[0]!.length).toBe(1)
    expect(quoted[0]![0]! >= 10n * USDC).toBe(true)
  })

  it('quote a readied book’s walk total, with no prediction over the book and no reservations read', async () => {
    const quoted: bigint[][] = []
    let reservationReads = 0
    let allowanceWallets = 0
    const allowanceLists: Array<readonly Address[]> = []
    const sequenceReads: unknown[] = []
    const ctx = contextOf((_hint, spends) => quoted.push(spends), { base: '0x00000000000000000000000000000000000000b0' })
    // The readying pass's walk of the book (readied-clearing.ts): the launch tick quotes its total (decide-tick.ts).
    const walked = { walk: { chosen: [{}, {}], totalIn: 17n * USDC } }
    const reads = createLaunchTickReadsAhead(
      ctx,
      {
        prefetchAllowances: (_tick, _launch, wallets) => {
          allowanceWallets += wallets.length
          allowanceLists.push(wallets)
        },
        readied: (chain, slug) => (chain === 'base' && slug === launch.slug ? ({ walked } as never) : undefined),
        readSequenceSoon: (key) => void sequenceReads.push(key),
      },
      async () => {
        reservationReads++
        return new Map()
      },
    )
    const orders = [loaded(1), loaded(2)]
    const books = Promise.resolve({ orders: new Map([[launch.slug, orders]]), balances: new Map(orders.map((o) => [o.wallet.toLowerCase(), 100n * USDC])) })
    await books
    reads.booksBefore('base', 11n, books as never)
    reads.launchAhead({ type: 'launch_ahead', chain: 'base', blockNumber: 11n, nextBlockTimestamp: 1, pairedUsdAtoms: '1', launch, slugs: [launch.slug] })
    const deadline = Date.now() + 10_000
    while (quoted.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1))
    // The spend bucket, then the walk's total (not the predicted total of the two orders' 20 USDC).
    expect(quoted).toHaveLength(2)
    expect(quoted[1]).toEqual([17n * USDC])
    expect(reservationReads).toBe(0)
    expect(allowanceWallets).toBe(2)
    // The book's own wallet list (book-wallets.ts), the very array the tick and the readying pass hand the warm
    // allowances: covered there by its identity, no wallet scanned again (a list made by the hint was new each time).
    expect(allowanceLists).toHaveLength(1)
    expect(allowanceLists[0]).toBe(bookWallets(orders).wallets)
    // The launch's next batch sequence asked too, by the launch's key (the log's block), for its readied commit.
    expect(sequenceReads).toEqual([{ chain: 'base', slug: launch.slug, blockNumber: '11' }])
  })

  it('quote the spend buckets the readying pass kept for exactly this snapshot, else their own', async () => {
    const quoted: bigint[][] = []
    const ctx = contextOf((_hint, spends) => quoted.push(spends))
    const reads = createLaunchTickReadsAhead(
      ctx,
      { prefetchAllowances: () => undefined, readied: () => undefined, readSequenceSoon: () => undefined },
      async () => new Map(),
    )
    const orders = [loaded(1), loaded(2)]
    const balances = new Map(orders.map((o) => [o.wallet.toLowerCase(), 100n * USDC]))
    const hint = async (block: bigint, balancesOfBlock: Map<string, bigint>) => {
      const books = Promise.resolve({ orders: new Map([[launch.slug, orders]]), balances: balancesOfBlock })
      await books
      reads.booksBefore('base', block, books as never)
      const before = quoted.length
      reads.launchAhead({ type: 'launch_ahead', chain: 'base', blockNumber: block, nextBlockTimestamp: 1, pairedUsdAtoms: '1', launch, slugs: [launch.slug] })
      const deadline = Date.now() + 10_000
      while (quoted.length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1))
      return quoted.at(-1)
    }
    // Kept by the readying pass for these orders and this balances map (a marker value: the hint computes none).
    rememberLaunchBuckets(orders, balances, [7n * USDC])
    expect(await hint(11n, balances)).toEqual([7n * USDC])
    // Another balances map: the hint's own buckets (a power of two at or above the book's 10 USDC spends).
    const own = await hint(12n, new Map(balances))
    expect(own).toHaveLength(1)
    expect(own![0]! >= 10n * USDC && own![0] !== 7n * USDC).toBe(true)
  })

  it('start the launch block’s warm refresh, after taking the block before’s books', async () => {
    const calls: string[] = []
    const books = Promise.resolve({ orders: new Map(), balances: new Map() })
    const ctx = {
      batchBuyers: {},
      ticking: new Set<string>(),
      quotes: { quoteLaunchAhead: () => undefined },
      wallets: {},
      log: pino({ level: 'silent' }),
      warm: {
        snapshot: (_chain: string, block: bigint) => {
          calls.push(`snapshot ${block}`)
          return books
        },
        refresh: (_chain: string, block: bigint) => calls.push(`refresh ${block}`),
      },
    } as unknown as Parameters<typeof createLaunchTickReadsAhead>[0]
    const reads = createLaunchTickReadsAhead(
      ctx,
      { prefetchAllowances: () => undefined, readied: () => undefined, readSequenceSoon: () => undefined },
      async () => new Map(),
    )
    // A launch log pushed over the socket: its block (12) not signalled yet, the newest refresh is block 11's.
    reads.launchAhead({ type: 'launch_ahead', chain: 'base', blockNumber: 12n, nextBlockTimestamp: 1, pairedUsdAtoms: '1', launch, slugs: [launch.slug] })
    // Before: the launch block's refresh began only with its block's signal, after the block arrived.
    expect(calls).toEqual(['snapshot 11', 'refresh 12'])
  })
})
