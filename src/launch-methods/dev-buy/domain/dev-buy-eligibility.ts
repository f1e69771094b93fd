import { effectiveMarketCap } from '../../../pricing/effective-market-cap.ts'
import { fdvUsd } from '../../../pricing/fdv.ts'
import { ceilOf, fraction, type Fraction } from '../../../pricing/fraction.ts'
import { tokenPriceInPaired } from '../../../pricing/sqrt-price.ts'
import { type PoolLiquidityState, simulateExactInputSwap } from '../../../pricing/v4/simulate-swap.ts'
import { allocateDevBuy, type DevBuyAllocation } from './dev-buy-allocation.ts'

/** An order as a dev buy sees it: what it can spend now (its cap bounded by its wallet's balance) and its FDV limit. */
export interface DevBuyCandidate {
  id: string
  /** Stablecoin atoms this order would contribute: min(max spend, available balance). */
  spend: bigint
  /** Micro-USD FDV limit; null: no limit. */
  limitFdv: bigint | null
}

/** The pool as the deployment leaves it just before the dev buy, and how to price a buy on it. */
export interface DevBuyLaunch {
  pool: PoolLiquidityState
  tokenIsCurrency0: boolean
  /** The LP fee a deployment-time buy pays (MEV modules start after extensions, so never the sniper fee). */
  lpFeePips: number
  /** The part of the paired input a hook takes before the swap (Clanker: clankerProtocolFeeOf); 0 for none. */
  hookInputFee: (pairedIn: bigint) => bigint
  /** Every pool fee on the input, for the effective cap (Clanker: clankerTotalFeeFraction). */
  totalFee: Fraction
  totalSupply: bigint
  /** What the stablecoin buys of the paired asset on its way in (the coordinator's first swap). */
  stableToPaired: (stable: bigint) => bigint
  /** Stablecoin atoms per paired-asset atom, for the FDV. */
  pairedUsd: Fraction
}

export type ExclusionReason =
  /** The buy including this order would move the marginal effective cap above its limit. */
  | 'limit_below_price'
  /** An order after the first one left out: highest limits are taken first, and taking stops there. */
  | 'after_cutoff'
  /** Its wallet has nothing to spend. */
  | 'nothing_to_spend'
  /** The pool's liquidity cannot absorb the buy including it. */
  | 'liquidity_exhausted'

export interface DevBuyQuote {
  stableIn: bigint
  pairedIn: bigint
  tokensOut: bigint
  /** Pool state after the buy: where open-market trading starts. */
  sqrtPriceX96After: bigint
  tickAfter: number
  /** The FDV the buy pays on average (stablecoin in over tokens out, times the supply), micro-USD rounded up. */
  averageFdv: bigint
  /** The effective cap at the buy's last (most expensive) token: every included order's limit is at or above it. */
  marginalCap: bigint | null
}

export interface DevBuyPlan {
  included: DevBuyCandidate[]
  excluded: { id: string; reason: ExclusionReason }[]
  /** Null when no order is included: there is no dev buy to make. */
  quote: DevBuyQuote | null
  allocation: DevBuyAllocation | null
}

/**
 * Which orders one block-zero buy can fill, and at what price: the highest limits first (no limit first of all, then
 * larger spends, then id), each one included while the marginal effective cap of the whole buy including it stays at
 * or below its limit, so no included order pays above its limit even at the buy's last token. The first order that
 * does not fit ends the taking (the rule: "until the marginal price would exceed the next order's limit"):
 * orders after it are not tried with a smaller total, which would let a lower limit jump a higher one. Left-out
 * orders stay active and fall back to open-market rules after launch. Since the marginal cap grows with the total
 * and the limits fall along the order, the fitting orders are a prefix: found by bisection, O(log n) swap simulations.
 */
export function planDevBuy(launch: DevBuyLaunch, candidates: readonly DevBuyCandidate[]): DevBuyPlan {
  const withSpend = candidates.filter((c) => c.spend > 0n)
  const excluded: DevBuyPlan['excluded'] = candidates.filter((c) => c.spend <= 0n).map((c) => ({ id: c.id, reason: 'nothing_to_spend' as const }))
  const ordered = [...withSpend].sort(byPriority)
  const prefix: bigint[] = []
  let running = 0n
  for (const c of ordered) {
    running += c.spend
    prefix.push(running)
  }

  const fits = (k: number): { quote: DevBuyQuote } | { reason: ExclusionReason } => {
    const quote = quoteDevBuy(launch, prefix[k]!)
    if (quote === null) return { reason: 'liquidity_exhausted' }
    const limit = ordered[k]!.limitFdv
    if (limit !== null && (quote.marginalCap === null || quote.marginalCap > limit)) return { reason: 'limit_below_price' }
    return { quote }
  }
  // The largest k that fits, by bisection over a monotone predicate (true for a prefix of k, then false).
  let low = 0
  let high = ordered.length
  let best: DevBuyQuote | null = null
  while (low < high) {
    const mid = (low + high) >> 1
    const result = fits(mid)
    if ('quote' in result) {
      best = result.quote
      low = mid + 1
    } else high = mid
  }
  const included = ordered.slice(0, low)
  if (low < ordered.length) {
    const first = fits(low)
    excluded.push({ id: ordered[low]!.id, reason: 'reason' in first ? first.reason : 'limit_below_price' })
    for (const c of ordered.slice(low + 1)) excluded.push({ id: c.id, reason: 'after_cutoff' })
  }
  if (included.length === 0 || best === null) return { included, excluded, quote: null, allocation: null }
  const allocation = allocateDevBuy(
    best.tokensOut,
    included.map((c) => ({ id: c.id, amount: c.spend })),
  )
  return { included, excluded, quote: best, allocation }
}

/** The single buy of `stableIn` on the launch pool; null when the pool cannot take it all. */
export function quoteDevBuy(launch: DevBuyLaunch, stableIn: bigint): DevBuyQuote | null {
  const pairedIn = launch.stableToPaired(stableIn)
  const poolIn = pairedIn - launch.hookInputFee(pairedIn)
  if (poolIn <= 0n) return null
  const swap = simulateExactInputSwap(launch.pool, { zeroForOne: !launch.tokenIsCurrency0, amountIn: poolIn, lpFeePips: launch.lpFeePips })
  if (swap.amountIn < poolIn || swap.amountOut === 0n) return null
  const spotFdv = fdvUsd({
    tokenPriceInPaired: tokenPriceInPaired(swap.sqrtPriceX96, launch.tokenIsCurrency0),
    pairedUsd: launch.pairedUsd,
    totalSupply: launch.totalSupply,
  })
  return {
    stableIn,
    pairedIn,
    tokensOut: swap.amountOut,
    sqrtPriceX96After: swap.sqrtPriceX96,
    tickAfter: swap.tick,
    averageFdv: ceilOf(fraction(stableIn * launch.totalSupply, swap.amountOut)),
    marginalCap: effectiveMarketCap(spotFdv, launch.totalFee),
  }
}

/** No limit first, then higher limits, larger spends, id: the order in which a dev buy takes orders. */
function byPriority(a: DevBuyCandidate, b: DevBuyCandidate): number {
  if (a.limitFdv !== b.limitFdv) {
    if (a.limitFdv === null) return -1
    if (b.limitFdv === null) return 1
    return a.limitFdv > b.limitFdv ? -1 : 1
  }
  if (a.spend !== b.spend) return a.spend > b.spend ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
