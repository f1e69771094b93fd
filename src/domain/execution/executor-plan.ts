import type { OrderRecord } from '../records.ts'
import { TickWorkspace, planBookTick, spendAt } from './columnar-planner.ts'
import { prepareBook, type CandidateOrder, type DecisionRecords, type PreparedBook } from './prepared-book.ts'
import type { PrioritisationPolicy } from './prioritisation.ts'
import { ORDER_VERDICTS, VerdictCode } from './verdicts.ts'
import type { OrderDecision } from './verdicts.ts'
import { minTokensOut } from '../../pricing/min-tokens-out.ts'
import { capForSpend, lowestCap, type QuotedCaps } from '../../pricing/quote/quoted-caps.ts'
import { withinLimit } from './eligibility.ts'
import { resizeArray } from './resize-array.ts'

export interface PlanInput {
  /** The tick's effective cap (stablecoin atoms, null: infinite) and whether a swap in the next block is allowed. */
  tick: { effectiveCapAtoms: string | null; swapsAllowed: boolean }
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
  /**
   * Quotes of the real swap for this tick's spend buckets (a launched pool): when given they decide, not the formula's
   * cap. Every order is first checked against the lowest quoted cap; each buy then against its own spend's bucket.
   */
  quote?: QuotedCaps
  /**
   * Whether an order that would buy at `capAtoms` (the cap it was decided on) waits instead: its buys reverted for price
   * at this price before (PriceBackoff). Verdict `backing_off`.
   */
  holdBack?: (keyId: string, capAtoms: bigint | null) => boolean
}

/** A buy the executor submits this tick: the candidate with its spend, on-chain minimum out and rank in the bundle. */
export interface BuyToSubmit {
  candidate: CandidateOrder
  spendAtoms: bigint
  minTokensOut: bigint
  rank: number
  /** The effective cap the buy was decided on (its bucket's quoted cap, or the formula's), stablecoin atoms (the price a price-revert backoff compares; absent in buys built by hand). */
  capAtoms?: bigint | null
}

export interface ExecutionPlan {
  /**
   * A verdict per order, in priority order. Planned through the book cache, this is the project's own reused array
   * (no 100,000-entry array per tick, issue 23 item 4): valid until the project's next plan, so copy it to keep it.
   */
  decisions: OrderDecision[]
  expired: OrderRecord[]
  buys: BuyToSubmit[]
  /**
   * Every candidate in the priority order this tick used (what the journal records for a replay). Call it before the
   * project's next plan: a later merge may write into the book's arrays.
   */
  candidatesInPriority(): CandidateOrder[]
  /**
   * The plan's positions as its book holds them (same validity as `decisions`): per position its slot in the book's
   * decision records and its candidate's index. A slot names one order's terms for as long as `records` is the book's
   * (a merge or an in-place patch gives an edited or new order a new slot and keeps the others'), which is what lets the
   * quiet decision's journal find what changed since its last record without walking the book (decision-delta.ts).
   */
  rows?: PlannedRows
}

/** See ExecutionPlan.rows. */
export interface PlannedRows {
  records: DecisionRecords
  slotOf: Uint32Array
  inputOf: Uint32Array
  candidates: readonly CandidateOrder[]
}

export const DEFAULT_MAX_BUYS = 1_000

/**
 * The executor's side of a tick: the pure domain policy (src/domain/execution: eligibility, sizing, priority) applied
 * to the project's orders, plus what the policy leaves to execution: the on-chain minimum out of every buy and a
 * journal verdict for every order.
 */
export function planExecution(input: PlanInput): ExecutionPlan {
  return planPrepared(prepareBook(input.candidates, input.policy), input)
}

// What a reused decisions array is grown with (every entry is then written by the plan).
const NO_DECISION: OrderDecision = { keyId: '', slug: '', verdict: 'in_flight' }

// One workspace for every tick: planPrepared consumes the book plan before it returns (JS runs one tick at a time).
const workspace = new TickWorkspace()

/**
 * The per-tick pass over a prepared book: eligibility, sizing, min-out and a verdict for every order. With
 * `decisionsInto`, the decisions are written into that array (its length set to the book's size, every entry written)
 * and it is the plan's `decisions`: the book cache keeps one per project, so a held tick allocates no array of the
 * book's size (an array of 100,000 entries goes straight to V8's large-object space, and one per tick was what brought
 * the mark-compact pauses, docs/execution.md "No array of the book's size per tick").
 */
