import type { Address } from 'viem'
import type { OrderRecord } from '../records.ts'
import { atomsNumber } from './atoms-number.ts'
import { toExecutableOrder } from './executable-order.ts'
import {
  orderBookFromColumns,
  prepareOrderBook,
  spendLimitPermutation,
  toSafeNumber,
  type BookBalances,
  type OrderBook,
  type OrderColumns,
} from './order-book.ts'
import { spendThenLimitPolicy, type PrioritisationPolicy } from './prioritisation.ts'
import { indexWallets, lowerWallet, type WalletIndex } from './wallet-index.ts'
import { FDV_DECIMALS, USDC_DECIMALS } from '../order-bounds.ts'
import type { OrderDecision } from './verdicts.ts'

/** One active order of the ticking project with what the executor read about its wallet. */
export interface CandidateOrder {
  order: OrderRecord
  userIndex: number
  wallet: Address
  /** Stablecoin balance of the wallet on the project's chain, atoms. */
  balanceAtoms: bigint
}

/**
 * A project's orders as a priority-sorted columnar book (rebuilt only when the order set changes, see
 * book-cache.ts), with the candidates they came from and the wallets' balances as last read. Per-candidate data
 * is kept in the candidates' own order (`inputOf` maps a priority position to it): a reload then only swaps the
 * candidates array and reads balances sequentially; walking 100,000 objects in priority order is a cache miss per order.
 */
export interface PreparedBook {
  book: OrderBook
  candidates: readonly CandidateOrder[]
  /** Candidate index per priority position (the book's permutation). */
  inputOf: Uint32Array
  /** The book's wallet index per candidate index. */
  walletOfInput: Uint32Array
  balances: BookBalances
  /**
   * Journal records shared between ticks: a book priced every block mostly repeats the same verdicts, so a tick reuses
   * them instead of allocating one object per order. Shared (append-only) by the books derived from this one.
   */
  records: DecisionRecords
  /** Slot of each priority position in `records`: survives filtering and merging, so the records stay put. */
  slotOf: Uint32Array
}

/**
 * Per slot: the order's keyId and slug (so records are built without touching the order objects, which sit in
 * memory in input order, not priority order) and, made on first use, its shared (never to be mutated) decision per
 * verdict code. Deferred records carry a rank: one per slot, its rank rewritten when the order's rank moves
 * (executor-plan.ts deferredDecisions).
 */
