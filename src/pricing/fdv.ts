import { floorOf, fraction, multiply, type Fraction } from './fraction.ts'

export interface FdvInput {
  /** Smallest units of the paired asset per smallest token unit (tokenPriceInPaired). */
  tokenPriceInPaired: Fraction
  /** Stablecoin smallest units per smallest unit of the paired asset (for WETH or ETH: ethUsdFromV3Slot0). */
  pairedUsd: Fraction
  /** Total supply in smallest token units. */
  totalSupply: bigint
}

/**
 * Fully diluted value in stablecoin smallest units (micro-USD for a 6-decimal stablecoin), exact:
 * supply x token price in the paired asset x the paired asset's USD price. Decimals cancel because every factor is in raw
 * units.
 */
export const fdvUsd = (input: FdvInput): Fraction => multiply(multiply(fraction(input.totalSupply), input.tokenPriceInPaired), input.pairedUsd)

/** fdvUsd rounded down to whole stablecoin units. */
export const fdvUsdAtomic = (input: FdvInput): bigint => floorOf(fdvUsd(input))
