import { mulDiv, mulDivRoundingUp } from './full-math.ts'
import { getAmount0Delta, getAmount1Delta, getNextSqrtPriceFromInput } from './sqrt-price-math.ts'

export const MAX_SWAP_FEE = 1_000_000n

export interface SwapStep {
  sqrtPriceNextX96: bigint
  amountIn: bigint
  amountOut: bigint
  feeAmount: bigint
}

/**
 * One exact-input step of a v4 swap within a range of constant liquidity (`SwapMath.computeSwapStep` of
 * `@uniswap/v4-core`, the `amountRemaining < 0` branch): either the step reaches `sqrtPriceTargetX96` and the fee is
 * charged on what it took, or it spends everything left and the remainder beyond the input is the fee.
 */
export function computeExactInputSwapStep(
  sqrtPriceCurrentX96: bigint,
  sqrtPriceTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: bigint,
): SwapStep {
  const zeroForOne = sqrtPriceCurrentX96 >= sqrtPriceTargetX96
  const amountRemainingLessFee = mulDiv(amountRemaining, MAX_SWAP_FEE - feePips, MAX_SWAP_FEE)
  let amountIn = zeroForOne
    ? getAmount0Delta(sqrtPriceTargetX96, sqrtPriceCurrentX96, liquidity, true)
    : getAmount1Delta(sqrtPriceCurrentX96, sqrtPriceTargetX96, liquidity, true)
  let sqrtPriceNextX96: bigint
  let feeAmount: bigint
  if (amountRemainingLessFee >= amountIn) {
    sqrtPriceNextX96 = sqrtPriceTargetX96
    feeAmount = feePips === MAX_SWAP_FEE ? amountIn : mulDivRoundingUp(amountIn, feePips, MAX_SWAP_FEE - feePips)
  } else {
    amountIn = amountRemainingLessFee
    sqrtPriceNextX96 = getNextSqrtPriceFromInput(sqrtPriceCurrentX96, liquidity, amountRemainingLessFee, zeroForOne)
    feeAmount = amountRemaining - amountIn
  }
  const amountOut = zeroForOne
    ? getAmount1Delta(sqrtPriceNextX96, sqrtPriceCurrentX96, liquidity, false)
    : getAmount0Delta(sqrtPriceCurrentX96, sqrtPriceNextX96, liquidity, false)
  return { sqrtPriceNextX96, amountIn, amountOut, feeAmount }
}
