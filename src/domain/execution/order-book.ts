import type { ExecutableOrder } from './executable-order.ts'
import { priorityPermutation, spendThenLimitPolicy, type PrioritisationPolicy } from './prioritisation.ts'
import { radixOrderDescending } from './radix-order.ts'
import { indexWallets, type WalletIndex } from './wallet-index.ts'

/**
 * A launch's orders as columns of numbers (struct of arrays): what a tick over 100,000 orders reads, one linear pass
 * with no objects, strings or bigints.
 *
 * Exactness: amounts are micro-USD integers. The API caps a spend at 10,000,000 USD = 1e13 micro-USD, far below
 * 2^53 (≈ 9e15), so spends, sums of one wallet's spends and balances up to 2^53 - 1 are exact doubles. FDV limits may
 * exceed 2^53 (up to 1e21): they are kept as doubles too, rounded beyond 2^53 (monotone, so two different doubles
 * always compare like the exact values) with the exact bigints alongside in `limitExact`, consulted only when two
 * doubles are equal. A spend beyond 2^53 (not possible through the API) keeps its exact value in `spendExact` and
 * marks the book `exact: false`: ticks then use the bigint reference planner.
 */
export interface OrderColumns {
  /** maxSpend (micro-USD); exact when a safe integer, else rounded with the exact value in `spendExact`. */
  readonly spend: Float64Array
  /** limitFdv (micro-USD), +Infinity for no limit; exact when a safe integer, else rounded (see `limitExact`). */
  readonly limit: Float64Array
  /** Exact maxSpend per order, present only when some spend is not a safe integer. */
  readonly spendExact?: readonly bigint[] | undefined
  /** Exact limitFdv per order (null: no limit), present only when some limit is not a safe integer. */
  readonly limitExact?: readonly (bigint | null)[] | undefined
  readonly expiresInMs: Float64Array
  /** 1 when the order's status is `active`. */
  readonly active: Uint8Array
  /** Wallet index per order (into `wallets`). */
  readonly walletOf: Uint32Array
  /** The orders' wallets (as the orders spell them). */
  readonly wallets: WalletIndex
}

/**
 * Orders prepared for many ticks: the columns in priority order (priority depends only on the orders, never on the
 * price), sorted once when the order set changes.
 */
