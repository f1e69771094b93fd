import type { ExecutableOrder } from './executable-order.ts'

export type IneligibleReason = 'not_active' | 'expired' | 'swaps_not_allowed' | 'above_limit' | 'empty_wallet'

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
const NOT_ACTIVE: Eligibility = { eligible: false, reason: 'not_active' }
const EXPIRED: Eligibility = { eligible: false, reason: 'expired' }
const SWAPS_NOT_ALLOWED: Eligibility = { eligible: false, reason: 'swaps_not_allowed' }
const ABOVE_LIMIT: Eligibility = { eligible: false, reason: 'above_limit' }
const EMPTY_WALLET: Eligibility = { eligible: false, reason: 'empty_wallet' }

/**
 * Whether an order may be bought now (`balance`: the wallet's spend-currency balance on the project's chain).
 * Checked in this order so the recorded reason is the most durable one: status, expiry, pool state, limit, funds.
 * Allocation-free: it runs for every order on every tick.
 */
export function checkEligibility(order: ExecutableOrder, ctx: EligibilityContext, balance: bigint): Eligibility {
  const terms = checkOrderTerms(order, ctx)
  if (!terms.eligible) return terms
  return balance > 0n ? ELIGIBLE : EMPTY_WALLET
}

/**
 * Every check but the wallet's funds: planTick runs it first so orders that fail it never cost a balance lookup
 * (early in a launch, when the sniper fee is high, that is most of them).
 */
export function checkOrderTerms(order: ExecutableOrder, ctx: EligibilityContext): Eligibility {
  if (order.status !== 'active') return NOT_ACTIVE
  if (ctx.launchedAtMs !== null && ctx.nowMs >= ctx.launchedAtMs + order.expiresInMs) return EXPIRED
  if (!ctx.swapsAllowed) return SWAPS_NOT_ALLOWED
  if (!withinLimit(order.limitFdv, ctx.effectiveCap)) return ABOVE_LIMIT
  return ELIGIBLE
}

/** limit >= effective cap; no limit always passes; an infinite cap fails every finite limit. */
export const withinLimit = (limitFdv: bigint | null, effectiveCap: bigint | null): boolean =>
  limitFdv === null || (effectiveCap !== null && limitFdv >= effectiveCap)
