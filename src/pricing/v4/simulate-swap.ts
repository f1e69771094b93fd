import { computeExactInputSwapStep } from './swap-step.ts'
import { getSqrtPriceAtTick, getTickAtSqrtPrice, MAX_SQRT_PRICE, MAX_TICK, MIN_SQRT_PRICE, MIN_TICK } from './tick-math.ts'

/** A liquidity position of a v4 pool (tickLower < tickUpper, both multiples of the tick spacing). */
export interface LiquidityPosition {
  tickLower: number
  tickUpper: number
  liquidity: bigint
}

/** What a v4 pool's swap reads: slot0's sqrt price and tick, the tick spacing, the positions in range or not. */
export interface PoolLiquidityState {
  sqrtPriceX96: bigint
  /** slot0's tick: after a swap that stopped on a tick boundary going down it is the boundary minus one, so pass the pool's. */
  tick: number
  tickSpacing: number
  positions: readonly LiquidityPosition[]
}

export interface ExactInputSwapRequest {
  zeroForOne: boolean
  /** What reaches the pool (after any hook took its share of the input first). */
  amountIn: bigint
  /** The LP fee the pool charges on this swap, in pips (the pool's protocol fee is taken to be zero). */
  lpFeePips: number
  /** Stop here even with input left (the router's price limit); the v4 bounds when omitted. */
  sqrtPriceLimitX96?: bigint
}

export interface ExactInputSwapOutcome {
  /** Input taken, LP fee included (less than asked only when the price limit stopped the swap). */
  amountIn: bigint
  amountOut: bigint
  feeAmount: bigint
  sqrtPriceX96: bigint
  tick: number
  /** Active liquidity after the swap (the Swap event's `liquidity`). */
  liquidity: bigint
}

/**
 * An exact-input swap computed the way the v4 PoolManager computes it (`Pool.swap` in `@uniswap/v4-core`
 * `src/libraries/Pool.sol`): step to the next initialized tick or the end of the current 256-tick bitmap word,
 * whichever comes first (`TickBitmap.nextInitializedTickWithinOneWord`), cross ticks by their net liquidity. The steps
 * and their rounding are the chain's, so amounts and the final price are equal to the wei, not approximately:
 * `test/pricing/v4-swap-simulation.test.ts` swaps on a real PoolManager and compares.
 */
export function simulateExactInputSwap(pool: PoolLiquidityState, request: ExactInputSwapRequest): ExactInputSwapOutcome {
  const { zeroForOne } = request
  const limit = request.sqrtPriceLimitX96 ?? (zeroForOne ? MIN_SQRT_PRICE + 1n : MAX_SQRT_PRICE - 1n)
  if (zeroForOne ? limit >= pool.sqrtPriceX96 || limit <= MIN_SQRT_PRICE : limit <= pool.sqrtPriceX96 || limit >= MAX_SQRT_PRICE)
    throw new RangeError('the price limit is on the wrong side of the current price or outside the v4 range')
  if (request.amountIn < 0n) throw new RangeError('amountIn must not be negative')
  const fee = BigInt(request.lpFeePips)
  const ticks = initializedTicks(pool)

  let sqrtPriceX96 = pool.sqrtPriceX96
  let tick = pool.tick
  let liquidity = activeLiquidity(pool)
  let remaining = request.amountIn
  let amountOut = 0n
  let feeAmount = 0n
  while (remaining !== 0n && sqrtPriceX96 !== limit) {
    const start = sqrtPriceX96
    const next = nextInitializedTickWithinOneWord(ticks.compressed, tick, pool.tickSpacing, zeroForOne)
    const tickNext = Math.min(Math.max(next.tick, MIN_TICK), MAX_TICK)
    const sqrtPriceNext = getSqrtPriceAtTick(tickNext)
    const target = zeroForOne ? (sqrtPriceNext < limit ? limit : sqrtPriceNext) : sqrtPriceNext > limit ? limit : sqrtPriceNext
    const step = computeExactInputSwapStep(sqrtPriceX96, target, liquidity, remaining, fee)
    sqrtPriceX96 = step.sqrtPriceNextX96
    remaining -= step.amountIn + step.feeAmount
    amountOut += step.amountOut
    feeAmount += step.feeAmount
    if (sqrtPriceX96 === sqrtPriceNext) {
      if (next.initialized) {
        const net = ticks.liquidityNet.get(tickNext) ?? 0n
        liquidity += zeroForOne ? -net : net
      }
      tick = zeroForOne ? tickNext - 1 : tickNext
    } else if (sqrtPriceX96 !== start) {
      tick = getTickAtSqrtPrice(sqrtPriceX96)
    }
  }
  return { amountIn: request.amountIn - remaining, amountOut, feeAmount, sqrtPriceX96, tick, liquidity }
}

