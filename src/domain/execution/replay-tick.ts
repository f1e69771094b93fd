import type { Address } from 'viem'
import type { DecisionInputs, LaunchRecord, PriceTick, TickDecision } from './tick-records.ts'
import { computePriceTick } from '../../pricing/price-tick.ts'
import { planExecution } from './executor-plan.ts'
import type { CandidateOrder } from './prepared-book.ts'
import { type PrioritisationPolicy, spendThenLimitPolicy } from './prioritisation.ts'
import type { OrderDecision, OrderVerdict } from './verdicts.ts'

/**
 * `prebuy executions replay`: a recorded tick planned again with today's code. Pricing: the effective cap computed
 * from the tick's recorded pool state and the launch's fee schedule. Planning: today's planner and policy over the
 * recorded inputs and the recorded cap (so a pricing change and a planning change are told apart).
 */

/** How far today's cap may be from the recorded one: the tick stores the paired asset's USD price floored to 1e-18. */
export const CAP_TOLERANCE = 1e-6

export interface ReplayedOrder {
  keyId: string
  recorded: OrderDecision | undefined
  /** Today's decision; undefined when the tick cannot be planned again (no inputs recorded). */
  today: OrderDecision | undefined
  /** Why today's decision differs from the recorded one (null: it does not, or cannot be checked). */
  difference: string | null
}

export interface TickReplay {
  decision: TickDecision
  /** Whether the journal holds the tick's inputs (decisions recorded before they were journaled do not). */
  checkable: boolean
  /** Today's pricing of the recorded pool state (null: not computed: no launch record, or pricing threw). */
  todayTick: Pick<PriceTick, 'effectiveCapAtoms' | 'fdvUsdAtoms' | 'lpFeePips' | 'swapsAllowed'> | null
  /** In the recorded order. */
  orders: ReplayedOrder[]
  /** Where today's pricing of the recorded pool state differs from the recorded tick. */
  pricingDifferences: string[]
  /** Every difference, one line each: policy, pricing, then orders. */
  differences: string[]
}

/**
 * Verdicts the executor gives a planned buy (`submitted` by the planner) after planning: `in_flight` when the order
 * changed under it before submission; a batch exclusion when the block's clearing left it out (that decision is
 * replayed with the batch record, src/console/replay/replay-batch.ts). Neither is a planning regression.
 */
const AFTER_PLANNING: ReadonlySet<OrderVerdict> = new Set(['in_flight', 'limit_below_clearing', 'gas_budget', 'no_spend'])

const sameDecision = (recorded: OrderDecision, today: OrderDecision): string | null => {
  if (recorded.verdict !== today.verdict && !(AFTER_PLANNING.has(recorded.verdict) && today.verdict === 'submitted')) {
    return `verdict ${recorded.verdict}, today ${today.verdict}`
  }
  if (recorded.verdict !== today.verdict) return null
  if ((recorded.rank ?? null) !== (today.rank ?? null)) return `rank ${recorded.rank ?? '-'}, today ${today.rank ?? '-'}`
  if ((recorded.spendAtoms ?? null) !== (today.spendAtoms ?? null)) return `spend ${recorded.spendAtoms ?? '-'}, today ${today.spendAtoms ?? '-'}`
  if ((recorded.minTokensOut ?? null) !== (today.minTokensOut ?? null)) {
    return `minimum out ${recorded.minTokensOut ?? '-'}, today ${today.minTokensOut ?? '-'}`
  }
  return null
}

const candidatesOf = (slug: string, inputs: DecisionInputs): CandidateOrder[] =>
  inputs.orders.map(([keyId, wallet, maxSpendUsdc, maxFdvUsdc, expiresInMs, balanceAtoms, userIndex, createdAt, updatedAt]) => ({
    order: { keyId, slug, status: 'active', maxSpendUsdc, maxFdvUsdc, expiresInMs, createdAt, updatedAt },
    userIndex,
    wallet: wallet as Address,
    balanceAtoms: BigInt(balanceAtoms),
  }))

