import type { Address } from 'viem'
import type { OrderRecord } from '../../src/domain/records.ts'
import { toExecutableOrder, type ExecutableOrder } from '../../src/domain/execution/executable-order.ts'
import { prepareOrderBook, toSafeNumber, type BookBalances, type OrderBook } from '../../src/domain/execution/order-book.ts'
import { BookVerdict, planBookTick, spendAt } from '../../src/domain/execution/plan-book-tick.ts'
import type { PrioritisationPolicy } from '../../src/domain/execution/prioritisation.ts'
import type { OrderDecision, OrderVerdict, PriceTick } from '../../src/journal/journal-records.ts'
import { minTokensOut } from '../../src/pricing/min-tokens-out.ts'

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

export interface PlannedBuy {
  candidate: CandidateOrder
  spendAtoms: bigint
  minTokensOut: bigint
  rank: number
}

export interface ExecutionPlan {
  decisions: OrderDecision[]
  expired: OrderRecord[]
  buys: PlannedBuy[]
}

export const DEFAULT_MAX_BUYS = 1_000

/** Journal verdict per BookVerdict code (buy and expired are handled apart). */
const VERDICTS: OrderVerdict[] = []
VERDICTS[BookVerdict.notActive] = 'in_flight'
VERDICTS[BookVerdict.swapsNotAllowed] = 'swaps_not_allowed'
VERDICTS[BookVerdict.aboveLimit] = 'limit_below_cap'
VERDICTS[BookVerdict.emptyWallet] = 'no_balance'
VERDICTS[BookVerdict.balanceReserved] = 'fully_reserved'

/** Slot of the shared deferred records in PreparedBook.decisions (after the BookVerdict codes). */
const DEFERRED = 7

/**
 * A project's orders parsed and in priority order (rebuilt only when the order set changes, see plan-book-cache.ts),
 * with the candidates they came from and the wallets' balances as last read. Per-candidate data is kept in the
 * candidates' own order (`inputOf` maps a priority position to it): a reload then only swaps the candidates array and
 * reads balances sequentially; walking 100,000 objects in priority order is a cache miss per order.
 */
export interface PreparedBook {
  book: OrderBook
  candidates: readonly CandidateOrder[]
  /** Candidate index per priority position. */
  inputOf: Uint32Array
  /** The book's wallet index per candidate index. */
  walletOfInput: Uint32Array
  balances: BookBalances
  /**
   * Shared (never to be mutated) skip/expiry decisions per verdict code and `slotOf` slot, made on first use: a
   * book priced every block mostly repeats the same verdicts, so a tick reuses them instead of allocating one object
   * per order.
   */
  decisions?: Array<Array<OrderDecision | undefined> | undefined>
  /**
   * Slot of each priority position in `decisions`: the position at the last full preparation. Filtering the book
   * carries it along, so the shared records stay where they are instead of being moved.
   */
  slotOf: Uint32Array
}

export function prepareBook(candidates: readonly CandidateOrder[], policy: PrioritisationPolicy): PreparedBook {
  const parsed: ExecutableOrder[] = new Array(candidates.length)
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!
    parsed[i] = toExecutableOrder(candidate.order, candidate.wallet.toLowerCase())
  }
  const book = prepareOrderBook(parsed, policy)
  const inputOf = book.permutation
  const walletOfInput = new Uint32Array(book.orders.length)
  for (let p = 0; p < inputOf.length; p++) walletOfInput[inputOf[p]!] = book.walletOf[p]!
  const slotOf = new Uint32Array(inputOf.length)
  for (let p = 0; p < slotOf.length; p++) slotOf[p] = p
  const prepared: PreparedBook = { book, candidates, inputOf, walletOfInput, slotOf, balances: { value: new Float64Array(0), exact: () => 0n } }
  prepared.balances = candidateBalances(prepared)
  return prepared
}

/**
 * The wallets' balances from the book's candidates (the executor reads them every tick): one sequential pass, by
 * wallet index, no address normalising or map lookups. Orders of one wallet carry the same balance (one read per tick).
 */
