import type { Fraction } from '../fraction.ts'

/** The block a buy submitted now lands in: its expected timestamp (unix seconds) and number. */
export interface NextBlock {
  timestamp: number
  number: bigint
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
  /** Whether a plain swap in that block is allowed at all (a gated block reverts it: nothing is submitted into it). */
  swapsAllowed: boolean
}

/**
 * One kind of launch fee schedule: pure maths over the schedule's JSON data (unix seconds, pips, block numbers as
 * decimal strings). Registered in SCHEDULE_KINDS (fee-schedule.ts).
 */
export interface ScheduleKind<S> {
  /** The fee and gating a buy landing in `next` meets. */
  feeAt(schedule: S, next: NextBlock): FeeQuote
  /** True once nothing about the fee or the gating changes any more with time or blocks (no more per-block ticks). */
  settled(schedule: S, next: NextBlock): boolean
  /** True while the schedule follows chain state the adapter must read again each block (refreshFeeSchedule). */
  needsRefresh?(schedule: S, next: NextBlock): boolean
}
