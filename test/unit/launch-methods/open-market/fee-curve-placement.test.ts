import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { launchFeeCurve, maxSpotFdvFor, placeOnFeeCurve, settledPoint } from '../../../../src/launch-methods/open-market/domain/fee-curve-placement.ts'
import { clankerDefaultStartFdv, referenceFeeSchedule, referenceLaunchDescription } from '../../../../src/launchpads/reference-launch.ts'
import { effectiveMarketCap } from '../../../../src/pricing/effective-market-cap.ts'
import { clankerTotalFeeFraction, feeFractionFromPips } from '../../../../src/pricing/fee-fraction.ts'
import { fraction } from '../../../../src/pricing/fraction.ts'

const LAUNCH = { number: 100n, timestamp: 1_000_000 }
const USD = 1_000_000n

describe('launchFeeCurve', () => {
  it('Clanker’s reference launch: no plain buy in blocks N+1 and N+2 (the auction), then the quadratic decay from the launch’s time, settled on the 1% LP fee at 16 s', () => {
    const curve = launchFeeCurve(referenceFeeSchedule('clanker', LAUNCH), LAUNCH, 2)
    expect(curve.map((p) => [p.block, p.afterSeconds])).toEqual([
      [3, 6],
      [4, 8],
      [5, 10],
      [6, 12],
      [7, 14],
      [8, 16],
    ])
    // 6 s of 15: 41,673 + 625,104 * (9/15)^2 = 266,710 pips, replacing the LP fee, 20% protocol fee on top.
    expect(curve[0]!.totalFee).toEqual(clankerTotalFeeFraction(266_710))
    expect(curve[4]!.totalFee).toEqual(clankerTotalFeeFraction(44_451))
    expect(curve[5]!.totalFee).toEqual(clankerTotalFeeFraction(10_000))
    expect(settledPoint(curve)).toEqual(curve[5])
  })

  it('Zora’s reference launch: buys from the first block, 99% -> 1% linear over 10 s, settled at 12 s; longer blocks walk the same fee by time', () => {
    const curve = launchFeeCurve(referenceFeeSchedule('zora', LAUNCH), LAUNCH, 2)
    expect(curve.map((p) => [p.block, p.totalFee])).toEqual([
      [1, feeFractionFromPips(794_000)],
      [2, feeFractionFromPips(598_000)],
      [3, feeFractionFromPips(402_000)],
      [4, feeFractionFromPips(206_000)],
      [5, feeFractionFromPips(10_000)],
      [6, feeFractionFromPips(10_000)],
    ])
    expect(settledPoint(curve)).toEqual(curve[4])
    expect(settledPoint([])).toBeUndefined()
    const slow = launchFeeCurve(referenceFeeSchedule('doppler', LAUNCH), LAUNCH, 5)
    expect(slow.map((p) => [p.afterSeconds, p.totalFee])).toEqual([
      [5, feeFractionFromPips(800_000 - 394_000)],
      [10, feeFractionFromPips(12_000)],
      [15, feeFractionFromPips(12_000)],
    ])
    expect(() => launchFeeCurve(referenceFeeSchedule('zora', LAUNCH), LAUNCH, 0)).toThrow(RangeError)
  })
})

describe('placeOnFeeCurve', () => {
  const zora = launchFeeCurve(referenceFeeSchedule('zora', LAUNCH), LAUNCH, 2)

  it('a $1M limit on Zora’s curve: a spot FDV up to $206k in the first block, $990k once settled; from a $500k start it buys from block 3 (6 s, 40.2%)', () => {
    const placed = placeOnFeeCurve(1_000_000n * USD, zora, 500_000n * USD)
    expect(placed.maxSpotFdvAtFirstSwap).toBe(206_000n * USD)
    expect(placed.maxSpotFdvSettled).toBe(990_000n * USD)
    expect(placed.atStart).toEqual(zora[2])
    // Block 2's 59.8% fee puts a $500k spot at a $1.24M effective cap: above the limit.
    expect(effectiveMarketCap(500_000n * USD, zora[1]!.totalFee)! > 1_000_000n * USD).toBe(true)
  })

  it('a start above what the settled fee allows never becomes eligible at that price; no limit buys in the first allowed block; an unknown start places nothing', () => {
    expect(placeOnFeeCurve(1_000_000n * USD, zora, 995_000n * USD).atStart).toBeNull()
    expect(placeOnFeeCurve(1_000_000n * USD, zora, 990_000n * USD).atStart).toEqual(zora[4])
    expect(placeOnFeeCurve(null, zora, 10n ** 20n)).toEqual({ maxSpotFdvAtFirstSwap: null, maxSpotFdvSettled: null, atStart: zora[0] })
    expect(placeOnFeeCurve(1_000_000n * USD, zora, null).atStart).toBeNull()
    expect(placeOnFeeCurve(1_000_000n * USD, [], 1n)).toEqual({ maxSpotFdvAtFirstSwap: null, maxSpotFdvSettled: null, atStart: null })
  })

  it('maxSpotFdvFor is the exact inverse of effectiveMarketCap’s rounding: the result is eligible, one micro-dollar more is not', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 18n }), fc.integer({ min: 0, max: 999_999 }), (limit, pips) => {
        const fee = feeFractionFromPips(pips)
        const spot = maxSpotFdvFor(limit, fee)
        expect(effectiveMarketCap(spot, fee)! <= limit).toBe(true)
        expect(effectiveMarketCap(spot + 1n, fee)! > limit).toBe(true)
      }),
    )
    expect(maxSpotFdvFor(10n, fraction(1n, 1n))).toBe(0n)
  })
})

describe('clankerDefaultStartFdv', () => {
  it('Clanker’s default start is ~9.87 ETH for the 100B supply (1.0001^-230,400 ETH per token): ~$29.6k at $3,000 per ETH', () => {
    // 3,000 USD per ETH in micro-USD per wei.
    expect(clankerDefaultStartFdv(fraction(3_000n * USD, 10n ** 18n))).toBe(29_612_608_539n)
    // Linear in the ETH price (up to the floor of each).
    expect(clankerDefaultStartFdv(fraction(6_000n * USD, 10n ** 18n)) - 2n * 29_612_608_539n).toBeLessThanOrEqual(1n)
  })
})

describe('referenceLaunchDescription', () => {
  it('says each reference launch’s fees, from the same numbers the curve uses', () => {
    expect(referenceLaunchDescription('clanker')).toBe('Clanker v4.1 defaults: sniper auction blocks N+1..N+2, then 66.6777% -> 4.1673% over 15 s, 1% LP fee')
    expect(referenceLaunchDescription('doppler')).toBe('Doppler as Bankr launches it: 80% -> 1.2% over 10 s')
    expect(referenceLaunchDescription('zora')).toBe('Zora coin v4: 99% -> 1% over 10 s')
  })
})
