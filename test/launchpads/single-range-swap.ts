/**
 * Exact-input swap output within one liquidity range, with the rounding of v4-core's SwapMath/SqrtPriceMath: the
 * devnet launch pools hold a single position, so a small buy never leaves it and this is what the pool must pay.
 */
const Q96 = 1n << 96n
const PIPS = 1_000_000n

const divUp = (a: bigint, b: bigint): bigint => (a + b - 1n) / b

export function exactInputSingleRange(input: { sqrtPriceX96: bigint; liquidity: bigint; amountIn: bigint; feePips: number; zeroForOne: boolean }): bigint {
  const { sqrtPriceX96: sqrtP, liquidity: L, zeroForOne } = input
  const amount = (input.amountIn * (PIPS - BigInt(input.feePips))) / PIPS
  if (zeroForOne) {
    // getNextSqrtPriceFromAmount0RoundingUp, then getAmount1Delta rounding down
    const numerator1 = L << 96n
    const next = divUp(numerator1 * sqrtP, numerator1 + amount * sqrtP)
    return (L * (sqrtP - next)) / Q96
  }
  // getNextSqrtPriceFromAmount1RoundingDown, then getAmount0Delta rounding down
  const next = sqrtP + (amount << 96n) / L
  return ((L << 96n) * (next - sqrtP)) / next / sqrtP
}