export interface DecisionRecords {
  readonly keyId: string[]
  readonly slug: string[]
  readonly byCode: Array<Array<OrderDecision | undefined> | undefined>
  readonly deferred: Array<OrderDecision | undefined>
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/**
 * Every PreparedBook is made here, properties in one order: one hidden class for rebuilt, reused and merged books keeps
 * the tick's loads monomorphic (spread copies of several shapes made TurboFan deoptimise the per-tick code repeatedly).
 */
export function preparedBookOf(
  book: OrderBook,
  candidates: readonly CandidateOrder[],
  inputOf: Uint32Array,
  walletOfInput: Uint32Array,
  balances: BookBalances,
  records: DecisionRecords,
  slotOf: Uint32Array,
): PreparedBook {
  return { book, candidates, inputOf, walletOfInput, balances, records, slotOf }
}

/**
 * Columns of the candidates at `indices` (all of them when absent), parsing the decimal amounts straight into numbers
 * (atomsNumber; the exact bigint only for an amount beyond 2^53), with their wallets (lower-cased) added to `wallets`
 * (or, without it, indexed anew in one go). A malformed amount throws the RangeError toExecutableOrder throws.
 */
export function candidateColumns(
  candidates: readonly CandidateOrder[],
  wallets?: WalletIndex,
  indices?: Uint32Array,
): OrderColumns & { keyId: string[]; slug: string[]; balance: Float64Array } {
  const n = indices ? indices.length : candidates.length
  const spend = new Float64Array(n)
  const limit = new Float64Array(n)
  const expiresInMs = new Float64Array(n)
  const active = new Uint8Array(n)
  let walletOf: Uint32Array = new Uint32Array(n)
  const lowered: string[] = new Array(n)
  const keyId: string[] = new Array(n)
  const slug: string[] = new Array(n)
  // Read while the candidate is at hand: a second pass over 100,000 objects costs more than the numbers.
  const balance = new Float64Array(n)
  let spendExact: bigint[] | undefined
  let limitExact: Array<bigint | null> | undefined
  for (let k = 0; k < n; k++) {
    const candidate = candidates[indices ? indices[k]! : k]!
    const order = candidate.order
    keyId[k] = order.keyId
    slug[k] = order.slug
    const fdv = order.maxFdvUsdc
    let s = atomsNumber(order.maxSpendUsdc, USDC_DECIMALS)
    let l = fdv === null ? Number.POSITIVE_INFINITY : atomsNumber(fdv, FDV_DECIMALS)
    if (!(s <= MAX_SAFE) || (fdv !== null && !(l <= MAX_SAFE))) {
      // Malformed (throws here, as before) or beyond 2^53: the exact bigints, kept alongside the rounded numbers.
      const exact = toExecutableOrder(order, '')
      s = Number(exact.maxSpend)
      l = exact.limitFdv === null ? Number.POSITIVE_INFINITY : Number(exact.limitFdv)
      if (exact.maxSpend > BigInt(MAX_SAFE)) {
        spendExact ??= backfill(k, (j) => BigInt(spend[j]!))
        spendExact[k] = exact.maxSpend
      }
      if (exact.limitFdv !== null && exact.limitFdv > BigInt(MAX_SAFE)) {
        limitExact ??= backfill(k, (j) => (limit[j] === Number.POSITIVE_INFINITY ? null : BigInt(limit[j]!)))
        limitExact[k] = exact.limitFdv
      }
    }
    spend[k] = s
    limit[k] = l
    if (spendExact && spendExact.length === k) spendExact.push(BigInt(s))
    if (limitExact && limitExact.length === k) limitExact.push(l === Number.POSITIVE_INFINITY ? null : BigInt(l))
    expiresInMs[k] = order.expiresInMs
    active[k] = order.status === 'active' ? 1 : 0
    lowered[k] = lowerWallet(candidate.wallet)
    balance[k] = toSafeNumber(candidate.balanceAtoms)
  }
  let index = wallets
  if (index === undefined) {
    const indexed = indexWallets(lowered)
    index = indexed.index
    walletOf = indexed.walletOf
  } else {
    for (let k = 0; k < n; k++) walletOf[k] = index.intern(lowered[k]!)
  }
  return { spend, limit, spendExact, limitExact, expiresInMs, active, walletOf, wallets: index, keyId, slug, balance }
}

function backfill<T>(count: number, valueAt: (j: number) => T): T[] {
  const out: T[] = []
  for (let j = 0; j < count; j++) out.push(valueAt(j))
  return out
}

export function prepareBook(candidates: readonly CandidateOrder[], policy: PrioritisationPolicy): PreparedBook {
  let book: OrderBook
  let keyIdIn: readonly string[]
  let slugIn: readonly string[]
  let balanceIn: Float64Array | undefined
  if (policy === spendThenLimitPolicy) {
    const columns = candidateColumns(candidates)
    book = orderBookFromColumns(columns, spendLimitPermutation(columns), policy)
    keyIdIn = columns.keyId
    slugIn = columns.slug
    balanceIn = columns.balance
  } else {
    // Another policy ranks ExecutableOrders: parse them (the slow, general path).
    const parsed = candidates.map((c) => toExecutableOrder(c.order, c.wallet.toLowerCase()))
    book = prepareOrderBook(parsed, policy)
    keyIdIn = candidates.map((c) => c.order.keyId)
    slugIn = candidates.map((c) => c.order.slug)
  }
  const n = book.size
  const inputOf = book.permutation
  const walletOfInput = new Uint32Array(n)
  const slotOf = new Uint32Array(n)
  const keyId: string[] = new Array(n)
  const slug: string[] = new Array(n)
  for (let p = 0; p < n; p++) {
    const i = inputOf[p]!
    walletOfInput[i] = book.walletOf[p]!
    slotOf[p] = p
    keyId[p] = keyIdIn[i]!
    slug[p] = slugIn[i]!
  }
  const records: DecisionRecords = { keyId, slug, byCode: [], deferred: [] }
  const prepared = preparedBookOf(book, candidates, inputOf, walletOfInput, NO_BALANCES, records, slotOf)
  if (balanceIn) {
    // The balances read with the columns, by wallet (the last candidate of a wallet stands for it, as in candidateBalances).
    const count = book.wallets.names.length
    const value = new Float64Array(count)
    const source = new Int32Array(count).fill(-1)
    for (let i = 0; i < n; i++) {
      const w = walletOfInput[i]!
      value[w] = balanceIn[i]!
      source[w] = i
    }
    prepared.balances = balancesOf(value, source, candidates)
  } else {
    prepared.balances = candidateBalances(prepared)
  }
  return prepared
}

const NO_BALANCES: BookBalances = { value: new Float64Array(0), exact: () => 0n }

/**
 * The wallets' balances from the book's candidates (the executor reads them every tick): one sequential pass, by
 * wallet index, no address normalising or map lookups. Orders of one wallet carry the same balance (one read per tick);
 * the last one in input order stands for it.
 */
export function candidateBalances(prepared: Pick<PreparedBook, 'book' | 'candidates' | 'walletOfInput'>): BookBalances {
  const count = prepared.book.wallets.names.length
  const value = new Float64Array(count)
  const source = new Int32Array(count).fill(-1)
  const { candidates, walletOfInput } = prepared
  for (let i = 0; i < candidates.length; i++) {
    const w = walletOfInput[i]!
    source[w] = i
    value[w] = toSafeNumber(candidates[i]!.balanceAtoms)
  }
  return balancesOf(value, source, candidates)
}

/**
 * Balances as numbers per wallet index, with the candidate index that carries each one, for the exact value (asked only
 * for wallets with reservations): no per-tick array of 100,000 bigints. A wallet none of whose orders is in the book
 * (source -1, value 0) holds nothing this book can spend.
 */
export function balancesOf(value: Float64Array, source: Int32Array, candidates: readonly CandidateOrder[]): BookBalances {
  return { value, source, exact: (w) => (value[w] === 0 || source[w]! < 0 ? 0n : candidates[source[w]!]!.balanceAtoms) }
}
