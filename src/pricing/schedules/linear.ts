import { feeFractionFromPips } from '../fee-fraction.ts'
import { toNumber } from '../fraction.ts'
import type { ScheduleKind } from './schedule-kind.ts'

/** An LP fee that decays linearly per second from startFee to endFee over durationSeconds, nothing on top. */
export interface LinearFeeSchedule {
  kind: 'linear'
  startTime: number
  startFee: number
  endFee: number
  durationSeconds: number
}

export function linearFeeAt(s: LinearFeeSchedule, timestamp: number): number {
  if (timestamp <= s.startTime) return s.startFee
  const elapsed = timestamp - s.startTime
  if (elapsed >= s.durationSeconds) return s.endFee
  return s.startFee - Math.floor(((s.startFee - s.endFee) * elapsed) / s.durationSeconds)
}

export const linearSchedule: ScheduleKind<LinearFeeSchedule> = {
  feeAt(s, next) {
    const lpFee = linearFeeAt(s, next.timestamp)
    const totalFee = feeFractionFromPips(lpFee)
    const sniperFee = next.timestamp >= s.startTime + s.durationSeconds ? 0 : lpFee
    return { lpFee, sniperFee, totalFee, totalFraction: toNumber(totalFee), swapsAllowed: next.timestamp >= s.startTime }
  },
  settled: (s, next) => next.timestamp > s.startTime + s.durationSeconds,
}
