/**
 * Uniswap v4's TickMath (`@uniswap/v4-core` `src/libraries/TickMath.sol`) over bigints, bit for bit: the same Q128
 * multipliers per bit of |tick|, the same rounding up of the Q128.128 ratio to Q64.96. Prices computed here equal the
 * pool's, which `simulateExactInputSwap` relies on to land on the same sqrt price as the chain.
 */
export const MIN_TICK = -887272
export const MAX_TICK = 887272
export const MIN_SQRT_PRICE = 4295128739n
export const MAX_SQRT_PRICE = 1461446703485210103287273052203988822378723970342n

/** Ratio multipliers for bits 1..19 of |tick| (bit 0 picks the starting value). */
const BIT_MULTIPLIERS: readonly bigint[] = [
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
]
const MAX_UINT256 = (1n << 256n) - 1n

export function getSqrtPriceAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) throw new RangeError(`tick ${tick} is outside [${MIN_TICK}, ${MAX_TICK}]`)
  const absTick = Math.abs(tick)
  let price = absTick & 1 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 1n << 128n
  for (let bit = 1; bit < 20; bit++) {
    if (absTick & (1 << bit)) price = (price * BIT_MULTIPLIERS[bit - 1]!) >> 128n
  }
  if (tick > 0) price = MAX_UINT256 / price
  // Q128.128 to Q64.96, rounded up.
  return (price + (1n << 32n) - 1n) >> 32n
}

/**
 * The greatest tick whose sqrt price is at most `sqrtPriceX96` (what TickMath.getTickAtSqrtPrice returns for a price in
 * [MIN_SQRT_PRICE, MAX_SQRT_PRICE)), found by bisection over getSqrtPriceAtTick: slower than the log2 bit trick but
 * the same answer by definition, which is all a swap simulation needs.
 */
export function getTickAtSqrtPrice(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_PRICE || sqrtPriceX96 >= MAX_SQRT_PRICE) throw new RangeError(`sqrt price ${sqrtPriceX96} is outside the v4 range`)
  let low = MIN_TICK
  let high = MAX_TICK
  while (low < high) {
    const mid = Math.floor((low + high + 1) / 2)
    if (getSqrtPriceAtTick(mid) <= sqrtPriceX96) low = mid
    else high = mid - 1
  }
  return low
}

export const minUsableTick = (tickSpacing: number): number => Math.trunc(MIN_TICK / tickSpacing) * tickSpacing
export const maxUsableTick = (tickSpacing: number): number => Math.trunc(MAX_TICK / tickSpacing) * tickSpacing
