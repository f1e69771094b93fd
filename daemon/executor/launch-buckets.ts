import type { LoadedOrder } from './warm-books.ts'

/**
 * A waiting book's spend buckets (tick-quotes.ts candidateBuckets), kept by the readying pass for the reads ahead of its
 * launch (launch-tick-reads-ahead.ts): the hint's own candidates and buckets over a 5,000-order book were 5-9 ms of the
 * event loop between the launch log and the launch record's receipt (the split bench's profile, docs/execution.md §8,
 * "The launch tick's split on the readied walk", what remains 2). The readying pass builds the same candidates (each
 * order of the block's warm snapshot with its wallet's balance: ready-ahead.ts prepareBook) only when the book or a
 * balance of it changed, and its buckets then; the hint takes them when its snapshot is that one.
 *
 * Keyed on the orders array (the warm snapshot hands the same array until a write) and valid for one balances map: the
 * one they were computed from, or a later one the readying pass found equal on every wallet of the book.
 */
const memo = new WeakMap<readonly LoadedOrder[], { balances: ReadonlyMap<string, bigint>; spends: readonly bigint[] }>()

/** The readying pass built the book's candidates from `orders` and `balances`: these are their buckets. */
export function rememberLaunchBuckets(orders: readonly LoadedOrder[], balances: ReadonlyMap<string, bigint>, spends: readonly bigint[]): void {
  memo.set(orders, { balances, spends })
}

/** The readying pass found every wallet of `orders` at the same balance in `balances`: the buckets hold for it too. */
export function sameLaunchBuckets(orders: readonly LoadedOrder[], balances: ReadonlyMap<string, bigint>): void {
  const kept = memo.get(orders)
  if (kept && kept.balances !== balances) memo.set(orders, { balances, spends: kept.spends })
}

/** The buckets of `orders` with `balances`, if the readying pass computed them for exactly these; else undefined. */
export function launchBucketsOf(orders: readonly LoadedOrder[], balances: ReadonlyMap<string, bigint>): readonly bigint[] | undefined {
  const kept = memo.get(orders)
  return kept?.balances === balances ? kept.spends : undefined
}
