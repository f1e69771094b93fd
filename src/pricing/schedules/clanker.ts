import { clankerTotalFeeFraction } from '../fee-fraction.ts'
import { toNumber } from '../fraction.ts'
import type { ScheduleKind } from './schedule-kind.ts'

/**
 * Clanker v4 with a descending-fee MEV module (ClankerMevDescendingFees, not the one Base's v4.1 factory uses: that is
 * SniperAuctionV2, kind `clanker_auction`): quadratic per-second sniper fee replacing the LP fee when higher, 20%
 * protocol fee on top.
 */
export interface ClankerFeeSchedule {
  kind: 'clanker'
  /** Pool start (the launch block's timestamp), unix seconds. */
  startTime: number
  startingFee: number
  endingFee: number
  secondsToDecay: number
  /** LP fee on buys (pairedFee), pips. */
  lpFee: number
}

export function clankerSniperFeeAt(s: ClankerFeeSchedule, timestamp: number): number {
  if (timestamp < s.startTime) return s.startingFee
  const elapsed = timestamp - s.startTime
  if (elapsed >= s.secondsToDecay) return 0
  // Same integer maths as the devnet hook (end + range * remaining^2 / D^2, floored), in bigint to avoid 2^53 overflow.
  const remaining = BigInt(s.secondsToDecay - elapsed)
  const d = BigInt(s.secondsToDecay)
  return s.endingFee + Number((BigInt(s.startingFee - s.endingFee) * remaining * remaining) / (d * d))
}

/** Clanker refuses swaps in the deployment second. */
export const clankerSwapsAllowedAt = (s: ClankerFeeSchedule): number => s.startTime + 1

export const clankerSchedule: ScheduleKind<ClankerFeeSchedule> = {
  feeAt(s, next) {
    const sniperFee = clankerSniperFeeAt(s, next.timestamp)
    const lpFee = Math.max(sniperFee, s.lpFee)
    const totalFee = clankerTotalFeeFraction(lpFee)
    return { lpFee, sniperFee, totalFee, totalFraction: toNumber(totalFee), swapsAllowed: next.timestamp >= clankerSwapsAllowedAt(s) }
  },
  settled: (s, next) => next.timestamp > s.startTime + s.secondsToDecay,
}
