import type { Address } from 'viem'
import { parseDecimal } from '../../src/domain/decimal.ts'
import { FDV_DECIMALS, USDC_DECIMALS } from '../../src/domain/order-bounds.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import type { OrderDecision, PriceTick } from '../../src/journal/journal-records.ts'
import { minTokensOut } from '../../src/pricing/min-tokens-out.ts'
import { prioritiseOrders, type PrioritisationPolicy } from './prioritise-orders.ts'

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
  /** Launch time and chain time of the tick's block, epoch ms: expiry counts from launch, in chain time. */
  launchedAt: number
  now: number
  totalSupply: bigint
  candidates: readonly CandidateOrder[]
  /** Stablecoin atoms each wallet has committed to other in-flight orders (other launches), by lower-cased address. */
  reservedByWallet: ReadonlyMap<string, bigint>
  policy: PrioritisationPolicy
}

export interface PlannedBuy {
  candidate: CandidateOrder
  spendAtoms: bigint
  minTokensOut: bigint
  rank: number
}

export interface TickPlan {
  decisions: OrderDecision[]
  expired: OrderRecord[]
  buys: PlannedBuy[]
}

/** Orders past their expiry after launch; before launch nothing expires. */
export const isExpired = (order: OrderRecord, launchedAt: number, now: number): boolean => now > launchedAt + order.expiresInMs

export const limitAtomsOf = (order: OrderRecord): bigint | null =>
  order.maxFdvUsdc === null ? null : (parseDecimal(order.maxFdvUsdc, FDV_DECIMALS) ?? 0n)

/** Eligibility: no limit, or limit >= effective cap. An infinite cap (fee >= 100%) admits only unlimited orders. */
export function limitAdmits(limitAtoms: bigint | null, effectiveCapAtoms: bigint | null): boolean {
  if (limitAtoms === null) return true
  if (effectiveCapAtoms === null) return false
  return limitAtoms >= effectiveCapAtoms
}

/** Spend = min(maxSpend, balance not reserved by another in-flight order of the same wallet). */
export function sizeSpend(maxSpendAtoms: bigint, balanceAtoms: bigint, reservedAtoms: bigint): bigint {
  const free = balanceAtoms - reservedAtoms
  if (free <= 0n) return 0n
  return maxSpendAtoms < free ? maxSpendAtoms : free
}

/**
 * A tick's decision for every active order of one project: pure, so the journal can replay it and the benchmark can time
 * it. Expired orders leave; ineligible ones get a verdict; eligible ones are sized and ranked by the policy.
 */
export function planTick(input: PlanInput): TickPlan {
  const decisions: OrderDecision[] = []
  const expired: OrderRecord[] = []
  const eligible: Array<Omit<PlannedBuy, 'rank'> & { limitAtoms: bigint | null; createdAt: number; keyId: string }> = []
  const capAtoms = input.tick.effectiveCapAtoms === null ? null : BigInt(input.tick.effectiveCapAtoms)
  for (const candidate of input.candidates) {
    const { order } = candidate
    const base = { keyId: order.keyId, slug: order.slug }
    if (isExpired(order, input.launchedAt, input.now)) {
      expired.push(order)
      decisions.push({ ...base, verdict: 'expired' })
      continue
    }
    if (!input.tick.swapsAllowed) {
      decisions.push({ ...base, verdict: 'swaps_not_allowed' })
      continue
    }
    const limitAtoms = limitAtomsOf(order)
    if (!limitAdmits(limitAtoms, capAtoms)) {
      decisions.push({ ...base, verdict: 'limit_below_cap' })
      continue
    }
    if (candidate.balanceAtoms <= 0n) {
      decisions.push({ ...base, verdict: 'no_balance' })
      continue
    }
    const reserved = input.reservedByWallet.get(candidate.wallet.toLowerCase()) ?? 0n
    const spendAtoms = sizeSpend(parseDecimal(order.maxSpendUsdc, USDC_DECIMALS) ?? 0n, candidate.balanceAtoms, reserved)
    if (spendAtoms <= 0n) {
      decisions.push({ ...base, verdict: 'fully_reserved' })
      continue
    }
    const minOut = minTokensOut({ spend: spendAtoms, limitFdv: limitAtoms, totalSupply: input.totalSupply })
    eligible.push({ candidate, spendAtoms, minTokensOut: minOut, limitAtoms, createdAt: order.createdAt, keyId: order.keyId })
  }
  const ranked = prioritiseOrders(eligible, input.policy)
  const buys = ranked.map((e, rank) => ({ candidate: e.candidate, spendAtoms: e.spendAtoms, minTokensOut: e.minTokensOut, rank }))
  for (const buy of buys) {
    decisions.push({
      keyId: buy.candidate.order.keyId,
      slug: buy.candidate.order.slug,
      verdict: 'submitted',
      spendAtoms: buy.spendAtoms.toString(),
      minTokensOut: buy.minTokensOut.toString(),
      rank: buy.rank,
    })
  }
  return { decisions, expired, buys }
}
