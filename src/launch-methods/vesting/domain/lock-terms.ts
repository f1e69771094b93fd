import { z } from 'zod'
import { PrebuyError } from '../../../common/errors.ts'
import type { VestingSchedule } from './vesting-schedule.ts'

/**
 * Lock and vesting terms of a launch method's allocation (a pooled OTC offer, a dev buy): how a buyer's tokens are
 * held after the settlement or launch block, relative to that block's time (not to a wall-clock date, which the
 * settlement may pass before it runs): nothing before `lockSeconds` (the cliff), then linear over `vestingSeconds`,
 * all at its end. Both zero: no lock, the tokens go straight to the wallet. Shared by every launch method, so it knows
 * nothing of any of them.
 */
export interface LockTerms {
  /** Cliff after the allocation block's time, whole seconds (0: none). */
  lockSeconds: number
  /** Linear vesting after the cliff, whole seconds (0: everything at the cliff). */
  vestingSeconds: number
}

export const NO_LOCK: LockTerms = { lockSeconds: 0, vestingSeconds: 0 }

/**
 * Longest cliff and longest vesting period: four years each (365-day years). Longer terms are almost always a unit
 * mistake (milliseconds for seconds) and would hold buyers' tokens for a decade; the contract takes uint64 anyway.
 */
export const MAX_LOCK_SECONDS = 4 * 365 * 86_400
export const MAX_VESTING_SECONDS = 4 * 365 * 86_400

/** Whether the terms hold the tokens at all (otherwise they go to the wallets directly). */
export const isLocked = (terms: LockTerms): boolean => terms.lockSeconds > 0 || terms.vestingSeconds > 0

/**
 * The terms as request bodies carry them (both optional, absent = 0): spread into a body schema. The body checks only
 * that they are numbers; `validateLockTerms` (in the service, so the CLI's admin API and the public API refuse alike)
 * checks the range and names it with its own code, as the other offer terms are checked.
 */
export const lockTermsFields = {
  // The service checks the range (invalid_lock_seconds), so the body keeps z.number(); the document says integer.
  lockSeconds: z
    .number()
    .meta({ type: 'integer', minimum: 0, maximum: MAX_LOCK_SECONDS, examples: [2_592_000] })
    .optional()
    .describe(
      `Cliff after the settlement block’s time, whole seconds, 0 to ${MAX_LOCK_SECONDS} (4 years): nothing can be withdrawn before it. 0 or absent: no cliff. Out of range: invalid_lock_seconds.`,
    ),
  vestingSeconds: z
    .number()
    .meta({ type: 'integer', minimum: 0, maximum: MAX_VESTING_SECONDS, examples: [15_552_000] })
    .optional()
    .describe(
      `Linear vesting after the cliff, whole seconds, 0 to ${MAX_VESTING_SECONDS} (4 years; rounded down, all at its end). 0 or absent: everything at the cliff. Out of range: invalid_vesting_seconds.`,
    ),
}

/**
 * Checks lock terms from any caller (a body, a CLI flag, a stored record) and returns them complete. Refuses with
 * `invalid_lock_seconds` / `invalid_vesting_seconds` (400) naming the bound.
 */
export function validateLockTerms(input: { lockSeconds?: number | undefined; vestingSeconds?: number | undefined }): LockTerms {
  const lockSeconds = input.lockSeconds ?? 0
  const vestingSeconds = input.vestingSeconds ?? 0
  if (!Number.isSafeInteger(lockSeconds) || lockSeconds < 0 || lockSeconds > MAX_LOCK_SECONDS) {
    throw new PrebuyError('invalid_lock_seconds', `lockSeconds must be a whole number of seconds from 0 to ${MAX_LOCK_SECONDS} (4 years).`)
  }
  if (!Number.isSafeInteger(vestingSeconds) || vestingSeconds < 0 || vestingSeconds > MAX_VESTING_SECONDS) {
    throw new PrebuyError('invalid_vesting_seconds', `vestingSeconds must be a whole number of seconds from 0 to ${MAX_VESTING_SECONDS} (4 years).`)
  }
  return { lockSeconds, vestingSeconds }
}

/** The schedule the terms give an allocation of `total` made in a block of time `start` (unix seconds). */
export const scheduleOf = (terms: LockTerms, total: bigint, start: number): VestingSchedule => ({
  total,
  start,
  lockupEnd: start + terms.lockSeconds,
  vestingSeconds: terms.vestingSeconds,
})