export interface OrderBook extends OrderColumns {
  readonly size: number
  /** The input index of each priority position (filterOrderBook keeps it, mergeOrderBook renumbers it). */
  readonly permutation: Uint32Array
  /** False when some amount is outside the exact-number bounds above: plan with the reference planner. */
  readonly exact: boolean
  /** Priority policy the book was sorted by. */
  readonly policy: PrioritisationPolicy
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER
const MAX_SAFE_BIG = BigInt(MAX_SAFE)

/** Columns of parsed orders, in their order. */
export function columnsOf(orders: readonly ExecutableOrder[]): OrderColumns {
  const { index: wallets, walletOf } = indexWallets(orders.map((o) => o.wallet))
  const n = orders.length
  const spend = new Float64Array(n)
  const limit = new Float64Array(n)
  const expiresInMs = new Float64Array(n)
  const active = new Uint8Array(n)
  let spendExact: bigint[] | undefined
  let limitExact: Array<bigint | null> | undefined
  for (let i = 0; i < n; i++) {
    const order = orders[i]!
    if (order.maxSpend < 0n) throw new RangeError(`order ${order.id} has a negative spend`)
    spend[i] = Number(order.maxSpend)
    if (order.maxSpend > MAX_SAFE_BIG) spendExact ??= orders.map((o) => o.maxSpend)
    const limitFdv = order.limitFdv
    limit[i] = limitFdv === null ? Number.POSITIVE_INFINITY : Number(limitFdv)
    if (limitFdv !== null && limitFdv < 0n) throw new RangeError(`order ${order.id} has a negative limit`)
    if (limitFdv !== null && limitFdv > MAX_SAFE_BIG) limitExact ??= orders.map((o) => o.limitFdv)
    expiresInMs[i] = order.expiresInMs
    active[i] = order.status === 'active' ? 1 : 0
  }
  return { spend, limit, spendExact, limitExact, expiresInMs, active, walletOf, wallets }
}

/**
 * Parses nothing (orders are already ExecutableOrder) and sorts once. The spec's policy sorts on the columns in
 * linear time (spendLimitPermutation); another policy sorts the orders (priorityPermutation).
 */
export function prepareOrderBook(orders: readonly ExecutableOrder[], policy: PrioritisationPolicy = spendThenLimitPolicy): OrderBook {
  const columns = columnsOf(orders)
  const permutation = policy === spendThenLimitPolicy ? spendLimitPermutation(columns) : priorityPermutation(orders, policy)
  return orderBookFromColumns(columns, permutation, policy)
}

/**
 * The spendThenLimitPolicy order of columns, as input indices: larger spend first; equal spend: higher limit first, no
 * limit highest; then input order. One radix sort over the numbers (no limit sorts just above the largest finite limit,
 * which keeps the sorted bit range, and so the passes, few); only runs of equal doubles that hide unequal exact
 * values (amounts beyond 2^53) are then settled with the bigints.
 */
export function spendLimitPermutation(columns: Pick<OrderColumns, 'spend' | 'limit' | 'spendExact' | 'limitExact'>): Uint32Array {
  const { spend, limit, spendExact, limitExact } = columns
  const n = spend.length
  let maxFinite = -1
  let unlimited = false
  for (let i = 0; i < n; i++) {
    const l = limit[i]!
    if (l === Number.POSITIVE_INFINITY) unlimited = true
    else if (l > maxFinite) maxFinite = l
  }
  let limitKey = limit
  if (unlimited && maxFinite >= 0) {
    const above = nextUp(maxFinite)
    limitKey = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const l = limit[i]!
      limitKey[i] = l === Number.POSITIVE_INFINITY ? above : l
    }
  }
  const order = radixOrderDescending(spend, limitKey)
  if (spendExact === undefined && limitExact === undefined) return order

  const spendOf = (i: number): bigint => (spendExact ? spendExact[i]! : BigInt(spend[i]!))
  const limitOf = (i: number): bigint | null => (limitExact ? limitExact[i]! : limit[i] === Number.POSITIVE_INFINITY ? null : BigInt(limit[i]!))
  const compare = (a: number, b: number): number => {
    const sa = spendOf(a)
    const sb = spendOf(b)
    if (sa !== sb) return sa > sb ? -1 : 1
    const la = limitOf(a)
    const lb = limitOf(b)
    if (la !== lb) {
      if (la === null) return -1
      if (lb === null) return 1
      return la > lb ? -1 : 1
    }
    return a - b
  }
  for (let start = 0; start < n; ) {
    const first = order[start]!
    let end = start + 1
    while (end < n && spend[order[end]!] === spend[first] && limit[order[end]!] === limit[first]) end++
    if (end - start > 1) {
      const run = Array.from(order.subarray(start, end)).sort(compare)
      for (let i = 0; i < run.length; i++) order[start + i] = run[i]!
    }
    start = end
  }
  return order
}

/** The book of `columns` in the order `permutation` gives (input index per priority position). */
export function orderBookFromColumns(columns: OrderColumns, permutation: Uint32Array, policy: PrioritisationPolicy = spendThenLimitPolicy): OrderBook {
  const book = gather(columns, permutation, permutation)
  return bookOf(book, book.size, permutation, policy, exactNumbers(book))
}

/**
 * Per-position columns picked from `source` at `positions` (`permutation`: the book's input index per new position).
 * Reads are random into typed arrays, writes sequential.
 */
