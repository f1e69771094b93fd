import { describe, expect, it } from 'vitest'
import { clankerTotalFeeFraction } from '../../../src/pricing/fee-fraction.ts'
import { type ClankerAuctionSchedule, feeAt, scheduleNeedsRefresh, scheduleSettled } from '../../../src/pricing/fee-schedule.ts'
import { clankerAuctionDecayFeeAt } from '../../../src/pricing/schedules/clanker-auction.ts'

// Launched in block 100 at t = 1,000: the first auction is block 102 (SniperAuctionV2's defaults on Base).
const schedule: ClankerAuctionSchedule = {
  kind: 'clanker_auction',
  startingFee: 666_777,
  endingFee: 41_673,
  secondsToDecay: 15,
  lpFee: 10_000,
  nextAuctionBlock: '102',
  decayFrom: 1_000,
  moduleEndsAt: 1_120,
}
const next = (number: number, timestamp: number) => ({ number: BigInt(number), timestamp })

/** The real module's _calculateFee, written out independently (1e18 fixed point, floored at each step). */
function solidityFee(startingFee: number, endingFee: number, d: number, elapsed: number): number {
  const timeDecay = BigInt(d - elapsed)
  const normalized = (timeDecay * 10n ** 18n) / BigInt(d)
  const squared = (normalized * normalized) / 10n ** 18n
  return endingFee + Number((BigInt(startingFee - endingFee) * squared) / 10n ** 18n)
}

describe('Clanker SniperAuctionV2 schedule', () => {
  it('gates every block up to and including the auction block, then allows plain swaps', () => {
    expect(feeAt(schedule, next(101, 1_002)).swapsAllowed).toBe(false)
    expect(feeAt(schedule, next(102, 1_004)).swapsAllowed).toBe(false)
    expect(feeAt(schedule, next(103, 1_006)).swapsAllowed).toBe(true)
  })

  it('quotes the starting fee for a gated block (what only an auction winner pays)', () => {
    const quote = feeAt(schedule, next(102, 1_004))
    expect(quote).toMatchObject({ lpFee: 666_777, sniperFee: 666_777 })
    expect(quote.totalFee).toEqual(clankerTotalFeeFraction(666_777))
  })

  it('decays from decayFrom with the module maths, to the ending fee at D, then to the LP fee alone', () => {
    for (let e = 0; e <= 15; e++) expect(clankerAuctionDecayFeeAt(schedule, 1_000 + e)).toBe(solidityFee(666_777, 41_673, 15, e))
    expect(clankerAuctionDecayFeeAt(schedule, 1_015)).toBe(41_673)
    expect(clankerAuctionDecayFeeAt(schedule, 1_016)).toBe(0)
    expect(feeAt(schedule, next(103, 1_006))).toMatchObject({ lpFee: solidityFee(666_777, 41_673, 15, 6), swapsAllowed: true })
    expect(feeAt(schedule, next(110, 1_016))).toMatchObject({ lpFee: 10_000, sniperFee: 0 })
  })

  it('a won round moves the gating and the decay start', () => {
    const won: ClankerAuctionSchedule = { ...schedule, nextAuctionBlock: '104', decayFrom: 1_004 }
    expect(feeAt(won, next(103, 1_006)).swapsAllowed).toBe(false)
    expect(feeAt(won, next(104, 1_008)).swapsAllowed).toBe(false)
    expect(feeAt(won, next(105, 1_010))).toMatchObject({ swapsAllowed: true, lpFee: solidityFee(666_777, 41_673, 15, 6) })
  })

  it('once the decay started (poolDecayStartTime set) nothing is gated', () => {
    const decaying: ClankerAuctionSchedule = { ...schedule, nextAuctionBlock: null, decayFrom: 1_010 }
    expect(feeAt(decaying, next(101, 1_012))).toMatchObject({ swapsAllowed: true, lpFee: solidityFee(666_777, 41_673, 15, 2) })
  })

  it('the module is off 120 s after the pool was created: no gating, no sniper fee', () => {
    const stuck: ClankerAuctionSchedule = { ...schedule, nextAuctionBlock: '1000' }
    expect(feeAt(stuck, next(200, 1_119)).swapsAllowed).toBe(false)
    expect(feeAt(stuck, next(200, 1_120))).toMatchObject({ swapsAllowed: true, lpFee: 10_000, sniperFee: 0 })
    expect(scheduleSettled(stuck, next(200, 1_120))).toBe(true)
  })

  it('a module fee above 80% is ignored by the hook (MAX_MEV_LP_FEE): the LP fee applies', () => {
    const high: ClankerAuctionSchedule = { ...schedule, startingFee: 900_000 }
    expect(feeAt(high, next(102, 1_004))).toMatchObject({ lpFee: 10_000, sniperFee: 0 })
  })

  it('is read again each block until the block after the auction block; settled once ungated and decayed', () => {
    expect(scheduleNeedsRefresh(schedule, next(101, 1_002))).toBe(true)
    expect(scheduleNeedsRefresh(schedule, next(103, 1_006))).toBe(true)
    expect(scheduleNeedsRefresh(schedule, next(104, 1_008))).toBe(false)
    expect(scheduleNeedsRefresh({ ...schedule, nextAuctionBlock: null }, next(101, 1_002))).toBe(false)
    expect(scheduleSettled(schedule, next(103, 1_015))).toBe(false)
    expect(scheduleSettled(schedule, next(103, 1_016))).toBe(true)
    expect(scheduleSettled(schedule, next(102, 1_016))).toBe(false)
  })
})
