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
import { BookVerdict, TickWorkspace, planBookTick, spendAt } from './columnar-planner.ts'
import { spendThenLimitPolicy, type PrioritisationPolicy } from './prioritisation.ts'
import { indexWallets, type WalletIndex } from './wallet-index.ts'
import { FDV_DECIMALS, USDC_DECIMALS } from '../order-bounds.ts'
import type { OrderDecision, OrderVerdict, PriceTick } from '../../journal/journal-records.ts'
import { minTokensOut } from '../../pricing/min-tokens-out.ts'

/** One active order of the ticking project with what the executor read about its wallet. */
export interface CandidateOrder {
  order: OrderRecord
  userIndex: number
  wallet: Address
  /** Stablecoin balance of the wallet on the project's chain, atoms. */
  balanceAtoms: bigint
}

export interface PlanInput {
  tick: Pick<PriceTick, 'effectiveCapAtoms' | 'swapsAllowed'>
  /** Launch time and chain time of the tick, epoch ms: expiry counts from launch, in chain time. */
  launchedAt: number
  now: number
  totalSupply: bigint
  candidates: readonly CandidateOrder[]
  /** Stablecoin atoms each wallet has committed to in-flight orders (other launches), by lower-cased address. */
  reservedByWallet: ReadonlyMap<string, bigint>
  policy: PrioritisationPolicy
  /**
   * Most buys submitted per tick (default 1,000). A block holds a few hundred buys at most; the rest, in priority order,
   * wait for the next tick (verdict `deferred`) instead of being signed, simulated and queued now.
   */
  maxBuys?: number
}

/** A buy the executor submits this tick: the candidate with its spend, on-chain minimum out and rank in the bundle. */
export interface BuyToSubmit {
  candidate: CandidateOrder
  spendAtoms: bigint
  minTokensOut: bigint
  rank: number
}

export interface ExecutionPlan {
  decisions: OrderDecision[]
  expired: OrderRecord[]
  buys: BuyToSubmit[]
}

export const DEFAULT_MAX_BUYS = 1_000

/** Journal verdict per BookVerdict code (buy and expired are handled apart). */
const VERDICTS: OrderVerdict[] = []
VERDICTS[BookVerdict.notActive] = 'in_flight'
VERDICTS[BookVerdict.swapsNotAllowed] = 'swaps_not_allowed'
VERDICTS[BookVerdict.aboveLimit] = 'limit_below_cap'
VERDICTS[BookVerdict.emptyWallet] = 'no_balance'
VERDICTS[BookVerdict.balanceReserved] = 'fully_reserved'

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
 * verdict code. Deferred records carry a rank, so they are shared only while the order keeps its rank.
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
    lowered[k] = candidate.wallet.toLowerCase()
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
  return { value, exact: (w) => (value[w] === 0 || source[w]! < 0 ? 0n : candidates[source[w]!]!.balanceAtoms) }
}

/**
 * The executor's side of a tick: the pure domain policy (src/domain/execution: eligibility, sizing, priority) applied
 * to the project's orders, plus what the policy leaves to execution: the on-chain minimum out of every buy and a
 * journal verdict for every order.
 */
export function planExecution(input: PlanInput): ExecutionPlan {
  return planPrepared(prepareBook(input.candidates, input.policy), input)
}

/** Verdict strings per BookVerdict code, expired included. */
const VERDICT_OF: OrderVerdict[] = [...VERDICTS]
VERDICT_OF[BookVerdict.expired] = 'expired'

// One workspace for every tick: planPrepared consumes the book plan before it returns (JS runs one tick at a time).
const workspace = new TickWorkspace()

