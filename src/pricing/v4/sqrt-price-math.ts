import { divRoundingUp, MAX_UINT160, MAX_UINT256, mulDiv, mulDivRoundingUp, Q96 } from './full-math.ts'

/**
 * Uniswap v4's SqrtPriceMath (`@uniswap/v4-core` `src/libraries/SqrtPriceMath.sol`) over bigints, with the same
 * rounding directions and the same overflow fallback in getNextSqrtPriceFromAmount0RoundingUp (the contract switches
 * formula when amount x sqrtPrice overflows 256 bits; the results can differ by the rounding, so we switch too).
 */

export function getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (amount === 0n) return sqrtPX96
  const numerator1 = liquidity << 96n
  const product = amount * sqrtPX96
  if (add) {
    if (product <= MAX_UINT256) {
      const denominator = numerator1 + product
      if (denominator <= MAX_UINT256) return mulDivRoundingUp(numerator1, sqrtPX96, denominator)
    }
    return divRoundingUp(numerator1, numerator1 / sqrtPX96 + amount)
  }
  if (product > MAX_UINT256 || numerator1 <= product) throw new RangeError('PriceOverflow')
  const next = mulDivRoundingUp(numerator1, sqrtPX96, numerator1 - product)
  if (next > MAX_UINT160) throw new RangeError('SafeCastOverflow')
  return next
}

export function getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (add) {
    const next = sqrtPX96 + (amount << 96n) / liquidity
    if (next > MAX_UINT160) throw new RangeError('SafeCastOverflow')
    return next
  }
  const quotient = divRoundingUp(amount << 96n, liquidity)
  if (sqrtPX96 <= quotient) throw new RangeError('NotEnoughLiquidity')
  return sqrtPX96 - quotient
}

export function getNextSqrtPriceFromInput(sqrtPX96: bigint, liquidity: bigint, amountIn: bigint, zeroForOne: boolean): bigint {
  if (sqrtPX96 <= 0n || liquidity <= 0n) throw new RangeError('InvalidPriceOrLiquidity')
  return zeroForOne
    ? getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountIn, true)
    : getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountIn, true)
}

/** Currency0 between two sqrt prices for `liquidity`: L x (sqrtB - sqrtA) / (sqrtA x sqrtB), rounded as asked. */
export function getAmount0Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lower, upper] = sqrtA > sqrtB ? [sqrtB, sqrtA] : [sqrtA, sqrtB]
  if (lower <= 0n) throw new RangeError('InvalidPrice')
  const numerator1 = liquidity << 96n
  const numerator2 = upper - lower
  return roundUp ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, upper), lower) : mulDiv(numerator1, numerator2, upper) / lower
}

/** Currency1 between two sqrt prices for `liquidity`: L x |sqrtB - sqrtA| / 2^96, rounded as asked. */
export function getAmount1Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const difference = sqrtA > sqrtB ? sqrtA - sqrtB : sqrtB - sqrtA
  return roundUp ? mulDivRoundingUp(liquidity, difference, Q96) : mulDiv(liquidity, difference, Q96)
}