function gather(source: OrderColumns, positions: Uint32Array, permutation: Uint32Array): OrderColumns & { size: number; permutation: Uint32Array } {
  const m = positions.length
  const spend = new Float64Array(m)
  const limit = new Float64Array(m)
  const expiresInMs = new Float64Array(m)
  const active = new Uint8Array(m)
  const walletOf = new Uint32Array(m)
  for (let q = 0; q < m; q++) {
    const p = positions[q]!
    spend[q] = source.spend[p]!
    limit[q] = source.limit[p]!
    expiresInMs[q] = source.expiresInMs[p]!
    active[q] = source.active[p]!
    walletOf[q] = source.walletOf[p]!
  }
  const spendExact = source.spendExact && Array.from(positions, (p) => source.spendExact![p]!)
  const limitExact = source.limitExact && Array.from(positions, (p) => source.limitExact![p]!)
  return { size: m, permutation, spend, limit, spendExact, limitExact, expiresInMs, active, walletOf, wallets: source.wallets }
}

/**
 * Every book is made here, with its properties in one order: books from a rebuild, a filter and a merge then share one
 * hidden class, so the tick's loads stay monomorphic (objects of several shapes made TurboFan deoptimise planBookTick
 * again and again).
 */
function bookOf(columns: OrderColumns, size: number, permutation: Uint32Array, policy: PrioritisationPolicy, exact: boolean): OrderBook {
  return {
    size,
    permutation,
    spend: columns.spend,
    limit: columns.limit,
    spendExact: columns.spendExact,
    limitExact: columns.limitExact,
    expiresInMs: columns.expiresInMs,
    active: columns.active,
    walletOf: columns.walletOf,
    wallets: columns.wallets,
    exact,
    policy,
  }
}

/**
 * Every spend a safe integer and no wallet's orders together asking for more than 2^53 - 1 (only the wallets in
 * `onlyWallets` checked, when given: the others are known to be within bounds).
 */
function exactNumbers(columns: OrderColumns, onlyWallets?: Uint32Array): boolean {
  if (columns.spendExact !== undefined) return false
  const { spend, walletOf } = columns
  const count = columns.wallets.names.length
  let wanted: Uint8Array | undefined
  if (onlyWallets) {
    wanted = new Uint8Array(count)
    for (let i = 0; i < onlyWallets.length; i++) wanted[onlyWallets[i]!] = 1
  }
  const sum = new Float64Array(onlyWallets ? 0 : count)
  const sums = new Map<number, number>()
  // Float sums only grow, so a sum beyond 2^53 is noticed even though it is no longer exact.
  for (let i = 0; i < spend.length; i++) {
    const w = walletOf[i]!
    if (wanted === undefined) sum[w]! += spend[i]!
    else if (wanted[w] === 1) sums.set(w, (sums.get(w) ?? 0) + spend[i]!)
  }
  for (let w = 0; w < sum.length; w++) if (sum[w]! > MAX_SAFE) return false
  for (const total of sums.values()) if (total > MAX_SAFE) return false
  return true
}

/**
 * Wallet balances in the book's wallet order, as numbers the tick can use directly. A balance above 2^53 - 1 is
 * clamped to it: exact for sizing, because the book guarantees a wallet's orders together never ask for more.
 * `exact` gives the exact balance of a wallet index, asked only for wallets with reservations (a handful per tick).
 */
export interface BookBalances {
  readonly value: Float64Array
  exact(wallet: number): bigint
  /** Candidate index carrying each wallet's balance (-1: none), when the balances come from candidates (prepared-book.ts). */
  readonly source?: Int32Array
}

