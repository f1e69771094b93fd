import { describe, expect, it } from 'vitest'
import { clankerTotalFeeFraction } from '../../../src/pricing/fee-fraction.ts'
import { type FeeSchedule, feeAt, scheduleNeedsRefresh, scheduleSettled } from '../../../src/pricing/fee-schedule.ts'
import { CLANKER_GATE_SETTLE_SECONDS } from '../../../src/pricing/schedules/clanker-auction.ts'

// Clanker v4.0's modules charge no fee (clanker-devco/v4-contracts b004c2e, ClankerMevBlockDelay.sol,
// ClankerSniperAuctionV0.sol): a `clanker_auction` schedule with zero fees, no decay, and the gate of the module.
// Launched in block 100 at t = 1,000; the hook stops the module at 1,120 (MAX_MEV_MODULE_DELAY).
const zeroFees = { kind: 'clanker_auction', startingFee: 0, endingFee: 0, secondsToDecay: 0, lpFee: 10_000, decayFrom: 1_000, moduleEndsAt: 1_120 } as const
const blockDelay: FeeSchedule = { ...zeroFees, module: 'block_delay', nextAuctionBlock: '101' }
const auctionV0: FeeSchedule = { ...zeroFees, module: 'sniper_auction_v0', nextAuctionBlock: '102' }
const next = (number: number, timestamp: number) => ({ number: BigInt(number), timestamp })
const lpOnly = clankerTotalFeeFraction(10_000)

describe('Clanker v4.0 modules (BlockDelay, SniperAuctionV0) as zero-fee clanker_auction schedules', () => {
  it('BlockDelay of 2 blocks: the launch block + 1 is gated, launch + 2 (poolUnlockTime) is open, at the LP fee only', () => {
    expect(feeAt(blockDelay, next(101, 1_000)).swapsAllowed).toBe(false)
    const open = feeAt(blockDelay, next(102, 1_000))
    expect(open).toMatchObject({ swapsAllowed: true, lpFee: 10_000, sniperFee: 0 })
    expect(open.totalFee).toEqual(lpOnly)
    // A gated block quotes the LP fee too: the module takes nothing, it only refuses the swap.
    expect(feeAt(blockDelay, next(101, 1_000)).totalFee).toEqual(lpOnly)
  })

  it('SniperAuctionV0: gated up to and in the auction block, open after it, never any sniper fee (same second too)', () => {
    for (const n of [100, 101, 102]) expect(feeAt(auctionV0, next(n, 1_000)).swapsAllowed).toBe(false)
    expect(feeAt(auctionV0, next(103, 1_000))).toMatchObject({ swapsAllowed: true, sniperFee: 0, lpFee: 10_000 })
  })

  it('a won V0 round moves the gate (refreshed schedule); the module is off for good 120 s after creation', () => {
    const won: FeeSchedule = { ...auctionV0, nextAuctionBlock: '104' }
    expect(feeAt(won, next(103, 1_002)).swapsAllowed).toBe(false)
    expect(feeAt(won, next(105, 1_004)).swapsAllowed).toBe(true)
    expect(feeAt(won, next(104, 1_120)).swapsAllowed).toBe(true)
  })

  it('is refreshed until the block after the gate, and settled once open', () => {
    expect(scheduleNeedsRefresh(auctionV0, next(103, 1_001))).toBe(true)
    expect(scheduleNeedsRefresh(auctionV0, next(104, 1_001))).toBe(false)
    // Settled only once the block before `next` was open too: the tick that first allows swaps is always made.
    expect(scheduleSettled(auctionV0, next(102, 1_001))).toBe(false)
    expect(scheduleSettled(auctionV0, next(103, 1_001))).toBe(false)
    expect(scheduleSettled(auctionV0, next(104, 1_001))).toBe(true)
    expect(scheduleSettled(blockDelay, next(102, 1_001))).toBe(false)
    expect(scheduleSettled(blockDelay, next(103, 1_001))).toBe(true)
  })

  it('an unknown module (or TimeDelay) is gated by time until its swapsFrom, then priced at the LP fee: never forever', () => {
    const unknown: FeeSchedule = { ...zeroFees, module: 'unknown', nextAuctionBlock: null, swapsFrom: 1_120 }
    expect(feeAt(unknown, next(500, 1_119)).swapsAllowed).toBe(false)
    expect(scheduleSettled(unknown, next(500, 1_119))).toBe(false)
    expect(feeAt(unknown, next(501, 1_120))).toMatchObject({ swapsAllowed: true, sniperFee: 0, lpFee: 10_000 })
    // Block-ticked for CLANKER_GATE_SETTLE_SECONDS after the gate opens (the block time is unknown to the schedule).
    expect(scheduleSettled(unknown, next(501, 1_120))).toBe(false)
    expect(scheduleSettled(unknown, next(515, 1_120 + CLANKER_GATE_SETTLE_SECONDS))).toBe(true)
    const timeDelay: FeeSchedule = { ...zeroFees, module: 'time_delay', nextAuctionBlock: null, swapsFrom: 1_005 }
    expect(feeAt(timeDelay, next(102, 1_004)).swapsAllowed).toBe(false)
    expect(feeAt(timeDelay, next(103, 1_005)).swapsAllowed).toBe(true)
    expect(scheduleSettled(timeDelay, next(103, 1_005))).toBe(false)
    expect(scheduleSettled(timeDelay, next(118, 1_035))).toBe(true)
    expect(scheduleNeedsRefresh(unknown, next(101, 1_001))).toBe(false)
  })
})
