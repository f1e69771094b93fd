import { type ClankerFeeSchedule, clankerSchedule } from './schedules/clanker.ts'
import { type ClankerAuctionSchedule, clankerAuctionSchedule } from './schedules/clanker-auction.ts'
import { type ClankerV5FeeSchedule, clankerV5Schedule } from './schedules/clanker-v5.ts'
import { type LinearFeeSchedule, linearSchedule } from './schedules/linear.ts'
import type { FeeQuote, NextBlock, ScheduleKind } from './schedules/schedule-kind.ts'
import { withProtocolFee } from './protocol-fee.ts'

export type { ClankerFeeSchedule } from './schedules/clanker.ts'
export type { ClankerAuctionSchedule } from './schedules/clanker-auction.ts'
export type { ClankerV5FeeSchedule } from './schedules/clanker-v5.ts'
export type { LinearFeeSchedule } from './schedules/linear.ts'
export type { FeeQuote, NextBlock } from './schedules/schedule-kind.ts'

/**
 * A launch's pool fee (and gating) as pure data, loaded by its launchpad adapter (and refreshed from chain state where
 * the schedule follows it) and evaluated for every price tick. One union member per kind; each kind's maths lives in
 * src/pricing/schedules/<kind>.ts and is registered below.
 */
export type FeeSchedule = (ClankerFeeSchedule | ClankerAuctionSchedule | LinearFeeSchedule | ClankerV5FeeSchedule) & ScheduleCommon

/** What any kind may carry besides its own maths, applied by feeAt and scheduleSettled below. */
export interface ScheduleCommon {
  /**
   * The v4 protocol fee a buy pays in this pool, pips (slot0's protocolFee for the buy's direction, read at launch):
   * the pool then charges protocolFee + lpFee - protocolFee * lpFee / 1e6 (protocol-fee.ts). Absent: 0.
   */
  protocolFee?: number
  /**
   * Unix seconds before which no buy of ours can succeed whatever the price (a DopplerERC20V1 balance limit, which the
   * 3% fee recipient reaches first): the launch is gated until then, never an order's failure. Absent: not gated.
   */
  swapsFrom?: number
}

type KindTable = { [K in FeeSchedule['kind']]: ScheduleKind<Extract<FeeSchedule, { kind: K }>> }

/** Every schedule kind's maths, by kind (one line per kind). */
const SCHEDULE_KINDS: KindTable = {
  clanker: clankerSchedule,
  clanker_auction: clankerAuctionSchedule,
  linear: linearSchedule,
  clanker_v5: clankerV5Schedule,
}

const kindOf = <S extends FeeSchedule>(schedule: S) => SCHEDULE_KINDS[schedule.kind] as unknown as ScheduleKind<S>

/** The fee a buy landing in `next` pays, and whether a plain swap is allowed in that block. */
export function feeAt(schedule: FeeSchedule, next: NextBlock): FeeQuote {
  const quote = withProtocolFee(kindOf(schedule).feeAt(schedule, next), schedule.protocolFee ?? 0)
  return gatedUntilSwapsFrom(schedule, next) ? { ...quote, swapsAllowed: false } : quote
}

/** Whether fee and gating no longer change from `next` on: the indexer stops per-block ticks then. */
export const scheduleSettled = (schedule: FeeSchedule, next: NextBlock): boolean =>
  !gatedUntilSwapsFrom(schedule, next) && kindOf(schedule).settled(schedule, next)

const gatedUntilSwapsFrom = (schedule: ScheduleCommon, next: NextBlock): boolean => schedule.swapsFrom !== undefined && next.timestamp < schedule.swapsFrom

/** Whether the schedule must be read again from the chain before pricing `next` (see LaunchpadAdapter.refreshFeeSchedule). */
export const scheduleNeedsRefresh = (schedule: FeeSchedule, next: NextBlock): boolean => kindOf(schedule).needsRefresh?.(schedule, next) ?? false