/** One pass over the wallets; call when balances are re-read, not per decision. */
export function bookBalances(book: OrderBook, balanceOf: (wallet: string, index: number) => bigint): BookBalances {
  const names = book.wallets.names
  const count = names.length
  const value = new Float64Array(count)
  const big: bigint[] = new Array(count)
  for (let w = 0; w < count; w++) {
    const balance = balanceOf(names[w]!, w)
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

/**
 * The book without some orders, in the same priority order, in linear time with no re-sort: removing orders from a
 * stable sort's input removes them from its output and leaves the rest in place. (Wallets that no order uses any more
 * stay listed; they change no decision.) `keep` gets each priority position; `kept` lists the kept positions.
 */
export function filterOrderBook(book: OrderBook, keep: (position: number) => boolean): { book: OrderBook; kept: Uint32Array } {
  const n = book.size
  const all = new Uint32Array(n)
  let m = 0
  for (let p = 0; p < n; p++) if (keep(p)) all[m++] = p
  const kept = all.subarray(0, m)
  const permutation = new Uint32Array(m)
  for (let q = 0; q < m; q++) permutation[q] = book.permutation[kept[q]!]!
  const columns = gather(book, kept, permutation)
  // Fewer orders never make an exact book inexact.
  return { book: bookOf(columns, m, permutation, book.policy, book.exact || exactNumbers(columns)), kept }
}

/** Orders to insert into a book: columns sharing the book's WalletIndex, with their input index in the new order list. */
export interface InsertedOrders extends OrderColumns {
  readonly inputIndex: Uint32Array
}

/**
 * The book after some orders left and others arrived (a new order, a PATCHed one), equal to preparing the new order
 * list from scratch, without re-sorting it: the surviving positions are already in priority order, the few new orders
 * are sorted among themselves and merged in, one linear pass. Correct when the survivors keep their relative input
 * order (`newIndexOf` increasing along the old input order), which is how the executor reloads a project's orders.
 *
 * `newIndexOf[p]`: the new input index of old position p, or -1 when it left. Returns the book and, per new position,
 * its old position or -(k + 1) for the k-th inserted order; undefined when the book cannot be merged (another policy, or
 * amounts beyond 2^53 involved): prepare it anew.
 */
export function mergeOrderBook(
  book: OrderBook,
  newIndexOf: Int32Array,
  inserted: InsertedOrders,
  storage?: BookStorage,
): { book: OrderBook; source: Int32Array } | undefined {
  const k = inserted.spend.length
  // Removals only keep any policy's order; arrivals are merged by the spec's policy, on numbers.
  if (k > 0) {
    if (book.policy !== spendThenLimitPolicy || book.spendExact !== undefined || inserted.spendExact !== undefined) return undefined
    if (inserted.limitExact !== undefined && book.limitExact === undefined) return undefined
    if (inserted.wallets !== book.wallets) throw new Error('mergeOrderBook: inserted orders must use the book wallet index')
  }
  // The arrivals in priority order (a handful: a comparator sort is fine).
  const arrivals = Array.from({ length: k }, (_, x) => x)
  const insertedLimit = (x: number): bigint | null => (inserted.limitExact ? inserted.limitExact[x]! : exactLimitOf(inserted.limit[x]!))
  arrivals.sort((a, b) => {
    const sa = inserted.spend[a]!
    const sb = inserted.spend[b]!
    if (sa !== sb) return sb - sa
    const la = inserted.limit[a]!
    const lb = inserted.limit[b]!
    const c = la !== lb ? (la > lb ? -1 : 1) : Number.isSafeInteger(la) ? 0 : compareExact(insertedLimit(a), insertedLimit(b))
    return c !== 0 ? c : inserted.inputIndex[a]! - inserted.inputIndex[b]!
  })

  const m = k + countKept(newIndexOf)
  const into = storage && storage.capacity >= m ? storage : undefined
  // First the merged order (old position, or -(x + 1) for arrival x), then each column in its own tight loop.
  const source = into ? into.source.subarray(0, m) : new Int32Array(m)
  const bookSpend = book.spend
  const bookLimit = book.limit
  const bookLimitExact = book.limitExact
  const arrivalSpend = inserted.spend
  const arrivalLimit = inserted.limit
  const arrivalInput = inserted.inputIndex
  if (k === 0) keptOrder(newIndexOf, source)
  else {
    const arrivalGoesFirst = (x: number, p: number, index: number): boolean => {
      const sx = arrivalSpend[x]!
      const s = bookSpend[p]!
      if (sx !== s) return sx > s
      const lx = arrivalLimit[x]!
      const l = bookLimit[p]!
      if (lx !== l) return lx > l
      const c = Number.isSafeInteger(l) ? 0 : compareExact(insertedLimit(x), bookLimitExact ? bookLimitExact[p]! : exactLimitOf(l))
      return c < 0 || (c === 0 && arrivalInput[x]! < index)
    }
    mergedOrder(newIndexOf, arrivals, arrivalGoesFirst, source)
  }
  const permutation = permutationOf(source, newIndexOf, arrivalInput, into ? into.permutation.subarray(0, m) : new Uint32Array(m))
  const spend = pickFloat(source, bookSpend, arrivalSpend, into ? into.spend.subarray(0, m) : new Float64Array(m))
  const limit = pickFloat(source, bookLimit, arrivalLimit, into ? into.limit.subarray(0, m) : new Float64Array(m))
  const expiresInMs = pickFloat(source, book.expiresInMs, inserted.expiresInMs, into ? into.expiresInMs.subarray(0, m) : new Float64Array(m))
  const active = pickByte(source, book.active, inserted.active, into ? into.active.subarray(0, m) : new Uint8Array(m))
  const walletOf = pickWord(source, book.walletOf, inserted.walletOf, into ? into.walletOf.subarray(0, m) : new Uint32Array(m))
  const limitExact = bookLimitExact && Array.from(source, (from) => (from >= 0 ? bookLimitExact[from]! : insertedLimit(-from - 1)))
  const bookSpendExact = book.spendExact
  // Only without arrivals (see above).
  const spendExact = bookSpendExact && Array.from(source, (from) => bookSpendExact[from]!)
  const columns: OrderColumns = { spend, limit, spendExact, limitExact, expiresInMs, active, walletOf, wallets: book.wallets }
  // Fewer orders never make an exact book inexact; arrivals can only add to their own wallets' sums.
  const exact = k === 0 ? book.exact || exactNumbers(columns) : book.exact ? exactNumbers(columns, inserted.walletOf) : exactNumbers(columns)
  return { book: bookOf(columns, m, permutation, book.policy, exact), source }
}

const exactLimitOf = (limit: number): bigint | null => (limit === Number.POSITIVE_INFINITY ? null : BigInt(limit))

// The merge's loops are small functions with nothing after their loop: V8 compiles a hot loop on the stack, mid-call,
// and such code deoptimised at the first later statement it had not seen run, leaving the next loops to the interpreter.

function countKept(newIndexOf: Int32Array): number {
  let m = 0
  for (let p = 0; p < newIndexOf.length; p++) if (newIndexOf[p]! >= 0) m++
  return m
}

/** Removals only: the kept positions in order. */
function keptOrder(newIndexOf: Int32Array, source: Int32Array): void {
  let q = 0
  for (let p = 0; p < newIndexOf.length; p++) if (newIndexOf[p]! >= 0) source[q++] = p
}

/** Kept positions and arrivals (in their priority order) merged; `first(x, p, index)`: arrival x goes before position p. */
function mergedOrder(newIndexOf: Int32Array, arrivals: readonly number[], first: (x: number, p: number, index: number) => boolean, source: Int32Array): void {
  const k = arrivals.length
  let q = 0
  let a = 0
  for (let p = 0; p < newIndexOf.length; p++) {
    const index = newIndexOf[p]!
    if (index < 0) continue
    while (a < k && first(arrivals[a]!, p, index)) source[q++] = -(arrivals[a++]! + 1)
    source[q++] = p
  }
  while (a < k) source[q++] = -(arrivals[a++]! + 1)
}

function permutationOf(source: Int32Array, newIndexOf: Int32Array, arrivalInput: Uint32Array, out: Uint32Array): Uint32Array {
  for (let r = 0; r < source.length; r++) {
    const from = source[r]!
    out[r] = from >= 0 ? newIndexOf[from]! : arrivalInput[-from - 1]!
  }
  return out
}

/**
 * Arrays a merged book is written into instead of fresh ones: a caller that merges often (the executor, every tick
 * after buys) alternates two storages, so a merge allocates nothing (fresh ArrayBuffers of ~4 MB per tick cost page
 * faults, zeroing and GC pressure). The book written into a storage is valid until the storage is used again.
 */
export class BookStorage {
  readonly source: Int32Array
  readonly permutation: Uint32Array
  readonly spend: Float64Array
  readonly limit: Float64Array
  readonly expiresInMs: Float64Array
  readonly active: Uint8Array
  readonly walletOf: Uint32Array
  constructor(readonly capacity: number) {
    this.source = new Int32Array(capacity)
    this.permutation = new Uint32Array(capacity)
    this.spend = new Float64Array(capacity)
    this.limit = new Float64Array(capacity)
    this.expiresInMs = new Float64Array(capacity)
    this.active = new Uint8Array(capacity)
    this.walletOf = new Uint32Array(capacity)
  }

  /** `storage` when it holds `size` orders, else a new one with room to grow. */
  static fit(storage: BookStorage | undefined, size: number): BookStorage {
    return storage && storage.capacity >= size ? storage : new BookStorage(Math.ceil(size * 1.25) + 16)
  }
}

/**
 * The book held in the first `size` rows of `storage` (its columns edited in place, splice-rows.ts): views, no copy.
 * Valid until the storage is written again.
 */
export function storedOrderBook(storage: BookStorage, size: number, wallets: WalletIndex, policy: PrioritisationPolicy, exact: boolean): OrderBook {
  const columns: OrderColumns = {
    spend: storage.spend.subarray(0, size),
    limit: storage.limit.subarray(0, size),
    spendExact: undefined,
    limitExact: undefined,
    expiresInMs: storage.expiresInMs.subarray(0, size),
    active: storage.active.subarray(0, size),
    walletOf: storage.walletOf.subarray(0, size),
    wallets,
  }
  return bookOf(columns, size, storage.permutation.subarray(0, size), policy, exact)
}

// out[r] = the old column at source[r] (>= 0) or the arrivals' column at -source[r] - 1. One function per array type
// keeps each loop monomorphic.
function pickFloat(source: Int32Array, old: Float64Array, arrived: Float64Array, out: Float64Array): Float64Array {
  for (let r = 0; r < source.length; r++) {
    const from = source[r]!
    out[r] = from >= 0 ? old[from]! : arrived[-from - 1]!
  }
  return out
}

function pickWord(source: Int32Array, old: Uint32Array, arrived: Uint32Array, out: Uint32Array): Uint32Array {
  for (let r = 0; r < source.length; r++) {
    const from = source[r]!
    out[r] = from >= 0 ? old[from]! : arrived[-from - 1]!
  }
  return out
}

function pickByte(source: Int32Array, old: Uint8Array, arrived: Uint8Array, out: Uint8Array): Uint8Array {
  for (let r = 0; r < source.length; r++) {
    const from = source[r]!
    out[r] = from >= 0 ? old[from]! : arrived[-from - 1]!
  }
  return out
}

/** Descending exact limit order (negative: `a` first), no limit highest. */
function compareExact(a: bigint | null, b: bigint | null): number {
  if (a === b) return 0
  if (a === null) return -1
  if (b === null) return 1
  return a > b ? -1 : a < b ? 1 : 0
}

/** The next double above a finite non-negative one. */
function nextUp(value: number): number {
  const f = new Float64Array([value])
  const words = new Uint32Array(f.buffer)
  const lo = LITTLE_ENDIAN ? 0 : 1
  const hi = 1 - lo
  if (words[lo] === 0xffffffff) {
    words[lo] = 0
    words[hi]!++
  } else {
    words[lo]!++
  }
  return f[0]!
}

const LITTLE_ENDIAN = new Uint32Array(Float64Array.of(1).buffer)[1] === 0x3ff00000
