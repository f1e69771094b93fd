import type { BookBalances } from './order-book.ts'
import { BookStorage, storedOrderBook, toSafeNumber } from './order-book.ts'
import { atomsNumber } from './atoms-number.ts'
import { FDV_DECIMALS, USDC_DECIMALS } from '../order-bounds.ts'
import { balancesOf, candidateColumns, preparedBookOf, type CandidateOrder, type PreparedBook } from './prepared-book.ts'
import { spendThenLimitPolicy } from './prioritisation.ts'
import { moveRows, spliceRows } from './splice-rows.ts'

/** A merged book's arrays: the domain columns plus the executor's per-position and per-candidate arrays. */
export interface BookRows {
  book: BookStorage
  slotOf: Uint32Array
  walletOfInput: Uint32Array
  /**
   * The sum of the book's spends per wallet index (undefined: not counted yet), kept through in-place patches so that
   * an arrival's exactness check (no wallet asking for more than 2^53 - 1 in total) reads only its own wallet.
   */
  walletSum: Float64Array | undefined
}

export function fitBookRows(rows: BookRows | undefined, size: number): BookRows {
  const book = BookStorage.fit(rows?.book, size)
  if (rows && book === rows.book) {
    rows.walletSum = undefined
    return rows
  }
  return { book, slotOf: new Uint32Array(book.capacity), walletOfInput: new Uint32Array(book.capacity), walletSum: undefined }
}

/** How a reload relates to the book's candidates (book-cache.ts's Refresh). */
export interface BookChange {
  /** New candidate index per old candidate index; -1: gone or edited. */
  newIndexOfOld: Int32Array
  /** New candidate indices with no unchanged old counterpart (new or edited orders), ascending. */
  arrived: readonly number[]
  /** Balance per wallet index (of the matched candidates; arrivals are added here). */
  value: Float64Array
  /** Candidate index whose balance `value` holds, per wallet index; -1: none. */
  source: Int32Array
  /**
   * The old candidate at an old index, when the old list was edited in place (book-cache.ts fromHint: the held
   * candidates' `replaced`); without it, the previous book's candidates.
   */
  oldCandidate?: (index: number) => CandidateOrder | undefined
}

/** Patch in place while at most this many orders leave or arrive (beyond: the linear merge into the other storage). */
export const MAX_IN_PLACE_EDITS = 2_048

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/**
 * The book after a few orders left and a few arrived (a PATCH, a placement, a cancellation, a tick's buys), edited in
 * the rows it already lives in (`rows`): the leaving rows are found by their priority key (a binary search), the
 * arrivals' places likewise, and only the rows between edits move (splice-rows.ts). Nothing is allocated in proportion
 * to the book, and rows outside every edit's reach are not touched; the only passes over every order are the ones a
 * renumbering of the candidates needs (an order inserted into or removed from the middle of the loaded list shifts
 * every later candidate index), each a single typed-array loop. The result equals a rebuild from the candidates
 * (property-tested against prepareBook and the reference planner, book-cache.test.ts).
 *
 * Undefined when this book cannot be patched in place (not in `rows`, another policy, amounts beyond 2^53, too many
 * edits, no room, the shared verdict records due for compaction): the caller merges or rebuilds as before. Nothing is
 * written before that is decided. The previous PreparedBook's arrays are the new one's: it is invalid afterwards
 * (ExecutionPlan.candidatesInPriority says so).
 */