export function planPrepared(prepared: PreparedBook, input: Omit<PlanInput, 'candidates' | 'policy'>, decisionsInto?: OrderDecision[]): ExecutionPlan {
  const { book, candidates, inputOf, slotOf, records } = prepared
  const quote = input.quote
  const formulaCap = quote ? lowestCap(quote) : input.tick.effectiveCapAtoms === null ? null : BigInt(input.tick.effectiveCapAtoms)
  const plan = planBookTick({
    workspace,
    book,
    balances: prepared.balances,
    reserved: input.reservedByWallet,
    effectiveCap: formulaCap,
    // Both must allow it: a quote simulates the pool's swap only, so gating it cannot see (a DopplerERC20V1 balance
    // limit on the transfer out, a scheduled start the formula knows) stays with the tick's schedule.
    swapsAllowed: input.tick.swapsAllowed && (quote ? quote.swapsAllowed : true),
    launchedAtMs: input.launchedAt,
    nowMs: input.now,
  })
  const n = book.size
  const buyCount = plan.buys.length
  const limit = Math.min(buyCount, input.maxBuys ?? DEFAULT_MAX_BUYS)
  const buys: BuyToSubmit[] = []
  const decisions: OrderDecision[] = decisionsInto ? resizeArray(decisionsInto, n, NO_DECISION) : new Array(n)
  let d = 0
  const { keyId, slug, byCode } = records
  const recordsOf = (code: number): Array<OrderDecision | undefined> => (byCode[code] ??= new Array<OrderDecision | undefined>(keyId.length))

  const expiredCount = plan.expired.length
  const expired: OrderRecord[] = new Array(expiredCount)
  if (expiredCount > 0) {
    const shared = recordsOf(VerdictCode.expired)
    for (let e = 0; e < expiredCount; e++) {
      const p = plan.expired[e]!
      expired[e] = candidates[inputOf[p]!]!.order
      const slot = slotOf[p]!
      decisions[d++] = shared[slot] ??= { keyId: keyId[slot]!, slug: slug[slot]!, verdict: 'expired' }
    }
  }
  d = skipDecisions(plan.verdict, slotOf, records, decisions, d)
  // The planned buys in priority order until `limit` go; with a quote, each is checked against its own spend's bucket
  // first (the pass above used the lowest quoted cap), and a backing-off order waits. Neither takes a rank.
  let next = 0
  for (; next < buyCount && buys.length < limit; next++) {
    const p = plan.buys[next]!
    const candidate = candidates[inputOf[p]!]!
    const spend = spendAt(plan, p)
    const limitFdv = book.limitExact ? book.limitExact[p]! : book.limit[p] === Number.POSITIVE_INFINITY ? null : BigInt(book.limit[p]!)
    const slot = slotOf[p]!
    let capAtoms = formulaCap
    if (quote) {
      const bucket = capForSpend(quote, spend)
      if (!bucket || !withinLimit(limitFdv, bucket.capAtoms)) {
        decisions[d++] = recordsOf(VerdictCode.limit_below_cap)[slot] ??= { keyId: keyId[slot]!, slug: slug[slot]!, verdict: 'limit_below_cap' }
        continue
      }
      capAtoms = bucket.capAtoms
    }
    if (input.holdBack?.(candidate.order.keyId, capAtoms)) {
      decisions[d++] = recordsOf(VerdictCode.backing_off)[slot] ??= { keyId: keyId[slot]!, slug: slug[slot]!, verdict: 'backing_off' }
      continue
    }
    const min = minTokensOut({ spend, limitFdv, totalSupply: input.totalSupply })
    const rank = buys.length
    buys.push({ candidate, spendAtoms: spend, minTokensOut: min, rank, capAtoms })
    decisions[d++] = {
      keyId: candidate.order.keyId,
      slug: candidate.order.slug,
      verdict: 'submitted',
      spendAtoms: spend.toString(),
      minTokensOut: min.toString(),
      rank,
    }
  }
  d = deferredDecisions(plan.buys, next, buys.length - next, slotOf, records, decisions, d)
  // Every position has exactly one verdict, so a reused array is wholly rewritten: nothing of an earlier tick is left.
  if (d !== n) throw new Error(`planPrepared: ${d} decisions for ${n} orders`)
  return { decisions, expired, buys, candidatesInPriority: () => Array.from(inputOf, (i) => candidates[i]!), rows: { records, slotOf, inputOf, candidates } }
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
    if (c === VerdictCode.submitted || c === VerdictCode.expired) continue
    // Neighbours mostly share a verdict: look the code's records up once per run.
    if (c !== code) {
      code = c
      shared = byCode[c] ??= new Array<OrderDecision | undefined>(keyId.length)
    }
    const slot = slotOf[p]!
    let decision = shared[slot]
    if (decision === undefined) {
      decision = { keyId: keyId[slot]!, slug: slug[slot]!, verdict: ORDER_VERDICTS[c]! }
      shared[slot] = decision
    }
    decisions[d++] = decision
  }
  return d
}

/**
 * The deferred buys' records (planned buys from position `from` on, ranked from `from + rankOffset`), from
 * `decisions[d]` on. They carry a rank: one record per slot, its rank rewritten when the order's rank moved.
 */
function deferredDecisions(
  buys: Uint32Array,
  from: number,
  rankOffset: number,
  slotOf: Uint32Array,
  records: DecisionRecords,
  decisions: OrderDecision[],
  d: number,
): number {
  const { keyId, slug, deferred } = records
  for (let i = from; i < buys.length; i++) {
    const rank = i + rankOffset
    const slot = slotOf[buys[i]!]!
    let decision = deferred[slot]
    if (decision === undefined) {
      decision = { keyId: keyId[slot]!, slug: slug[slot]!, verdict: 'deferred', rank }
      deferred[slot] = decision
    } else if (decision.rank !== rank) {
      // Re-ranked in place: a new record per re-ranked order was ~50,000 objects a tick on a book deferring that many,
      // kept until the next tick (promoted: the old-generation garbage of docs/execution.md "No array of the book's
      // size per tick"). A plan's decisions are valid until the project's next plan (ExecutionPlan.decisions), and
      // what keeps a tick's records longer compares keyId and verdict only (sameVerdicts) or has written them (the
      // journal encodes them in store.batch, before the tick returns).
      decision.rank = rank
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
