import { floorOf, fraction, multiply, type Fraction } from './fraction.ts'

export interface FdvInput {
  /** Wei per smallest token unit (tokenPriceInWeth). */
  tokenPriceInWeth: Fraction
  /** Stablecoin smallest units per wei (ethUsdFromV3Slot0). */
  ethUsd: Fraction
  /** Total supply in smallest token units. */
  totalSupply: bigint
}

/**
 * Fully diluted value in stablecoin smallest units (micro-USD for a 6-decimal stablecoin), exact:
 * supply x token price in WETH x ETH/USD. Decimals cancel because every factor is in raw units.
 */
export const fdvUsd = (input: FdvInput): Fraction => multiply(multiply(fraction(input.totalSupply), input.tokenPriceInWeth), input.ethUsd)

/** fdvUsd rounded down to whole stablecoin units. */
export const fdvUsdAtomic = (input: FdvInput): bigint => floorOf(fdvUsd(input))
