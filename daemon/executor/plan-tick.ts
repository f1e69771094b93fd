import type { Address } from 'viem'
import type { OrderRecord } from '../../src/domain/records.ts'
import { toExecutableOrder, type ExecutableOrder } from '../../src/domain/execution/executable-order.ts'
import { planTick } from '../../src/domain/execution/plan-tick.ts'
import { prioritiseOrders, type PrioritisationPolicy } from '../../src/domain/execution/prioritisation.ts'
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

type Tagged = ExecutableOrder & { candidate: CandidateOrder }

export const DEFAULT_MAX_BUYS = 1_000

const VERDICTS: Record<string, OrderVerdict> = {
  not_active: 'in_flight',
  swaps_not_allowed: 'swaps_not_allowed',
  above_limit: 'limit_below_cap',
  empty_wallet: 'no_balance',
  balance_reserved: 'fully_reserved',
}

/** A project's orders parsed and in priority order: rebuilt only when the order set changes, not on every tick. */
export interface PreparedBook {
  orders: readonly Tagged[]
  balances: ReadonlyMap<string, bigint>
}

export function prepareBook(candidates: readonly CandidateOrder[], policy: PrioritisationPolicy): PreparedBook {
  const tagged: Tagged[] = new Array(candidates.length)
  const balances = new Map<string, bigint>()
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!
    const wallet = candidate.wallet.toLowerCase()
    const order = toExecutableOrder(candidate.order, wallet) as Tagged
    order.candidate = candidate
    tagged[i] = order
    balances.set(wallet, candidate.balanceAtoms)
  }
  return { orders: prioritiseOrders(tagged, policy), balances }
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
export function planPrepared(book: PreparedBook, input: Omit<PlanInput, 'candidates' | 'policy'>): ExecutionPlan {
  const plan = planTick({
    prioritisedOrders: book.orders,
    balances: book.balances,
    reserved: input.reservedByWallet,
    effectiveCap: input.tick.effectiveCapAtoms === null ? null : BigInt(input.tick.effectiveCapAtoms),
    swapsAllowed: input.tick.swapsAllowed,
    launchedAtMs: input.launchedAt,
    nowMs: input.now,
  })
  const limit = Math.min(plan.buys.length, input.maxBuys ?? DEFAULT_MAX_BUYS)
  const buys: PlannedBuy[] = new Array(limit)
  const decisions: OrderDecision[] = []
  for (const o of plan.expired) decisions.push({ keyId: o.candidate.order.keyId, slug: o.candidate.order.slug, verdict: 'expired' })
  for (const s of plan.skipped) {
    decisions.push({ keyId: s.order.candidate.order.keyId, slug: s.order.candidate.order.slug, verdict: VERDICTS[s.reason] ?? 'limit_below_cap' })
  }
  for (let rank = 0; rank < limit; rank++) {
    const buy = plan.buys[rank]!
    const min = minTokensOut({ spend: buy.spend, limitFdv: buy.order.limitFdv, totalSupply: input.totalSupply })
    buys[rank] = { candidate: buy.order.candidate, spendAtoms: buy.spend, minTokensOut: min, rank }
    decisions.push({
      keyId: buy.order.candidate.order.keyId,
      slug: buy.order.candidate.order.slug,
      verdict: 'submitted',
      spendAtoms: buy.spend.toString(),
      minTokensOut: min.toString(),
      rank,
    })
  }
  for (let rank = limit; rank < plan.buys.length; rank++) {
    const order = plan.buys[rank]!.order.candidate.order
    decisions.push({ keyId: order.keyId, slug: order.slug, verdict: 'deferred', rank })
  }
  return { decisions, expired: plan.expired.map((o) => o.candidate.order), buys }
}
