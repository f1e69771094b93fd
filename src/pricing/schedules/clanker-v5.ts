import { feeFractionFromPips } from '../fee-fraction.ts'
import { toNumber } from '../fraction.ts'
import { compoundFees } from '../route-price.ts'
import { type LinearFeeSchedule, linearFeeAt } from './linear.ts'
import type { ScheduleKind } from './schedule-kind.ts'

/**
 * Clanker v5's documented sniper fee: "trades in the first 20 seconds after launch pay a higher total fee that starts
 * at 99% and falls to the normal tax" (clanker-devco/DOCS general/token-deployments.md, "How a v5 token works").
 */
export const CLANKER_V5_SNIPER = { startFee: 990_000, seconds: 20 } as const

/**
 * Clanker v5: no LP fee, a buy tax of 1-10% taken from the buy's input by the hook, and an optional sniper fee that
 * replaces it (the TOTAL fee) from 99% at the launch down to the tax over 20 s (clanker-devco/DOCS
 * general/token-deployments.md, general/creator-rewards-and-fees.md). The curve's shape is not documented: it is
 * priced LINEAR per second (as Zora's 99% -> 1% over 10 s), the same integer maths as the devnet hook
 * (devnet/contracts/launchpads/clanker-v5/DevnetClankerV5Hook.sol). The numbers are not read from a getter (no v5 ABI
 * is published): the adapter measures them by quoting the real swap (read-clanker-v5-fees.ts), and a quote of the real
 * swap at the next block's time replaces this formula wherever it is available; this formula is what the simulator and
 * the comparison with the quote use.
 */
export interface ClankerV5FeeSchedule {
  kind: 'clanker_v5'
  /** The launch block's timestamp, unix seconds: the sniper fee starts here. */
  startTime: number
  /** The buy tax, pips (10,000 to 100,000 by the documentation; measured, so taken as found). */
  buyTax: number
  /** The total fee at the launch second when the sniper fee is on (99%: 990,000 pips), null when it is off. */
  sniperStartFee: number | null
  /** Seconds over which the sniper fee falls to the tax (20). */
  sniperSeconds: number
  /** A static LP fee of the pool key on top of the tax, pips (the documentation says none; absent or 0). */
  poolLpFee?: number
  /**
   * The first second the hook allows a swap, when that is after the launch second (quotes reverted before it;
   * undocumented, so measured). Absent: swaps from the launch block on (what the devnet imitation does).
   */
  swapsFrom?: number
}

const asLinear = (s: ClankerV5FeeSchedule): LinearFeeSchedule => ({
  kind: 'linear',
  startTime: s.startTime,
  startFee: s.sniperStartFee ?? s.buyTax,
  endFee: s.buyTax,
  durationSeconds: s.sniperStartFee === null ? 0 : s.sniperSeconds,
})

/** The hook's total fee (tax, or sniper fee while it is above the tax) on a buy landing at `timestamp`, pips. */
export function clankerV5FeeAt(s: ClankerV5FeeSchedule, timestamp: number): number {
  if (s.sniperStartFee === null || s.sniperStartFee <= s.buyTax) return s.buyTax
  return linearFeeAt(asLinear(s), timestamp)
}

export const clankerV5Schedule: ScheduleKind<ClankerV5FeeSchedule> = {
  feeAt(s, next) {
    const hookFee = clankerV5FeeAt(s, next.timestamp)
    const lpFee = s.poolLpFee ?? 0
    // The tax comes off the input before the swap, the LP fee (if any) off what the pool swaps: the buyer keeps
    // (1 - tax)(1 - lp); with no LP fee the total is the hook's fee exactly.
    const totalFee = lpFee === 0 ? feeFractionFromPips(hookFee) : compoundFees(feeFractionFromPips(lpFee), feeFractionFromPips(hookFee))
    const sniperFee = hookFee > s.buyTax ? hookFee : 0
    return { lpFee, sniperFee, totalFee, totalFraction: toNumber(totalFee), swapsAllowed: next.timestamp >= (s.swapsFrom ?? s.startTime) }
  },
  settled: (s, next) => (s.sniperStartFee === null || next.timestamp >= s.startTime + s.sniperSeconds) && next.timestamp >= (s.swapsFrom ?? s.startTime),
}
