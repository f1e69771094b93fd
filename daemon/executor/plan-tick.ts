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

const VERDICTS: Record<string, OrderVerdict> = {
  not_active: 'in_flight',
  swaps_not_allowed: 'swaps_not_allowed',
  above_limit: 'limit_below_cap',
  empty_wallet: 'no_balance',
  balance_reserved: 'fully_reserved',
}

/**
 * The executor's side of a tick: the pure domain policy (src/domain/execution: eligibility, sizing, priority) applied
 * to the project's orders, plus what the policy leaves to execution: the on-chain minimum out of every buy and a
 * journal verdict for every order.
 */
export function planExecution(input: PlanInput): ExecutionPlan {
  const tagged: Tagged[] = input.candidates.map((candidate) => ({
    ...toExecutableOrder(candidate.order, candidate.wallet.toLowerCase()),
    candidate,
  }))
  const balances = new Map(input.candidates.map((c) => [c.wallet.toLowerCase(), c.balanceAtoms]))
  const plan = planTick({
    prioritisedOrders: prioritiseOrders(tagged, input.policy),
    balances,
    reserved: input.reservedByWallet,
    effectiveCap: input.tick.effectiveCapAtoms === null ? null : BigInt(input.tick.effectiveCapAtoms),
    swapsAllowed: input.tick.swapsAllowed,
    launchedAtMs: input.launchedAt,
    nowMs: input.now,
  })
  const buys: PlannedBuy[] = plan.buys.map((buy, rank) => ({
    candidate: buy.order.candidate,
    spendAtoms: buy.spend,
    minTokensOut: minTokensOut({ spend: buy.spend, limitFdv: buy.order.limitFdv, totalSupply: input.totalSupply }),
    rank,
  }))
  const decisions: OrderDecision[] = [
    ...plan.expired.map((o) => ({ keyId: o.candidate.order.keyId, slug: o.candidate.order.slug, verdict: 'expired' as const })),
    ...plan.skipped.map((s) => ({
      keyId: s.order.candidate.order.keyId,
      slug: s.order.candidate.order.slug,
      verdict: VERDICTS[s.reason] ?? 'limit_below_cap',
    })),
    ...buys.map((b) => ({
      keyId: b.candidate.order.keyId,
      slug: b.candidate.order.slug,
      verdict: 'submitted' as const,
      spendAtoms: b.spendAtoms.toString(),
      minTokensOut: b.minTokensOut.toString(),
      rank: b.rank,
    })),
  ]
  return { decisions, expired: plan.expired.map((o) => o.candidate.order), buys }
}
