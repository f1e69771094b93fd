import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { DevBuyParams, DevBuyPoolShape } from '../../../../src/domain/records.ts'
import {
  BASE_CLANKER_DEV_BUY,
  clankerDevBuyDeployment,
  maxLiquidityPerTick,
  poolShapeProblem,
} from '../../../../src/launch-methods/dev-buy/chain/clanker-dev-buy-deployment.ts'
import { clankerLaunchPool } from '../../../../src/launchpads/clanker/clanker-launch-pool.ts'
import { CLANKER_TOKEN_SUPPLY } from '../../../../src/launchpads/reference-launch.ts'
import { getSqrtPriceAtTick } from '../../../../src/pricing/v4/tick-math.ts'

const shape: DevBuyPoolShape = {
  startingTick: -220_000,
  positions: [
    { tickLower: -220_000, tickUpper: -150_000, bps: 6_000 },
    { tickLower: -150_000, tickUpper: -120_000, bps: 4_000 },
  ],
  lpFeePips: 20_000,
}
const params: DevBuyParams = {
  name: 'Moon',
  symbol: 'MOON',
  image: '',
  metadata: '',
  tokenAdmin: '0x00000000000000000000000000000000000ad111',
  lock: { lockSeconds: 0, vestingSeconds: 0 },
}
const coordinator = '0x00000000000000000000000000000000000dbc01'
const launchId = `0x${'11'.repeat(32)}` as const

describe('a dev buy’s pool shape (the owner’s launchpad settings)', () => {
  it('an owner’s shape replaces the chain’s: starting tick, locker positions, static fee; without one, the chain’s defaults', () => {
    const shaped = clankerDevBuyDeployment(BASE_CLANKER_DEV_BUY, { ...params, pool: shape }, coordinator, launchId)
    expect(shaped.config.poolConfig.tickIfToken0IsClanker).toBe(-220_000)
    expect(shaped.pool).toEqual({ tickIfToken0IsClanker: -220_000, tickSpacing: 200, positions: shape.positions })
    expect(shaped.config.lockerConfig.tickLower).toEqual([-220_000, -150_000])
    expect(shaped.config.lockerConfig.positionBps).toEqual([6_000, 4_000])
    expect(shaped.lpFeePips).toBe(20_000)
    const plain = clankerDevBuyDeployment(BASE_CLANKER_DEV_BUY, params, coordinator, launchId)
    expect(plain.pool.tickIfToken0IsClanker).toBe(BASE_CLANKER_DEV_BUY.tickIfToken0IsClanker)
    expect(plain.lpFeePips).toBe(BASE_CLANKER_DEV_BUY.lpFeePips)
  })

  it.each<[string, Partial<DevBuyPoolShape>, RegExp]>([
    ['a start off the tick spacing', { startingTick: -220_100 }, /multiple of the tick spacing 200/],
    ['a start beyond the usable ticks', { startingTick: -887_400, positions: [{ tickLower: -887_400, tickUpper: 0, bps: 10_000 }] }, /within ±887200/],
    ['a fee above Clanker’s 10% cap', { lpFeePips: 100_100 }, /0 to 1000 basis points/],
    ['shares not adding up to 10,000', { positions: [{ tickLower: -220_000, tickUpper: -120_000, bps: 9_000 }] }, /add up to 10,000/],
    ['a position below the start', { positions: [{ tickLower: -230_000, tickUpper: -120_000, bps: 10_000 }] }, /starts below the starting tick/],
    ['a range off the spacing', { positions: [{ tickLower: -220_000, tickUpper: -120_100, bps: 10_000 }] }, /not a range on tick spacing 200/],
    ['an empty range', { positions: [{ tickLower: -120_000, tickUpper: -120_000, bps: 10_000 }] }, /not a range/],
    [
      'eight positions',
      { positions: Array.from({ length: 8 }, (_, i) => ({ tickLower: -220_000, tickUpper: -120_000 + i * 200, bps: i === 0 ? 3_000 : 1_000 })) },
      /1 to 7 positions/,
    ],
    ['no position', { positions: [] }, /1 to 7 positions/],
    ['a range above the top tick', { positions: [{ tickLower: -220_000, tickUpper: 887_400, bps: 10_000 }] }, /tick 887400 is outside/],
    [
      'the start of issue 24 (887,000): liquidity over uint128',
      { startingTick: 887_000, positions: [{ tickLower: 887_000, tickUpper: 887_200, bps: 10_000 }] },
      /more liquidity than a pool holds/,
    ],
    [
      'a start whose range passes the per-tick cap',
      { startingTick: 200_000, positions: [{ tickLower: 200_000, tickUpper: 200_200, bps: 10_000 }] },
      /liquidity cap per tick/,
    ],
    [
      'a range at the bottom that rounds to no liquidity',
      { startingTick: -887_200, positions: [{ tickLower: -887_200, tickUpper: -887_000, bps: 10_000 }] },
      /no liquidity/,
    ],
    ['a fractional tick', { positions: [{ tickLower: -220_000, tickUpper: -120_000.5, bps: 10_000 }] }, /not a range on tick spacing 200/],
    [
      'a zero share',
      {
        positions: [
          { tickLower: -220_000, tickUpper: -120_000, bps: 10_000 },
          { tickLower: -220_000, tickUpper: -120_000, bps: 0 },
        ],
      },
      /positive share/,
    ],
  ])('refuses %s', (_what, change, problem) => {
    expect(poolShapeProblem(BASE_CLANKER_DEV_BUY, { ...shape, ...change })).toMatch(problem)
  })

  it('accepts the owner’s valid shape and the chain’s own default', () => {
    expect(poolShapeProblem(BASE_CLANKER_DEV_BUY, shape)).toBeNull()
    const d = BASE_CLANKER_DEV_BUY
    expect(poolShapeProblem(d, { startingTick: d.tickIfToken0IsClanker, positions: [...d.positions], lpFeePips: d.lpFeePips })).toBeNull()
  })

  it('Uniswap v4’s per-tick cap for spacing 200 (Pool.tickSpacingToMaxLiquidityPerTick)', () => {
    // numTicks = (887200 - (-887200)) / 200 + 1 = 8873
    expect(maxLiquidityPerTick(200)).toBe(((1n << 128n) - 1n) / 8873n)
  })
})

