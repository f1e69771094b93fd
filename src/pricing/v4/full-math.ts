/**
 * The integer arithmetic of Uniswap v4's FullMath / UnsafeMath (`@uniswap/v4-core` `src/libraries/FullMath.sol`,
 * `UnsafeMath.sol`), over bigints: 512-bit intermediates are free here, so only the rounding has to match.
 */
export const Q96 = 1n << 96n
export const MAX_UINT160 = (1n << 160n) - 1n
export const MAX_UINT256 = (1n << 256n) - 1n

export const mulDiv = (a: bigint, b: bigint, denominator: bigint): bigint => (a * b) / denominator

export function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  const product = a * b
  const quotient = product / denominator
  return product % denominator === 0n ? quotient : quotient + 1n
}

export const divRoundingUp = (x: bigint, y: bigint): bigint => (x % y === 0n ? x / y : x / y + 1n)
