import { feeFractionFromPips, PIPS } from '../fee-fraction.ts'
import { fraction, toNumber } from '../fraction.ts'
import { compoundFees } from '../route-price.ts'
import type { ScheduleKind } from './schedule-kind.ts'

/**
 * A fee that decays linearly per second from startFee to endFee over durationSeconds. Without `poolLpFee` it is the
 * pool's LP fee and nothing is on top (Doppler decay multicurve, Zora). With it (Doppler rehype pools), the pool charges
 * that static LP fee on the input and the decaying fee is the Doppler hook's, taken from the output: a buyer keeps
 * (1 - lp)(1 - hook(t)) (whetstoneresearch/doppler src/dopplerHooks/RehypeDopplerHookInitializer.sol _collectSwapFees).
 * The hook's fee is hook(t) / hookFeeDenominator: 1e6 when absent, 800,000 for the rehype hooks deployed on Base from
 * March to July 2026 (src/launchpads/doppler/rehype-deployments.ts), which take 1.25x what they announce.
 * A static LP fee (a Doppler pool that announces no schedule) is startFee = endFee with durationSeconds 0.
 */
export interface LinearFeeSchedule {
  kind: 'linear'
  startTime: number
  startFee: number
  endFee: number
  durationSeconds: number
  poolLpFee?: number
  /** What the hook's fee (poolLpFee set) is a fraction of; 1,000,000 when absent. */
  hookFeeDenominator?: number
  /**
   * The fee once the decay is over, where it is not endFee: a Zora trend coin decays toward 1% but charges 0.01% from
   * the end of the launch fee on (ZoraV4CoinHook._calculateLaunchFee, TREND_LP_FEE_V4). Absent: endFee.
   */
  floorFee?: number
}

export function linearFeeAt(s: LinearFeeSchedule, timestamp: number): number {
  if (timestamp <= s.startTime) return s.startFee
  const elapsed = timestamp - s.startTime
  if (elapsed >= s.durationSeconds) return s.floorFee ?? s.endFee
  return s.startFee - Math.floor(((s.startFee - s.endFee) * elapsed) / s.durationSeconds)
}

export const linearSchedule: ScheduleKind<LinearFeeSchedule> = {
  feeAt(s, next) {
    const decaying = linearFeeAt(s, next.timestamp)
    const lpFee = s.poolLpFee ?? decaying
    const hookFee = fraction(BigInt(decaying), BigInt(s.hookFeeDenominator ?? PIPS))
    const totalFee = s.poolLpFee === undefined ? feeFractionFromPips(decaying) : compoundFees(feeFractionFromPips(s.poolLpFee), hookFee)
    const sniperFee = next.timestamp >= s.startTime + s.durationSeconds || s.startFee === s.endFee ? 0 : decaying
    return { lpFee, sniperFee, totalFee, totalFraction: toNumber(totalFee), swapsAllowed: next.timestamp >= s.startTime }
  },
  settled: (s, next) => next.timestamp > s.startTime + s.durationSeconds,
}