/** The liquidity of the positions whose range holds the current tick (lower inclusive, upper exclusive). */
export const activeLiquidity = (pool: PoolLiquidityState): bigint =>
  pool.positions.reduce((sum, p) => (p.tickLower <= pool.tick && pool.tick < p.tickUpper ? sum + p.liquidity : sum), 0n)

interface TickIndex {
  /** Initialized ticks divided by the spacing, ascending. */
  compressed: number[]
  liquidityNet: Map<number, bigint>
}

function initializedTicks(pool: PoolLiquidityState): TickIndex {
  const liquidityNet = new Map<number, bigint>()
  for (const p of pool.positions) {
    if (p.tickLower >= p.tickUpper || p.tickLower % pool.tickSpacing !== 0 || p.tickUpper % pool.tickSpacing !== 0)
      throw new RangeError(`position [${p.tickLower}, ${p.tickUpper}) does not fit tick spacing ${pool.tickSpacing}`)
    if (p.liquidity <= 0n) continue
    liquidityNet.set(p.tickLower, (liquidityNet.get(p.tickLower) ?? 0n) + p.liquidity)
    liquidityNet.set(p.tickUpper, (liquidityNet.get(p.tickUpper) ?? 0n) - p.liquidity)
  }
  // A tick stays initialized while any position uses it (liquidityGross > 0), even when the net cancels out.
  const compressed = [...liquidityNet.keys()].map((t) => t / pool.tickSpacing).sort((a, b) => a - b)
  return { compressed, liquidityNet }
}

/**
 * TickBitmap.nextInitializedTickWithinOneWord over a sorted list: going down (lte), the greatest initialized tick at
 * or below the current one within its 256-tick word, else the word's first tick; going up, the least initialized tick
 * above the current one within the next tick's word, else that word's last tick.
 */
export function nextInitializedTickWithinOneWord(
  compressedTicks: readonly number[],
  tick: number,
  tickSpacing: number,
  lte: boolean,
): { tick: number; initialized: boolean } {
  let compressed = Math.floor(tick / tickSpacing)
  if (lte) {
    const wordStart = Math.floor(compressed / 256) * 256
    const found = greatestAtOrBelow(compressedTicks, compressed)
    if (found !== undefined && found >= wordStart) return { tick: found * tickSpacing, initialized: true }
    return { tick: wordStart * tickSpacing, initialized: false }
  }
  compressed += 1
  const wordEnd = Math.floor(compressed / 256) * 256 + 255
  const found = leastAtOrAbove(compressedTicks, compressed)
  if (found !== undefined && found <= wordEnd) return { tick: found * tickSpacing, initialized: true }
  return { tick: wordEnd * tickSpacing, initialized: false }
}

function greatestAtOrBelow(sorted: readonly number[], value: number): number | undefined {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (sorted[mid]! <= value) low = mid + 1
    else high = mid
  }
  return low === 0 ? undefined : sorted[low - 1]
}

function leastAtOrAbove(sorted: readonly number[], value: number): number | undefined {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (sorted[mid]! < value) low = mid + 1
    else high = mid
  }
  return sorted[low]
}
