import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { getLiquidityForAmount0 } from '../../../src/pricing/v4/liquidity-amounts.ts'
import { nextInitializedTickWithinOneWord, simulateExactInputSwap } from '../../../src/pricing/v4/simulate-swap.ts'
import { getSqrtPriceAtTick, getTickAtSqrtPrice, MAX_SQRT_PRICE, MAX_TICK, maxUsableTick, MIN_SQRT_PRICE, MIN_TICK } from '../../../src/pricing/v4/tick-math.ts'

/** The v4 math ported to bigints: fixed points from v4-core's own tests, and properties (the chain comparison is test/pricing/). */
describe('TickMath', () => {
  it('has the v4 fixed points: the bounds, tick 0 at 2^96, and v4-core test values', () => {
    expect(getSqrtPriceAtTick(MIN_TICK)).toBe(MIN_SQRT_PRICE)
    expect(getSqrtPriceAtTick(MAX_TICK)).toBe(MAX_SQRT_PRICE)
    expect(getSqrtPriceAtTick(0)).toBe(1n << 96n)
    // v4-core test/libraries/TickMath.t.sol: getSqrtPriceAtTick(MIN_TICK + 1) and (MAX_TICK - 1).
    expect(getSqrtPriceAtTick(MIN_TICK + 1)).toBe(4295343490n)
    expect(getSqrtPriceAtTick(MAX_TICK - 1)).toBe(1461373636630004318706518188784493106690254656249n)
    expect(() => getSqrtPriceAtTick(MAX_TICK + 1)).toThrow(RangeError)
  })

  it('getTickAtSqrtPrice is the greatest tick at or below the price', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_TICK, max: MAX_TICK - 1 }), (tick) => {
        const sqrt = getSqrtPriceAtTick(tick)
        expect(getTickAtSqrtPrice(sqrt)).toBe(tick)
        expect(getTickAtSqrtPrice((sqrt + getSqrtPriceAtTick(tick + 1)) / 2n)).toBe(tick)
      }),
      { numRuns: 200 },
    )
  })
})

describe('nextInitializedTickWithinOneWord', () => {
  const ticks = [-300, -1, 0, 5, 255, 256, 600].sort((a, b) => a - b)
  it.each([
    // tick, lte, expected (tick spacing 1: a word is 256 ticks)
    [10, true, { tick: 5, initialized: true }],
    [4, true, { tick: 0, initialized: true }],
    [-2, true, { tick: -256, initialized: false }],
    [-1, true, { tick: -1, initialized: true }],
    [10, false, { tick: 255, initialized: true }],
    [255, false, { tick: 256, initialized: true }],
    [256, false, { tick: 511, initialized: false }],
    [-300, false, { tick: -257, initialized: false }], // -299 is in the word [-512, -257]: its end, not -1
    [-301, false, { tick: -300, initialized: true }],
  ])('from tick %i (lte %s)', (tick, lte, expected) => {
    expect(nextInitializedTickWithinOneWord(ticks, tick, 1, lte)).toEqual(expected)
  })
  it('compresses by the spacing, rounding negative ticks down', () => {
    // Spacing 60: tick -1 is in compressed -1, whose word starts at compressed -256.
    expect(nextInitializedTickWithinOneWord([], -1, 60, true)).toEqual({ tick: -256 * 60, initialized: false })
    expect(nextInitializedTickWithinOneWord([], -1, 60, false)).toEqual({ tick: 255 * 60, initialized: false })
  })
})

describe('simulateExactInputSwap', () => {
  const spacing = 200
  const start = -200_000
  const supply = 10n ** 29n
  const pool = {
    sqrtPriceX96: getSqrtPriceAtTick(start),
    tick: start,
    tickSpacing: spacing,
    positions: [
      {
        tickLower: start,
        tickUpper: maxUsableTick(spacing),
        liquidity: getLiquidityForAmount0(getSqrtPriceAtTick(start), getSqrtPriceAtTick(maxUsableTick(spacing)), supply),
      },
    ],
  }

  it('buying the token (currency0) with currency1: more in, more out and a higher price; never more than the supply', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 24n }), fc.bigInt({ min: 1n, max: 10n ** 24n }), (a, b) => {
        const [small, large] = a < b ? [a, b] : [b, a]
        const s = simulateExactInputSwap(pool, { zeroForOne: false, amountIn: small, lpFeePips: 10_000 })
        const l = simulateExactInputSwap(pool, { zeroForOne: false, amountIn: large, lpFeePips: 10_000 })
        expect(l.amountOut >= s.amountOut).toBe(true)
        expect(l.sqrtPriceX96 >= s.sqrtPriceX96).toBe(true)
        expect(l.amountOut < supply).toBe(true)
        expect(s.amountIn).toBe(small)
        // The fee is the LP fee of what went in, rounded up: at least 1% and at most 1% + 1 atom of the input, per step.
        expect(s.feeAmount * 100n >= small - 100n).toBe(true)
      }),
      { numRuns: 100 },
    )
  })

  it('selling into a pool with no liquidity below the start moves nothing out and stops at the limit', () => {
    const out = simulateExactInputSwap(pool, { zeroForOne: true, amountIn: 10n ** 18n, lpFeePips: 10_000, sqrtPriceLimitX96: getSqrtPriceAtTick(start - 1000) })
    expect(out.amountOut).toBe(0n)
    expect(out.sqrtPriceX96).toBe(getSqrtPriceAtTick(start - 1000))
    expect(out.amountIn).toBe(0n)
  })

  it('refuses a limit on the wrong side and positions off the spacing', () => {
    expect(() => simulateExactInputSwap(pool, { zeroForOne: false, amountIn: 1n, lpFeePips: 0, sqrtPriceLimitX96: pool.sqrtPriceX96 })).toThrow(RangeError)
    expect(() =>
      simulateExactInputSwap(
        { ...pool, positions: [{ tickLower: start + 1, tickUpper: start + 400, liquidity: 1n }] },
        { zeroForOne: false, amountIn: 1n, lpFeePips: 0 },
      ),
    ).toThrow(/tick spacing/)
  })
})