export function candidateBalances(prepared: Pick<PreparedBook, 'book' | 'candidates' | 'walletOfInput'>): BookBalances {
  const count = prepared.book.wallets.length
  const value = new Float64Array(count)
  // One candidate per wallet stands for its exact balance: no per-tick array of 100,000 bigints.
  const source = new Uint32Array(count)
  const { candidates, walletOfInput } = prepared
  for (let i = 0; i < candidates.length; i++) {
    const w = walletOfInput[i]!
    source[w] = i
    value[w] = toSafeNumber(candidates[i]!.balanceAtoms)
  }
  // A wallet whose orders all left the book (possible after filtering) holds nothing this book can spend.
  return { value, exact: (w) => (value[w] === 0 ? 0n : candidates[source[w]!]!.balanceAtoms) }
}

/**
 * The executor's side of a tick: the pure domain policy (src/domain/execution: eligibility, sizing, priority) applied
 * to the project's orders, plus what the policy leaves to execution: the on-chain minimum out of every buy and a
 * journal verdict for every order.
 */
export function planExecution(input: PlanInput): ExecutionPlan {
  return planPrepared(prepareBook(input.candidates, input.policy), input)
}

/** The per-tick pass over a prepared book: eligibility, sizing, min-out and a verdict for every order. */
export function planPrepared(prepared: PreparedBook, input: Omit<PlanInput, 'candidates' | 'policy'>): ExecutionPlan {
  const { book, candidates, inputOf } = prepared
  const plan = planBookTick({
    book,
    balances: prepared.balances,
    reserved: input.reservedByWallet,
    effectiveCap: input.tick.effectiveCapAtoms === null ? null : BigInt(input.tick.effectiveCapAtoms),
    swapsAllowed: input.tick.swapsAllowed,
    launchedAtMs: input.launchedAt,
    nowMs: input.now,
  })
  const orders = book.orders
  const n = orders.length
  const buyCount = plan.buys.length
  const limit = Math.min(buyCount, input.maxBuys ?? DEFAULT_MAX_BUYS)
  const buys: PlannedBuy[] = new Array(limit)
  const decisions: OrderDecision[] = new Array(n)
  let d = 0
  const cache = (prepared.decisions ??= [])
  const { slotOf } = prepared
  // Slots number the positions of the last full preparation; a filtered book has fewer positions, never more slots.
  let slots = 0
  for (let p = 0; p < n; p++) if (slotOf[p]! >= slots) slots = slotOf[p]! + 1
  const decisionFor = (p: number, code: number): OrderDecision => {
    const byPosition = (cache[code] ??= new Array<OrderDecision | undefined>(slots))
    const slot = slotOf[p]!
    let decision = byPosition[slot]
    if (decision === undefined) {
      const record = candidates[inputOf[p]!]!.order
      decision = { keyId: record.keyId, slug: record.slug, verdict: code === BookVerdict.expired ? 'expired' : VERDICTS[code]! }
      byPosition[slot] = decision
    }
    return decision
  }
  const expired: OrderRecord[] = new Array(plan.expired.length)
  for (let i = 0; i < plan.expired.length; i++) {
    const p = plan.expired[i]!
    expired[i] = candidates[inputOf[p]!]!.order
    decisions[d++] = decisionFor(p, BookVerdict.expired)
  }
  const verdict = plan.verdict
  for (let p = 0; p < n; p++) {
    const code = verdict[p]!
    if (code === BookVerdict.buy || code === BookVerdict.expired) continue
    decisions[d++] = decisionFor(p, code)
  }
  for (let rank = 0; rank < limit; rank++) {
    const p = plan.buys[rank]!
    const candidate = candidates[inputOf[p]!]!
    const spend = spendAt(plan, p)
    const min = minTokensOut({ spend, limitFdv: orders[p]!.limitFdv, totalSupply: input.totalSupply })
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
  // Deferred records carry a rank, so they are shared only while the order keeps its rank (the usual steady state).
  const deferred = (cache[DEFERRED] ??= new Array<OrderDecision | undefined>(slots))
  for (let rank = limit; rank < buyCount; rank++) {
    const p = plan.buys[rank]!
    const slot = slotOf[p]!
    let decision = deferred[slot]
    if (decision === undefined || decision.rank !== rank) {
      const record = candidates[inputOf[p]!]!.order
      decision = { keyId: record.keyId, slug: record.slug, verdict: 'deferred', rank }
      deferred[slot] = decision
    }
    decisions[d++] = decision
  }
  return { decisions, expired, buys }
}
