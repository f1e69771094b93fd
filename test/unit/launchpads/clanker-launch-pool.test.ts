import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clankerLaunchPool } from '../../../src/launchpads/clanker/clanker-launch-pool.ts'
import { getLiquidityForAmount0 } from '../../../src/pricing/v4/liquidity-amounts.ts'
import { simulateExactInputSwap } from '../../../src/pricing/v4/simulate-swap.ts'
import { getSqrtPriceAtTick } from '../../../src/pricing/v4/tick-math.ts'

/** The pool a Clanker v4 deployment creates from its locker config (clanker-devco/v4-contracts, ClankerLpLockerFeeConversion). */
describe('clankerLaunchPool', () => {
  const supply = 100_000_000_000n * 10n ** 18n
  const config = {
    tickIfToken0IsClanker: -230_400,
    tickSpacing: 200,
    positions: [
      { tickLower: -230_400, tickUpper: -216_000, bps: 4_000 },
      { tickLower: -216_000, tickUpper: -155_000, bps: 5_000 },
      { tickLower: -202_000, tickUpper: -120_000, bps: 1_000 },
    ],
    poolSupply: supply,
    tokenIsCurrency0: true,
  }

  it('splits the pool supply by basis points, one single-sided position each, from the starting price', () => {
    const pool = clankerLaunchPool(config)
    expect(pool.tick).toBe(-230_400)
    expect(pool.sqrtPriceX96).toBe(getSqrtPriceAtTick(-230_400))
    expect(pool.positions).toEqual(
      config.positions.map((p) => ({
        tickLower: p.tickLower,
        tickUpper: p.tickUpper,
        liquidity: getLiquidityForAmount0(getSqrtPriceAtTick(p.tickLower), getSqrtPriceAtTick(p.tickUpper), (supply * BigInt(p.bps)) / 10_000n),
      })),
    )
  })

  it('mirrors ticks when the token sorts after its paired token: the same buy gets the same tokens within rounding', () => {
    const as0 = clankerLaunchPool(config)
    const as1 = clankerLaunchPool({ ...config, tokenIsCurrency0: false })
    expect(as1.tick).toBe(230_400)
    expect(as1.positions.map((p) => [p.tickLower, p.tickUpper])).toEqual(config.positions.map((p) => [-p.tickUpper, -p.tickLower]))
    fc.assert(
      fc.property(fc.bigInt({ min: 10n ** 12n, max: 10n ** 22n }), (wei) => {
        const buy0 = simulateExactInputSwap(as0, { zeroForOne: false, amountIn: wei, lpFeePips: 10_000 }).amountOut
        const buy1 = simulateExactInputSwap(as1, { zeroForOne: true, amountIn: wei, lpFeePips: 10_000 }).amountOut
        const difference = buy0 > buy1 ? buy0 - buy1 : buy1 - buy0
        expect(difference * 10n ** 9n <= buy0).toBe(true)
      }),
      { numRuns: 50 },
    )
  })

  it('refuses what the real locker refuses: bps not adding up to 10,000, ranges off the spacing or below the start, more than 7', () => {
    expect(() => clankerLaunchPool({ ...config, positions: [{ tickLower: -230_400, tickUpper: -120_000, bps: 9_999 }] })).toThrow(/10,000/)
    expect(() => clankerLaunchPool({ ...config, positions: [{ tickLower: -230_300, tickUpper: -120_000, bps: 10_000 }] })).toThrow(/spacing/)
    expect(() => clankerLaunchPool({ ...config, positions: [{ tickLower: -230_600, tickUpper: -120_000, bps: 10_000 }] })).toThrow(/below the starting tick/)
    const eight = Array.from({ length: 8 }, () => ({ tickLower: -230_400, tickUpper: -120_000, bps: 1_250 }))
    expect(() => clankerLaunchPool({ ...config, positions: eight })).toThrow(/1 to 7/)
  })
})
