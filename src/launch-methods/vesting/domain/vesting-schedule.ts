/**
 * Lock and vesting of a buyer's dev-buy tokens (optional per project): nothing is withdrawable before the lockup ends;
 * then the amount vests linearly over the vesting period (none: all at once at the end of the lockup). Times are unix
 * seconds, amounts atomic units. Pure: the vesting contract applies the same rule on chain (block.timestamp), and
 * GET /orders and GET /wallet show what it gives.
 */
export interface VestingSchedule {
  total: bigint
  /** When the tokens were allocated (the launch block's time). */
  start: number
  /** End of the lockup (>= start): nothing vests before it. */
  lockupEnd: number
  /** Linear vesting after the lockup, seconds (0: everything at lockupEnd). */
  vestingSeconds: number
}

export interface VestingState {
  vested: bigint
  locked: bigint
  /** Vested and not yet released (withdrawable now). */
  releasable: bigint
}

export function validateSchedule(schedule: VestingSchedule): void {
  if (schedule.total < 0n) throw new RangeError('total must not be negative')
  if (!Number.isSafeInteger(schedule.start) || !Number.isSafeInteger(schedule.lockupEnd) || schedule.lockupEnd < schedule.start) {
    throw new RangeError('lockupEnd must be a whole number of seconds, at or after start')
  }
  if (!Number.isSafeInteger(schedule.vestingSeconds) || schedule.vestingSeconds < 0) throw new RangeError('vestingSeconds must be a whole number >= 0')
}

/** Tokens vested at `now`: 0 before the lockup ends, then linear (rounded down), all of it once vesting is over. */
export function vestedAt(schedule: VestingSchedule, now: number): bigint {
  validateSchedule(schedule)
  if (now < schedule.lockupEnd) return 0n
  if (schedule.vestingSeconds === 0 || now >= schedule.lockupEnd + schedule.vestingSeconds) return schedule.total
  return (schedule.total * BigInt(now - schedule.lockupEnd)) / BigInt(schedule.vestingSeconds)
}

/** What the buyer may withdraw at `now`, having released `released` already. */
export function vestingState(schedule: VestingSchedule, now: number, released: bigint): VestingState {
  const vested = vestedAt(schedule, now)
  if (released < 0n || released > vested) throw new RangeError('released must be between 0 and what has vested')
  return { vested, locked: schedule.total - vested, releasable: vested - released }
}
