import { effectiveMarketCap } from '../../../pricing/effective-market-cap.ts'
import { fdvUsd } from '../../../pricing/fdv.ts'
import { tokenPriceInPaired } from '../../../pricing/sqrt-price.ts'
import type { DemandSlice } from '../../../domain/demand-slices.ts'
import { type DevBuyLaunch, quoteDevBuy } from '../../dev-buy/domain/dev-buy-eligibility.ts'

/** Where a slice of demand meets the launch pool's curve: after the demand ahead of it has bought. */
export interface SliceOnPool {
  /** Funded spend of the slices before it (no limit first, then higher limits): what buys before its turn. */
  demandAhead: bigint
  /** The effective cap (micro-USD, the pool's fees counted) once that demand has bought; null: the pool cannot absorb it. */
  capWhenReached: bigint | null
}

/**
 * Walks the order book's demand up a launch pool (a v4 pool with its positions, as `clankerLaunchPool` builds it), at
 * the fee `launch` names: each slice's turn comes once every slice ahead of it has bought its whole funded spend, and
 * the effective cap then is where it meets the curve (it buys if its limit is at or above it). Pure; the swaps are
 * src/pricing/v4's exact simulation, as the dev buy's plan uses. Each slice ahead is assumed to buy fully; a slice
 * whose limit stops it part-way pushes the price less, so later slices meet a cap at most this high.
 */
export function demandOnPool(launch: DevBuyLaunch, slices: readonly Pick<DemandSlice, 'spend'>[]): SliceOnPool[] {
  const startSpot = fdvUsd({
    tokenPriceInPaired: tokenPriceInPaired(launch.pool.sqrtPriceX96, launch.tokenIsCurrency0),
    pairedUsd: launch.pairedUsd,
    totalSupply: launch.totalSupply,
  })
  const startCap = effectiveMarketCap(startSpot, launch.totalFee)
  let ahead = 0n
  let exhausted = false
  return slices.map((slice) => {
    const demandAhead = ahead
    ahead += slice.spend
    if (exhausted) return { demandAhead, capWhenReached: null }
    if (demandAhead === 0n) return { demandAhead, capWhenReached: startCap }
    const quote = quoteDevBuy(launch, demandAhead)
    if (quote === null) exhausted = true
    return { demandAhead, capWhenReached: quote?.marginalCap ?? null }
  })
}
