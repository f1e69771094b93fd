import { describe, expect, it } from 'vitest'
import { clankerTotalFeeFraction } from '../../../src/pricing/fee-fraction.ts'
import { type ClankerFeeSchedule, feeAt as feeAtBlock, type FeeSchedule, type LinearFeeSchedule, scheduleSettled } from '../../../src/pricing/fee-schedule.ts'

/** These schedules depend on the next block's time only. */
const at = (timestamp: number) => ({ timestamp, number: 0n })
const feeAt = (schedule: FeeSchedule, timestamp: number) => feeAtBlock(schedule, at(timestamp))

const clanker: ClankerFeeSchedule = {
  kind: 'clanker',
  startTime: 1_000,
  startingFee: 666_777,
  endingFee: 41_673,
  secondsToDecay: 15,
  lpFee: 10_000,
}

const linear: LinearFeeSchedule = { kind: 'linear', startTime: 1_000, startFee: 800_000, endFee: 12_000, durationSeconds: 10 }

describe('Clanker quadratic sniper fee', () => {
  it.each([
    // end + (start - end) * ((15 - e) / 15)^2, floored
    [1_000, 666_777, false],
    [1_001, 41_673 + Math.floor((625_104 * 196) / 225), true],
    [1_005, 41_673 + Math.floor((625_104 * 100) / 225), true],
    [1_014, 41_673 + Math.floor(625_104 / 225), true],
  ])('at %i the pool charges %i (swaps allowed: %s)', (ts, lpFee, allowed) => {
    const q = feeAt(clanker, ts)
    expect(q.lpFee).toBe(lpFee)
    expect(q.sniperFee).toBe(lpFee)
    expect(q.swapsAllowed).toBe(allowed)
    expect(q.totalFee).toEqual(clankerTotalFeeFraction(lpFee))
  })

  it('a swap in the deployment second is not allowed; the next second is', () => {
    expect(feeAt(clanker, 1_000).swapsAllowed).toBe(false)
    expect(feeAt(clanker, 1_001).swapsAllowed).toBe(true)
    expect(feeAt(clanker, 999).swapsAllowed).toBe(false)
  })

  it('after the decay window the module is off and the LP fee alone applies (plus the protocol fee)', () => {
    for (const ts of [1_015, 1_016, 5_000]) {
      const q = feeAt(clanker, ts)
      expect(q.sniperFee).toBe(0)
      expect(q.lpFee).toBe(10_000)
      expect(q.totalFraction).toBeCloseTo(1 - 0.99 / 1.002, 12)
    }
    // The block at the floor is still ticked (its fee is the floor's); from the next one nothing changes.
    expect(scheduleSettled(clanker, at(1_015))).toBe(false)
    expect(scheduleSettled(clanker, at(1_016))).toBe(true)
  })

  it('the sniper fee replaces the LP fee only when higher', () => {
    const low: ClankerFeeSchedule = { ...clanker, startingFee: 30_000, endingFee: 5_000, lpFee: 20_000 }
    expect(feeAt(low, 1_001).lpFee).toBe(5_000 + Math.floor((25_000 * 196) / 225)) // 26_777 > 20_000
    expect(feeAt(low, 1_010).lpFee).toBe(20_000) // sniper 7_777 < LP fee
    expect(feeAt(low, 1_010).sniperFee).toBe(5_000 + Math.floor((25_000 * 25) / 225))
  })

  it('is monotone non-increasing while decaying', () => {
    let previous = Number.POSITIVE_INFINITY
    for (let ts = 1_001; ts <= 1_020; ts++) {
      const fee = feeAt(clanker, ts).lpFee
      expect(fee).toBeLessThanOrEqual(previous)
      previous = fee
    }
  })

  it('long windows do not overflow (bigint maths)', () => {
    const long: ClankerFeeSchedule = { ...clanker, secondsToDecay: 10_000_000, startingFee: 800_000, endingFee: 0 }
    expect(feeAt(long, 1_001).lpFee).toBe(Number((800_000n * 9_999_999n * 9_999_999n) / 100_000_000_000_000n))
  })
})

describe('linear decay (Doppler, Zora)', () => {
  it.each([
    [900, 800_000],
    [1_000, 800_000],
    [1_001, 800_000 - 78_800],
    [1_005, 406_000],
    [1_009, 800_000 - 709_200],
    [1_010, 12_000],
    [9_999, 12_000],
  ])('at %i the fee is %i', (ts, fee) => {
    const q = feeAt(linear, ts)
    expect(q.lpFee).toBe(fee)
    expect(q.totalFee).toEqual({ numerator: BigInt(fee), denominator: 1_000_000n })
  })

  it('rounds like the hook (floor of the decayed part)', () => {
    const odd: LinearFeeSchedule = { kind: 'linear', startTime: 0, startFee: 990_000, endFee: 10_000, durationSeconds: 7 }
    expect(feeAt(odd, 3).lpFee).toBe(990_000 - Math.floor((980_000 * 3) / 7))
  })

  it('swaps are allowed from the launch; sniper fee is 0 at the floor', () => {
    expect(feeAt(linear, 999).swapsAllowed).toBe(false)
    expect(feeAt(linear, 1_000).swapsAllowed).toBe(true)
    expect(feeAt(linear, 1_009).sniperFee).toBe(90_800)
    expect(feeAt(linear, 1_010).sniperFee).toBe(0)
    expect(scheduleSettled(linear, at(1_010))).toBe(false)
    expect(scheduleSettled(linear, at(1_011))).toBe(true)
  })

  it('spec: a 50% tax doubles the effective cap', () => {
    const half: LinearFeeSchedule = { kind: 'linear', startTime: 0, startFee: 500_000, endFee: 500_000, durationSeconds: 1 }
    expect(feeAt(half, 0).totalFraction).toBe(0.5)
  })
})
