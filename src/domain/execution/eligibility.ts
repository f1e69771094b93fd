import type { ExecutableOrder } from './executable-order.ts'
import type { OrderVerdict } from './verdicts.ts'

/** Why an order may not buy now, in the journal's words (see verdicts.ts). */
export type IneligibleReason = Extract<OrderVerdict, 'in_flight' | 'expired' | 'swaps_not_allowed' | 'limit_below_cap' | 'no_balance'>

export type Eligibility = { eligible: true } | { eligible: false; reason: IneligibleReason }

export interface EligibilityContext {
  /** Effective market cap for the next block, smallest stablecoin units; null: infinite (fee >= 100%). */
  effectiveCap: bigint | null
  /** Whether a swap landing in the next block is allowed by the pool at all. */
  swapsAllowed: boolean
  launchedAtMs: number | null
  nowMs: number
}

const ELIGIBLE: Eligibility = { eligible: true }
// Any status but `active` (executing, filled, expired, failed, deleted): the journal's `in_flight` (see verdicts.ts).
const IN_FLIGHT: Eligibility = { eligible: false, reason: 'in_flight' }
const EXPIRED: Eligibility = { eligible: false, reason: 'expired' }
const SWAPS_NOT_ALLOWED: Eligibility = { eligible: false, reason: 'swaps_not_allowed' }
const LIMIT_BELOW_CAP: Eligibility = { eligible: false, reason: 'limit_below_cap' }
const NO_BALANCE: Eligibility = { eligible: false, reason: 'no_balance' }

/**
 * Whether an order may be bought now (`balance`: the wallet's spend-currency balance on the project's chain).
 * Checked in this order so the recorded reason is the most durable one: status, expiry, pool state, limit, funds.
 * Allocation-free: it runs for every order on every tick.
 */
export function checkEligibility(order: ExecutableOrder, ctx: EligibilityContext, balance: bigint): Eligibility {
  const terms = checkOrderTerms(order, ctx)
  if (!terms.eligible) return terms
  return balance > 0n ? ELIGIBLE : NO_BALANCE
}

/**
 * Every check but the wallet's funds: planTick runs it first so orders that fail it never cost a balance lookup
 * (early in a launch, when the sniper fee is high, that is most of them).
 */
export function checkOrderTerms(order: ExecutableOrder, ctx: EligibilityContext): Eligibility {
  if (order.status !== 'active') return IN_FLIGHT
  if (ctx.launchedAtMs !== null && ctx.nowMs >= ctx.launchedAtMs + order.expiresInMs) return EXPIRED
  if (!ctx.swapsAllowed) return SWAPS_NOT_ALLOWED
  if (!withinLimit(order.limitFdv, ctx.effectiveCap)) return LIMIT_BELOW_CAP
  return ELIGIBLE
}

/** limit >= effective cap; no limit always passes; an infinite cap fails every finite limit. */
export const withinLimit = (limitFdv: bigint | null, effectiveCap: bigint | null): boolean =>
  limitFdv === null || (effectiveCap !== null && limitFdv >= effectiveCap)
