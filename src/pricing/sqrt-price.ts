import { fraction, invert, multiply, type Fraction } from './fraction.ts'

const Q192 = 1n << 192n

/**
 * Raw price of currency0 in currency1 (smallest units of currency1 per smallest unit of currency0) from a v3/v4
 * sqrtPriceX96: (sqrtPriceX96 / 2^96)^2, exact.
 */
export function priceFromSqrtPriceX96(sqrtPriceX96: bigint): Fraction {
  if (sqrtPriceX96 <= 0n) throw new RangeError('sqrtPriceX96 must be positive')
  return fraction(sqrtPriceX96 * sqrtPriceX96, Q192)
}

/** Human price of one whole currency0 in whole currency1: raw price x 10^(decimals0 - decimals1). */
export function humanPriceFromSqrtPriceX96(sqrtPriceX96: bigint, decimals0: number, decimals1: number): Fraction {
  const raw = priceFromSqrtPriceX96(sqrtPriceX96)
  const diff = decimals0 - decimals1
  return diff >= 0 ? multiply(raw, fraction(10n ** BigInt(diff))) : multiply(raw, fraction(1n, 10n ** BigInt(-diff)))
}

/**
 * Raw price of `base` in the pool's other currency, whichever side it sits on: the price of currency0 when base is
 * currency0, its inverse otherwise.
 */
export function rawPriceOf(sqrtPriceX96: bigint, baseIsCurrency0: boolean): Fraction {
  const price = priceFromSqrtPriceX96(sqrtPriceX96)
  return baseIsCurrency0 ? price : invert(price)
}

/** Stablecoin smallest units per wei, from the v3 WETH/stablecoin pool's slot0 (token0 is WETH on Base; either works). */
export const ethUsdFromV3Slot0 = (sqrtPriceX96: bigint, wethIsToken0: boolean): Fraction => rawPriceOf(sqrtPriceX96, wethIsToken0)

/** Smallest units of the paired asset (wei for WETH or ETH) per smallest token unit, from the token's v4 pool. */
export const tokenPriceInPaired = (sqrtPriceX96: bigint, tokenIsCurrency0: boolean): Fraction => rawPriceOf(sqrtPriceX96, tokenIsCurrency0)