function repriced(tick: PriceTick, launch: LaunchRecord): TickReplay['todayTick'] {
  try {
    const again = computePriceTick({
      launch,
      reason: tick.reason,
      pool: { sqrtPriceX96: BigInt(tick.sqrtPriceX96), liquidity: BigInt(tick.liquidity) },
      pairedUsd: { numerator: BigInt(tick.pairedUsdAtoms), denominator: 10n ** 18n },
      // The block "after" which the recorded next block comes: same number, with the next block's timestamp and no gap.
      block: { number: BigInt(tick.blockNumber), hash: tick.blockHash, timestamp: BigInt(tick.nextBlockTimestamp) },
      logIndex: tick.logIndex,
      blockTimeSeconds: 0,
      at: tick.at,
    })
    return { effectiveCapAtoms: again.effectiveCapAtoms, fdvUsdAtoms: again.fdvUsdAtoms, lpFeePips: again.lpFeePips, swapsAllowed: again.swapsAllowed }
  } catch {
    return null
  }
}

const relativeGap = (a: string, b: string): number => {
  const x = Number(a)
  const y = Number(b)
  return Math.abs(x - y) / Math.max(1, Math.abs(x), Math.abs(y))
}

function pricingDifferences(recorded: PriceTick, today: NonNullable<TickReplay['todayTick']>): string[] {
  const out: string[] = []
  if (recorded.swapsAllowed !== today.swapsAllowed) out.push(`swaps allowed ${recorded.swapsAllowed}, today ${today.swapsAllowed}`)
  if (recorded.lpFeePips !== today.lpFeePips) out.push(`LP fee ${recorded.lpFeePips} pips, today ${today.lpFeePips}`)
  const capRecorded = recorded.effectiveCapAtoms
  const capToday = today.effectiveCapAtoms
  if ((capRecorded === null) !== (capToday === null) || (capRecorded !== null && capToday !== null && relativeGap(capRecorded, capToday) > CAP_TOLERANCE)) {
    out.push(`effective cap ${capRecorded ?? '∞'} atoms, today ${capToday ?? '∞'}`)
  }
  return out
}

/** One recorded tick decided again with today's code (`policy` defaults to today's). */
export function replayTick(decision: TickDecision, launch: LaunchRecord | undefined, policy: PrioritisationPolicy = spendThenLimitPolicy): TickReplay {
  const todayTick = launch ? repriced(decision.tick, launch) : null
  const pricing = todayTick ? pricingDifferences(decision.tick, todayTick) : []
  const differences = [...pricing]
  const inputs = decision.inputs
  if (!inputs) {
    const orders = decision.orders.map((d) => ({ keyId: d.keyId, recorded: d, today: undefined, difference: null }))
    return { decision, checkable: false, todayTick, orders, pricingDifferences: pricing, differences }
  }
  const heldBack = new Set(inputs.heldBack ?? [])
  const plan = planExecution({
    tick: decision.tick,
    launchedAt: inputs.launchedAt,
    now: inputs.now,
    totalSupply: BigInt(inputs.totalSupply),
    candidates: candidatesOf(decision.slug, inputs),
    reservedByWallet: new Map(inputs.reserved.map(([wallet, atoms]) => [wallet, BigInt(atoms)])),
    policy,
    maxBuys: inputs.maxBuys,
    // The recorded quotes decide again as they did (a quote is chain state at the tick, not recomputable offline).
    ...(inputs.quote
      ? {
          quote: {
            swapsAllowed: inputs.quote.swapsAllowed,
            buckets: inputs.quote.buckets.map(([spend, cap]) => ({ spendAtoms: BigInt(spend), capAtoms: cap === null ? null : BigInt(cap) })),
          },
        }
      : {}),
    ...(inputs.heldBack ? { holdBack: (keyId: string) => heldBack.has(keyId) } : {}),
  })
  const todayOf = new Map(plan.decisions.map((d) => [d.keyId, d]))
  const recordedOf = new Map(decision.orders.map((d) => [d.keyId, d]))
  const keyIds = [...decision.orders.map((d) => d.keyId), ...plan.decisions.map((d) => d.keyId).filter((k) => !recordedOf.has(k))]
  const orders = keyIds.map((keyId): ReplayedOrder => {
    const recorded = recordedOf.get(keyId)
    const today = todayOf.get(keyId)
    const difference = !recorded ? 'not in the recorded decision' : !today ? 'not decided today' : sameDecision(recorded, today)
    return { keyId, recorded, today, difference }
  })
  for (const o of orders) if (o.difference) differences.push(`order ${o.keyId}: ${o.difference}`)
  if (decision.policy !== policy.name) differences.unshift(`policy ${decision.policy}, today ${policy.name}`)
  return { decision, checkable: true, todayTick, orders, pricingDifferences: pricing, differences }
}
