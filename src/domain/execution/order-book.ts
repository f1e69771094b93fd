import type { ExecutableOrder } from './executable-order.ts'
import { priorityPermutation, spendThenLimitPolicy, type PrioritisationPolicy } from './prioritisation.ts'

/**
 * A launch's orders prepared for many ticks: in priority order (priority depends only on the orders, never on the
 * price) and flattened into typed arrays, so a tick over 100,000 orders is one allocation-light pass over numbers.
 *
 * Exactness: spends are micro-USD integers; the API caps a spend at 10,000,000 USD = 1e13 micro-USD, far below
 * 2^53 (≈ 9e15), so spends, sums of one wallet's spends and balances up to 2^53 - 1 are exact doubles. FDV limits may
 * exceed 2^53 (up to 1e21), so they are never turned into numbers: each order keeps the rank of its limit among the
 * book's distinct limits, and a tick finds the cap's rank with one binary search over the bigints. When an order
 * does not fit these bounds (a spend above 2^53, or one wallet's spends summing above it) the book is marked
 * `exact: false` and ticks use the bigint reference planner instead.
 */
export interface OrderBook<T extends ExecutableOrder = ExecutableOrder> {
  /** The orders in priority order. */
  readonly orders: readonly T[]
  /** The input index of each priority position, as given to prepareOrderBook (filterOrderBook keeps it aligned). */
  readonly permutation: Uint32Array
  /** maxSpend per priority position, as an exact integer number. */
  readonly spend: Float64Array
  /** Rank of the order's limit among `limits` (ascending); orders with no limit rank `limits.length`. */
  readonly limitRank: Uint32Array
  /** The book's distinct finite FDV limits, ascending. */
  readonly limits: readonly bigint[]
  readonly expiresInMs: Float64Array
  /** 1 when the order's status is `active`. */
  readonly active: Uint8Array
  /** Wallet index per priority position (into `wallets`). */
  readonly walletOf: Uint32Array
  /** Distinct wallets (the orders' `wallet` strings) by index. */
  readonly wallets: readonly string[]
  readonly walletIndex: ReadonlyMap<string, number>
  /** False when some amount is outside the exact-number bounds above: plan with the reference planner. */
  readonly exact: boolean
  /** Priority policy the book was sorted by. */
  readonly policy: PrioritisationPolicy
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER
const MAX_SAFE_BIG = BigInt(MAX_SAFE)

/**
 * Parses nothing (orders are already ExecutableOrder) and sorts once: O(n) radix sort plus one sort of the distinct
 * limits. Per-order data is read in input order (sequential memory) and then gathered into priority order.
 */
export function prepareOrderBook<T extends ExecutableOrder>(orders: readonly T[], policy: PrioritisationPolicy = spendThenLimitPolicy): OrderBook<T> {
  const n = orders.length
  const permutation = priorityPermutation(orders, policy)

  const distinct = new Set<bigint>()
  for (let i = 0; i < n; i++) {
    const limit = orders[i]!.limitFdv
    if (limit !== null) distinct.add(limit)
  }
  const limits = [...distinct].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const rankOf = new Map<bigint, number>()
  for (let r = 0; r < limits.length; r++) rankOf.set(limits[r]!, r)

  const spendIn = new Float64Array(n)
  const rankIn = new Uint32Array(n)
  const expiresIn = new Float64Array(n)
  const activeIn = new Uint8Array(n)
  const walletIn = new Uint32Array(n)
  const wallets: string[] = []
  const walletIndex = new Map<string, number>()
  const walletSum: number[] = []
  let exact = true
  for (let i = 0; i < n; i++) {
    const order = orders[i]!
    if (order.maxSpend < 0n || order.maxSpend > MAX_SAFE_BIG) exact = false
    const spend = Number(order.maxSpend)
    spendIn[i] = spend
    rankIn[i] = order.limitFdv === null ? limits.length : rankOf.get(order.limitFdv)!
    expiresIn[i] = order.expiresInMs
    activeIn[i] = order.status === 'active' ? 1 : 0
    let w = walletIndex.get(order.wallet)
    if (w === undefined) {
      w = wallets.length
      wallets.push(order.wallet)
      walletIndex.set(order.wallet, w)
      walletSum.push(0)
    }
    walletIn[i] = w
    // Float sums only grow, so a sum beyond 2^53 is noticed even though it is no longer exact.
    walletSum[w]! += spend
    if (walletSum[w]! > MAX_SAFE) exact = false
  }

  const sorted: T[] = new Array(n)
  const spend = new Float64Array(n)
  const limitRank = new Uint32Array(n)
  const expiresInMs = new Float64Array(n)
  const active = new Uint8Array(n)
  const walletOf = new Uint32Array(n)
  for (let p = 0; p < n; p++) {
    const i = permutation[p]!
    sorted[p] = orders[i] as T
    spend[p] = spendIn[i]!
    limitRank[p] = rankIn[i]!
    expiresInMs[p] = expiresIn[i]!
    active[p] = activeIn[i]!
    walletOf[p] = walletIn[i]!
  }
  return { orders: sorted, permutation, spend, limitRank, limits, expiresInMs, active, walletOf, wallets, walletIndex, exact, policy }
}

/**
 * Wallet balances in the book's wallet order, as numbers the tick can use directly. A balance above 2^53 - 1 is
 * clamped to it: exact for sizing, because the book guarantees a wallet's orders together never ask for more.
 * `exact` gives the exact balance of a wallet index, asked only for wallets with reservations (a handful per tick).
 */
export interface BookBalances {
  readonly value: Float64Array
  exact(wallet: number): bigint
}

/** One pass over the wallets; call when balances are re-read, not per decision. */
export function bookBalances(book: OrderBook, balanceOf: (wallet: string, index: number) => bigint): BookBalances {
  const count = book.wallets.length
  const value = new Float64Array(count)
  const big: bigint[] = new Array(count)
  for (let w = 0; w < count; w++) {
    const balance = balanceOf(book.wallets[w]!, w)
    big[w] = balance
    value[w] = toSafeNumber(balance)
  }
  return { value, exact: (w) => big[w] ?? 0n }
}

/** Non-positive to 0, above 2^53 - 1 clamped (see BookBalances), otherwise exact. */
export function toSafeNumber(value: bigint): number {
  // One conversion: Number(bigint) is exact below 2^53 and monotone above, so the bounds can be checked on the double.
  const n = Number(value)
  return n <= 0 ? 0 : n >= MAX_SAFE ? MAX_SAFE : n
}

/** Index of the first limit >= cap (so an order passes iff its rank >= this); null cap: nothing finite passes. */
export function limitThreshold(limits: readonly bigint[], effectiveCap: bigint | null): number {
  if (effectiveCap === null) return limits.length
  let lo = 0
  let hi = limits.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (limits[mid]! < effectiveCap) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The book without some orders, in the same priority order, in linear time with no re-sort: removing orders from a
 * stable sort's input removes them from its output and leaves the rest in place. (Wallets and limits that no order
 * uses any more stay listed; they change no decision.) `keep` gets each priority position.
 */
export function filterOrderBook<T extends ExecutableOrder>(book: OrderBook<T>, keep: (position: number) => boolean): { book: OrderBook<T>; kept: Uint32Array } {
  const n = book.orders.length
  const kept = new Uint32Array(n)
  let m = 0
  for (let p = 0; p < n; p++) if (keep(p)) kept[m++] = p
  const positions = kept.subarray(0, m)
  const orders: T[] = new Array(m)
  const spend = new Float64Array(m)
  const limitRank = new Uint32Array(m)
  const expiresInMs = new Float64Array(m)
  const active = new Uint8Array(m)
  const walletOf = new Uint32Array(m)
  const permutation = new Uint32Array(m)
  for (let q = 0; q < m; q++) {
    const p = positions[q]!
    orders[q] = book.orders[p] as T
    permutation[q] = book.permutation[p]!
    spend[q] = book.spend[p]!
    limitRank[q] = book.limitRank[p]!
    expiresInMs[q] = book.expiresInMs[p]!
    active[q] = book.active[p]!
    walletOf[q] = book.walletOf[p]!
  }
  return { book: { ...book, orders, permutation, spend, limitRank, expiresInMs, active, walletOf }, kept: positions }
}
