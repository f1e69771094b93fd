import { describe, expect, it } from 'vitest'
import type { DevBuyParams, DevBuyPoolShape } from '../../../src/domain/records.ts'
import { BASE_CLANKER_DEV_BUY, clankerDevBuyDeployment, poolShapeProblem } from '../../../src/launch-methods/dev-buy/clanker-dev-buy-deployment.ts'

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
})
