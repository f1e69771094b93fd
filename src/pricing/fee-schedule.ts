import { clankerTotalFeeFraction, feeFractionFromPips } from './fee-fraction.ts'
import { toNumber, type Fraction } from './fraction.ts'

/**
 * A launch's time-dependent pool fee as pure data (JSON-safe: numbers are unix seconds and pips), loaded once per
 * launch by the launchpad adapter and evaluated for every price tick with `feeAt`.
 */
export type FeeSchedule = ClankerFeeSchedule | LinearFeeSchedule

/** Clanker v4: quadratic per-second sniper fee replacing the LP fee when higher, 20% protocol fee on top. */
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

/** Doppler and Zora: the LP fee decays linearly from startFee to endFee over durationSeconds, nothing on top. */
export interface LinearFeeSchedule {
  kind: 'linear'
  startTime: number
  startFee: number
  endFee: number
  durationSeconds: number
}

export interface FeeQuote {
  /** The LP fee the pool charges (what the v4 Swap event reports), pips. */
  lpFee: number
  /** The time-based launch (sniper) fee in force, pips; 0 once decayed away. */
  sniperFee: number
  /** Every fee that reduces the tokens received on an exact-input buy, exact. */
  totalFee: Fraction
  /** totalFee as a float, for logs and display. */
  totalFraction: number
  /** Whether a swap at this timestamp is allowed at all. */
  swapsAllowed: boolean
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

export function linearFeeAt(s: LinearFeeSchedule, timestamp: number): number {
  if (timestamp <= s.startTime) return s.startFee
  const elapsed = timestamp - s.startTime
  if (elapsed >= s.durationSeconds) return s.endFee
  return s.startFee - Math.floor(((s.startFee - s.endFee) * elapsed) / s.durationSeconds)
}

/** When a swap is first allowed: Clanker refuses swaps in the deployment second. */
export const swapsAllowedAt = (s: FeeSchedule): number => (s.kind === 'clanker' ? s.startTime + 1 : s.startTime)

/** The first timestamp at which the fee stops changing with time (the indexer stops per-block ticks from then on). */
export const feeFloorAt = (s: FeeSchedule): number => (s.kind === 'clanker' ? s.startTime + s.secondsToDecay : s.startTime + s.durationSeconds)

/** The fee a swap whose block has `timestamp` pays. */
export function feeAt(s: FeeSchedule, timestamp: number): FeeQuote {
  const swapsAllowed = timestamp >= swapsAllowedAt(s)
  if (s.kind === 'clanker') {
    const sniperFee = clankerSniperFeeAt(s, timestamp)
    const lpFee = Math.max(sniperFee, s.lpFee)
    const totalFee = clankerTotalFeeFraction(lpFee)
    return { lpFee, sniperFee, totalFee, totalFraction: toNumber(totalFee), swapsAllowed }
  }
  const lpFee = linearFeeAt(s, timestamp)
  const totalFee = feeFractionFromPips(lpFee)
  const sniperFee = timestamp >= feeFloorAt(s) ? 0 : lpFee
  return { lpFee, sniperFee, totalFee, totalFraction: toNumber(totalFee), swapsAllowed }
}
