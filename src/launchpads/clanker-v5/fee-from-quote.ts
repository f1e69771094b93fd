import { Q96 } from '../../pricing/v4/full-math.ts'
import { computeExactInputSwapStep } from '../../pricing/v4/swap-step.ts'
import { MAX_SQRT_PRICE, MIN_SQRT_PRICE } from '../../pricing/v4/tick-math.ts'

/** A pool's price and in-range liquidity (slot0 and liquidity, as StateView or extsload read them). */
export interface PoolPoint {
  sqrtPriceX96: bigint
  liquidity: bigint
}

const PIPS = 1_000_000n

/**
 * An exact-input amount small enough to stay within the pool's current range: it moves the square-root price by about
 * one millionth (a tick moves it by 1/20,000), so the single-range swap maths is exact for it. Zero when the pool has no
 * liquidity in range.
 */
export function probeAmount(pool: PoolPoint, zeroForOne: boolean): bigint {
  if (pool.liquidity === 0n || pool.sqrtPriceX96 === 0n) return 0n
  return zeroForOne ? (pool.liquidity * Q96) / pool.sqrtPriceX96 / 1_000_000n : (pool.liquidity * pool.sqrtPriceX96) / Q96 / 1_000_000n
}

/** What a pool with no fee at all pays out for `amountIn` within its current range. */
export function feelessAmountOut(pool: PoolPoint, zeroForOne: boolean, amountIn: bigint): bigint {
  const target = zeroForOne ? MIN_SQRT_PRICE + 1n : MAX_SQRT_PRICE - 1n
  return computeExactInputSwapStep(pool.sqrtPriceX96, target, pool.liquidity, amountIn, 0n).amountOut
}

/**
 * The total fee, pips, a quoted exact-input swap paid, whatever took it (a hook's tax on the input or the output, an LP
 * fee): the smallest fee f such that a feeless pool, swapping the input less f (floored, as a hook rounds what it
 * takes), pays out no more than the quote did. Rounded so the fee is never underestimated (a buy priced with it never
 * receives fewer tokens than priced). Exact for a swap within the current range (probeAmount); the output must be large
 * (the probe of a funded pool is) for pip precision.
 */
export function feePipsFromQuote(pool: PoolPoint, zeroForOne: boolean, amountIn: bigint, amountOut: bigint): number {
  const outAt = (pips: bigint) => feelessAmountOut(pool, zeroForOne, amountIn - (amountIn * pips) / PIPS)
  if (outAt(0n) <= amountOut) return 0
  let low = 0n
  let high = PIPS
  // Invariant: outAt(low) > amountOut >= outAt(high) (outAt(1e6) = 0).
  while (high - low > 1n) {
    const mid = (low + high) / 2n
    if (outAt(mid) <= amountOut) high = mid
    else low = mid
  }
  return Number(high)
}
