import { describe, expect, it } from 'vitest'
import { isLocked, MAX_LOCK_SECONDS, MAX_VESTING_SECONDS, scheduleOf, validateLockTerms } from '../../../../src/launch-methods/vesting/domain/lock-terms.ts'
import { vestingState } from '../../../../src/launch-methods/vesting/domain/vesting-schedule.ts'

describe('lock terms', () => {
  it('absent or zero terms are no lock', () => {
    expect(validateLockTerms({})).toEqual({ lockSeconds: 0, vestingSeconds: 0 })
    expect(isLocked(validateLockTerms({ lockSeconds: 0, vestingSeconds: 0 }))).toBe(false)
    expect(isLocked(validateLockTerms({ vestingSeconds: 1 }))).toBe(true)
    expect(isLocked(validateLockTerms({ lockSeconds: 1 }))).toBe(true)
  })

  it('refuses fractions, negatives and more than 4 years, each with its code', () => {
    const code = (input: { lockSeconds?: number; vestingSeconds?: number }) => {
      try {
        validateLockTerms(input)
        return 'ok'
      } catch (error) {
        return (error as { code: string }).code
      }
    }
    expect(code({ lockSeconds: MAX_LOCK_SECONDS, vestingSeconds: MAX_VESTING_SECONDS })).toBe('ok')
    expect(code({ lockSeconds: MAX_LOCK_SECONDS + 1 })).toBe('invalid_lock_seconds')
    expect(code({ lockSeconds: -1 })).toBe('invalid_lock_seconds')
    expect(code({ lockSeconds: 1.5 })).toBe('invalid_lock_seconds')
    expect(code({ vestingSeconds: MAX_VESTING_SECONDS + 1 })).toBe('invalid_vesting_seconds')
    expect(code({ vestingSeconds: Number.NaN })).toBe('invalid_vesting_seconds')
  })

  it('gives the schedule relative to the allocation block: nothing before the cliff, linear after, all at the end', () => {
    const schedule = scheduleOf({ lockSeconds: 100, vestingSeconds: 1_000 }, 1_000n, 5_000)
    expect(schedule).toEqual({ total: 1_000n, start: 5_000, lockupEnd: 5_100, vestingSeconds: 1_000 })
    expect(vestingState(schedule, 5_099, 0n)).toEqual({ vested: 0n, locked: 1_000n, releasable: 0n })
    expect(vestingState(schedule, 5_600, 100n)).toEqual({ vested: 500n, locked: 500n, releasable: 400n })
    expect(vestingState(schedule, 6_100, 0n).vested).toBe(1_000n)
  })
})
