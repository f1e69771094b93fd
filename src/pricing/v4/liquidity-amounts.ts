import { mulDiv, Q96 } from './full-math.ts'

/**
 * The liquidity a single-sided deposit buys (`LiquidityAmounts.getLiquidityForAmount0/1` of `@uniswap/v4-periphery`
 * `src/libraries/LiquidityAmounts.sol`, rounded down like it): what a launchpad that places the whole supply above (or
 * below) the starting price creates, so a launch's positions can be known before it is deployed.
 */
export function getLiquidityForAmount0(sqrtA: bigint, sqrtB: bigint, amount0: bigint): bigint {
  const [lower, upper] = sqrtA > sqrtB ? [sqrtB, sqrtA] : [sqrtA, sqrtB]
  return mulDiv(amount0, mulDiv(lower, upper, Q96), upper - lower)
}

export function getLiquidityForAmount1(sqrtA: bigint, sqrtB: bigint, amount1: bigint): bigint {
  const [lower, upper] = sqrtA > sqrtB ? [sqrtB, sqrtA] : [sqrtA, sqrtB]
  return mulDiv(amount1, Q96, upper - lower)
}