/** The per-tick pass over a prepared book: eligibility, sizing, min-out and a verdict for every order. */
export function planPrepared(prepared: PreparedBook, input: Omit<PlanInput, 'candidates' | 'policy'>): ExecutionPlan {
  const { book, candidates, inputOf, slotOf, records } = prepared
  const plan = planBookTick({
    workspace,
    book,
    balances: prepared.balances,
    reserved: input.reservedByWallet,
    effectiveCap: input.tick.effectiveCapAtoms === null ? null : BigInt(input.tick.effectiveCapAtoms),
    swapsAllowed: input.tick.swapsAllowed,
    launchedAtMs: input.launchedAt,
    nowMs: input.now,
  })
  const n = book.size
  const buyCount = plan.buys.length
  const limit = Math.min(buyCount, input.maxBuys ?? DEFAULT_MAX_BUYS)
  const buys: BuyToSubmit[] = new Array(limit)
  const decisions: OrderDecision[] = new Array(n)
  let d = 0
  const { keyId, slug, byCode } = records
  const recordsOf = (code: number): Array<OrderDecision | undefined> => (byCode[code] ??= new Array<OrderDecision | undefined>(keyId.length))

  const expiredCount = plan.expired.length
  const expired: OrderRecord[] = new Array(expiredCount)
  if (expiredCount > 0) {
    const shared = recordsOf(BookVerdict.expired)
    for (let e = 0; e < expiredCount; e++) {
      const p = plan.expired[e]!
      expired[e] = candidates[inputOf[p]!]!.order
      const slot = slotOf[p]!
      decisions[d++] = shared[slot] ??= { keyId: keyId[slot]!, slug: slug[slot]!, verdict: 'expired' }
    }
  }
  d = skipDecisions(plan.verdict, slotOf, records, decisions, d)
  for (let rank = 0; rank < limit; rank++) {
    const p = plan.buys[rank]!
    const candidate = candidates[inputOf[p]!]!
    const spend = spendAt(plan, p)
    const limitFdv = book.limitExact ? book.limitExact[p]! : book.limit[p] === Number.POSITIVE_INFINITY ? null : BigInt(book.limit[p]!)
    const min = minTokensOut({ spend, limitFdv, totalSupply: input.totalSupply })
    buys[rank] = { candidate, spendAtoms: spend, minTokensOut: min, rank }
    decisions[d++] = {
      keyId: candidate.order.keyId,
      slug: candidate.order.slug,
      verdict: 'submitted',
      spendAtoms: spend.toString(),
      minTokensOut: min.toString(),
      rank,
    }
  }
  deferredDecisions(plan.buys, limit, slotOf, records, decisions, d)
  return { decisions, expired, buys }
}

// planPrepared's loops over every order are small functions returning right after their loop: V8 compiles a hot loop
// on the stack, mid-call, and such code deoptimised at the first later statement it had not seen run.

/** The shared record of every order that neither buys nor expires, in priority order, from `decisions[d]` on. */
function skipDecisions(verdict: Uint8Array, slotOf: Uint32Array, records: DecisionRecords, decisions: OrderDecision[], d: number): number {
  const { keyId, slug, byCode } = records
  let code = -1
  let shared: Array<OrderDecision | undefined> = []
  for (let p = 0; p < verdict.length; p++) {
    const c = verdict[p]!
    if (c === BookVerdict.buy || c === BookVerdict.expired) continue
    // Neighbours mostly share a verdict: look the code's records up once per run.
    if (c !== code) {
      code = c
      shared = byCode[c] ??= new Array<OrderDecision | undefined>(keyId.length)
    }
    const slot = slotOf[p]!
    let decision = shared[slot]
    if (decision === undefined) {
      decision = { keyId: keyId[slot]!, slug: slug[slot]!, verdict: VERDICT_OF[c]! }
      shared[slot] = decision
    }
    decisions[d++] = decision
  }
  return d
}

/**
 * The deferred buys' records (rank `limit` on), from `decisions[d]` on. They carry a rank, so they are shared only
 * while the order keeps its rank (a tick that bought nothing).
 */
function deferredDecisions(buys: Uint32Array, limit: number, slotOf: Uint32Array, records: DecisionRecords, decisions: OrderDecision[], d: number): number {
  const { keyId, slug, deferred } = records
  for (let rank = limit; rank < buys.length; rank++) {
    const slot = slotOf[buys[rank]!]!
    let decision = deferred[slot]
    if (decision === undefined || decision.rank !== rank) {
      decision = { keyId: keyId[slot]!, slug: slug[slot]!, verdict: 'deferred', rank }
      deferred[slot] = decision
    }
    decisions[d++] = decision
  }
  return d
}

/**
 * Whether two ticks' decisions carry the same verdict for the same orders in the same order (what a quiet tick's
 * journal check needs), without building a 100,000-entry signature string: decisions of a book the cache kept are the
 * same shared record objects tick after tick, so this is mostly pointer comparisons.
 */
export function sameVerdicts(a: readonly OrderDecision[], b: readonly OrderDecision[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!
    const y = b[i]!
    if (x !== y && (x.keyId !== y.keyId || x.verdict !== y.verdict)) return false
  }
  return true
}