export function patchBookInPlace(previous: PreparedBook, candidates: readonly CandidateOrder[], change: BookChange, rows: BookRows): PreparedBook | undefined {
  const old = previous.book
  const storage = rows.book
  if (old.policy !== spendThenLimitPolicy || !old.exact || old.spendExact !== undefined || old.limitExact !== undefined) return undefined
  if (old.spend.buffer !== storage.spend.buffer || previous.slotOf.buffer !== rows.slotOf.buffer || previous.walletOfInput.buffer !== rows.walletOfInput.buffer)
    return undefined
  const n = old.size
  const map = change.newIndexOfOld
  if (map.length !== n) return undefined
  const removedInputs: number[] = []
  const identity = leavers(map, removedInputs)
  const arrivedCount = change.arrived.length
  const m = n - removedInputs.length + arrivedCount
  if (m !== candidates.length || m > storage.capacity || removedInputs.length + arrivedCount > MAX_IN_PLACE_EDITS) return undefined
  const records = previous.records
  // Too many dead slots: the merge starts the shared records afresh.
  if (records.keyId.length + arrivedCount > 2 * m + 1_024) return undefined

  const arrivedIndices = Uint32Array.from(change.arrived)
  const columns = candidateColumns(candidates, old.wallets, arrivedIndices)
  if (columns.spendExact !== undefined || columns.limitExact !== undefined) return undefined

  // Where the leavers sit: by their priority key, else (a key that does not find its row) one pass over the rows.
  const { spend, limit, permutation } = storage
  let removed = findRows(change.oldCandidate ?? ((c) => previous.candidates[c]), removedInputs, spend, limit, permutation, n)
  if (removed === undefined) {
    removed = []
    scanLeavers(map, permutation, n, removed)
  }

  // Per-wallet sums: the arrivals' wallets must stay within 2^53 - 1 (as exactNumbers checks on a merge).
  const walletCount = old.wallets.names.length
  let sum = rows.walletSum
  if (sum === undefined || sum.length < walletCount) sum = walletSums(storage.spend, storage.walletOf, n, walletCount, sum)
  for (const p of removed) sum[storage.walletOf[p]!]! -= spend[p]!
  let exact = true
  for (let x = 0; x < arrivedCount; x++) {
    const w = columns.walletOf[x]!
    sum[w]! += columns.spend[x]!
    if (sum[w]! > MAX_SAFE) exact = false
  }
  if (!exact) {
    // The merge path builds the inexact book (the tick then runs the reference planner); the sums are stale now.
    rows.walletSum = undefined
    return undefined
  }
  rows.walletSum = sum

  // The arrivals' places, in old positions and old candidate indices (the rows are in candidate order within a run of
  // equal terms), before anything moves.
  const order = arrivalOrder(columns.spend, columns.limit, arrivedIndices)
  const before = order.map((x) => placeOf(columns.spend[x]!, columns.limit[x]!, survivorsFrom(map, arrivedIndices[x]!), spend, limit, permutation, n))
  // From here on the rows are written. Survivors' candidate indices first (positions still the old ones).
  if (!identity) renumber(permutation, map, n)
  const splice = spliceRows(n, removed, before)
  const { slotOf } = rows
  moveRows([spend, limit, storage.expiresInMs, storage.active, storage.walletOf, permutation, slotOf], splice)

  const value = grown(change.value, old.wallets.names.length, 0)
  const source = grown(change.source, old.wallets.names.length, -1)
  for (let a = 0; a < order.length; a++) {
    const x = order[a]!
    const q = splice.arrivalAt[a]!
    const input = arrivedIndices[x]!
    const w = columns.walletOf[x]!
    spend[q] = columns.spend[x]!
    limit[q] = columns.limit[x]!
    storage.expiresInMs[q] = columns.expiresInMs[x]!
    storage.active[q] = columns.active[x]!
    storage.walletOf[q] = w
    permutation[q] = input
    slotOf[q] = records.keyId.length
    records.keyId.push(columns.keyId[x]!)
    records.slug.push(columns.slug[x]!)
    if (identity) rows.walletOfInput[input] = w
    // The last candidate of a wallet (in input order) stands for its balance, as in candidateBalances.
    if (source[w]! < input) {
      value[w] = toSafeNumber(candidates[input]!.balanceAtoms)
      source[w] = input
    }
  }
  if (!identity) scatterWallets(permutation, storage.walletOf, rows.walletOfInput, m)

  const book = storedOrderBook(storage, m, old.wallets, old.policy, true)
  const balances: BookBalances = balancesOf(value, source, candidates)
  return preparedBookOf(book, candidates, book.permutation, rows.walletOfInput.subarray(0, m), balances, records, slotOf.subarray(0, m))
}

// The loops over every order are small functions with nothing after their loop (see the note in order-book.ts).

/** Old candidate indices that left, into `out`; whether every survivor keeps its index. */
function leavers(map: Int32Array, out: number[]): boolean {
  let identity = true
  for (let c = 0; c < map.length; c++) {
    const i = map[c]!
    if (i < 0) out.push(c)
    else if (i !== c) identity = false
  }
  return identity
}

/** Positions whose candidate left, ascending. */
function scanLeavers(map: Int32Array, permutation: Uint32Array, n: number, out: number[]): void {
  for (let p = 0; p < n; p++) if (map[permutation[p]!]! < 0) out.push(p)
}

function renumber(permutation: Uint32Array, map: Int32Array, n: number): void {
  for (let p = 0; p < n; p++) permutation[p] = map[permutation[p]!]!
}

function scatterWallets(permutation: Uint32Array, walletOf: Uint32Array, out: Uint32Array, m: number): void {
  for (let q = 0; q < m; q++) out[permutation[q]!] = walletOf[q]!
}

/**
 * The per-wallet sums of a book just written into `rows` (its first `n` rows, `count` wallets), counted ahead: the
 * first in-place patch of a built book then does not pay the pass (book-cache.ts intoRows, at build time).
 */