/**
 * The factory's (the devnet LP locker's, as the real ClankerLpLocker's `_mintLiquidity` and the v4 PoolManager) checks,
 * written again from the Solidity (devnet/contracts/launchpads/clanker/DevnetClankerLpLocker.sol; Uniswap/v4-core
 * Pool.sol, Position.sol; v4-periphery LiquidityAmounts.sol), independent of poolShapeProblem's messages.
 */
function factoryWouldRevert(shape: DevBuyPoolShape, tokenIsCurrency0: boolean): boolean {
  const spacing = BASE_CLANKER_DEV_BUY.tickSpacing
  const Q96 = 1n << 96n
  if (shape.positions.length === 0 || shape.positions.length > 7) return true
  let bps = 0
  for (const p of shape.positions) {
    if (p.tickLower > p.tickUpper || p.tickLower < -887_272 || p.tickUpper > 887_272) return true
    if (p.tickLower % spacing !== 0 || p.tickUpper % spacing !== 0 || p.tickLower < shape.startingTick) return true
    bps += p.bps
  }
  if (bps !== 10_000) return true
  const gross = new Map<number, bigint>()
  for (const p of shape.positions) {
    const amount = (CLANKER_TOKEN_SUPPLY * BigInt(p.bps)) / 10_000n
    const [lo, hi] = tokenIsCurrency0 ? [p.tickLower, p.tickUpper] : [-p.tickUpper, -p.tickLower]
    if (lo >= hi) return true // modifyLiquidity: TicksMisordered
    const a = getSqrtPriceAtTick(lo)
    const b = getSqrtPriceAtTick(hi)
    const liquidity = tokenIsCurrency0 ? (amount * ((a * b) / Q96)) / (b - a) : (amount * Q96) / (b - a)
    if (liquidity === 0n || liquidity >= 1n << 128n) return true
    for (const t of [lo, hi]) gross.set(t, (gross.get(t) ?? 0n) + liquidity)
  }
  return [...gross.values()].some((l) => l > maxLiquidityPerTick(spacing))
}

describe('poolShapeProblem against the factory’s checks (property)', () => {
  const tick = fc.integer({ min: -4436, max: 4436 }).map((n) => n * 200)
  const shapes = fc
    .record({
      startingTick: tick,
      ranges: fc.array(fc.tuple(fc.integer({ min: 0, max: 8872 }), fc.integer({ min: 1, max: 8872 }), fc.integer({ min: 1, max: 100 })), {
        minLength: 1,
        maxLength: 7,
      }),
    })
    .map(({ startingTick, ranges }): DevBuyPoolShape => {
      const weights = ranges.reduce((sum, [, , w]) => sum + w, 0)
      const positions = ranges.map(([offset, width, w]) => {
        const tickLower = Math.min(startingTick + offset * 200, 887_000)
        return { tickLower, tickUpper: Math.min(tickLower + width * 200, 887_200), bps: Math.floor((w * 10_000) / weights) }
      })
      positions[0]!.bps += 10_000 - positions.reduce((sum, p) => sum + p.bps, 0)
      return { startingTick, positions: positions.filter((p) => p.bps > 0), lpFeePips: 10_000 }
    })

  it('accepts exactly the shapes the factory deploys, whichever way the token sorts', () => {
    let accepted = 0
    let refused = 0
    fc.assert(
      fc.property(shapes, (s) => {
        const wouldRevert = factoryWouldRevert(s, true) || factoryWouldRevert(s, false)
        const problem = poolShapeProblem(BASE_CLANKER_DEV_BUY, s)
        if (problem === null) accepted++
        else refused++
        expect(problem !== null).toBe(wouldRevert)
        if (problem === null) {
          // An accepted shape plans: the pool the deployment creates is known for either order.
          for (const tokenIsCurrency0 of [true, false]) {
            const pool = clankerLaunchPool({
              ...s,
              tickIfToken0IsClanker: s.startingTick,
              tickSpacing: 200,
              poolSupply: CLANKER_TOKEN_SUPPLY,
              tokenIsCurrency0,
            })
            expect(pool.positions.every((p) => p.liquidity > 0n)).toBe(true)
          }
        }
      }),
      { numRuns: 2_000, seed: 24 },
    )
    // The generator reaches both sides of the boundary.
    expect(accepted).toBeGreaterThan(100)
    expect(refused).toBeGreaterThan(100)
  })
})