export function countWalletSums(rows: BookRows, n: number, count: number): void {
  rows.walletSum = walletSums(rows.book.spend, rows.book.walletOf, n, count, rows.walletSum)
}

function walletSums(spend: Float64Array, walletOf: Uint32Array, n: number, count: number, previous: Float64Array | undefined): Float64Array {
  const sum = previous && previous.length >= count ? previous : new Float64Array(Math.ceil(count * 1.25) + 16)
  sum.fill(0)
  for (let p = 0; p < n; p++) sum[walletOf[p]!]! += spend[p]!
  return sum
}

/** `array` with room for `count` entries (new ones `fill`). */
function grown<T extends Float64Array | Int32Array>(array: T, count: number, fill: number): T {
  if (array.length >= count) return array
  const out = new (array.constructor as new (length: number) => T)(count)
  out.fill(fill)
  out.set(array)
  return out
}

/**
 * The book's position of each leaving candidate, ascending: its row is in the run of rows with its spend and limit,
 * where rows sit by candidate index. Undefined when one is not found there (its terms read differently: scan instead).
 */
function findRows(
  candidateAt: (index: number) => CandidateOrder | undefined,
  inputs: readonly number[],
  spend: Float64Array,
  limit: Float64Array,
  permutation: Uint32Array,
  n: number,
): number[] | undefined {
  const out: number[] = []
  for (const c of inputs) {
    const order = candidateAt(c)?.order
    if (order === undefined) return undefined
    const s = atomsNumber(order.maxSpendUsdc, USDC_DECIMALS)
    const l = order.maxFdvUsdc === null ? Number.POSITIVE_INFINITY : atomsNumber(order.maxFdvUsdc, FDV_DECIMALS)
    if (!(s <= MAX_SAFE) || !(l <= MAX_SAFE || l === Number.POSITIVE_INFINITY)) return undefined
    let lo = firstNotAbove(s, l, spend, limit, 0, n)
    let hi = firstBelow(s, l, spend, limit, lo, n)
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (permutation[mid]! < c) lo = mid + 1
      else hi = mid
    }
    if (lo >= n || permutation[lo] !== c || spend[lo] !== s || limit[lo] !== l) return undefined
    out.push(lo)
  }
  return out.sort((a, b) => a - b)
}

/** First position whose (spend, limit) does not rank above (s, l). */
function firstNotAbove(s: number, l: number, spend: Float64Array, limit: Float64Array, from: number, to: number): number {
  let lo = from
  let hi = to
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (spend[mid]! > s || (spend[mid] === s && limit[mid]! > l)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** First position whose (spend, limit) ranks below (s, l). */
function firstBelow(s: number, l: number, spend: Float64Array, limit: Float64Array, from: number, to: number): number {
  let lo = from
  let hi = to
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (spend[mid]! > s || (spend[mid] === s && limit[mid]! >= l)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The arrivals in priority order (larger spend, higher limit, no limit highest, then candidate order). */
function arrivalOrder(spend: Float64Array, limit: Float64Array, input: Uint32Array): number[] {
  const order = Array.from({ length: spend.length }, (_, x) => x)
  return order.sort((a, b) =>
    spend[a] !== spend[b] ? spend[b]! - spend[a]! : limit[a] !== limit[b] ? (limit[a]! > limit[b]! ? -1 : 1) : input[a]! - input[b]!,
  )
}

/**
 * The first old candidate index from which every surviving candidate comes after new index `input` (survivors keep
 * their relative order, so their new indices rise with the old ones): a binary search over the old indices that steps
 * over the leavers (-1).
 */
function survivorsFrom(map: Int32Array, input: number): number {
  let lo = 0
  let hi = map.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    let c = mid
    while (c < hi && map[c]! < 0) c++
    if (c === hi || map[c]! > input) hi = mid
    else lo = c + 1
  }
  return lo
}

/**
 * The old position an arrival goes in front of: after every row that ranks above it, a larger spend or a higher limit,
 * or equal terms and a candidate that stays before it (old candidate index below `from`, survivorsFrom); rows within a
 * run of equal terms are in candidate order, so that is a binary search too. Where it lands among leaving rows does not
 * matter: they go.
 */
function placeOf(s: number, l: number, from: number, spend: Float64Array, limit: Float64Array, permutation: Uint32Array, n: number): number {
  let lo = firstNotAbove(s, l, spend, limit, 0, n)
  let hi = firstBelow(s, l, spend, limit, lo, n)
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (permutation[mid]! < from) lo = mid + 1
    else hi = mid
  }
  return lo
}
