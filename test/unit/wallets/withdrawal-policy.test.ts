import { describe, expect, it } from 'vitest'
import { createWithdrawalCounter } from '../../../src/wallets/withdrawal-policy.ts'

const HOUR = 3_600_000

describe('withdrawal counter (withdrawal-policy.ts)', () => {
  it('allows `limit` withdrawals per wallet in any hour, then says when the oldest leaves the window', () => {
    let now = 1_000_000
    const counter = createWithdrawalCounter(2, HOUR, () => now)
    expect(counter.take('a')).toEqual({ allowed: true })
    now += 10 * 60_000
    expect(counter.take('a')).toEqual({ allowed: true })
    expect(counter.take('b')).toEqual({ allowed: true })
    expect(counter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 50 * 60, limit: 2, resetAt: 1_000_000 + HOUR })
    // A sliding window: once the first leaves it, one more is allowed, and not two.
    now += 50 * 60_000 + 1
    expect(counter.take('a')).toEqual({ allowed: true })
    expect(counter.take('a')).toMatchObject({ allowed: false })
  })

  it('stays bounded under a flood of distinct wallets, keeping the most recent ones', () => {
    let now = 0
    const counter = createWithdrawalCounter(1, HOUR, () => now)
    for (let i = 0; i < 100_500; i++) counter.take(`w${i}`)
    now += 1
    // The most recent wallets are still tracked (their quota is used)...
    expect(counter.take('w100499')).toMatchObject({ allowed: false })
    // ...the oldest were forgotten to keep the map bounded (at worst they get one more withdrawal).
    expect(counter.take('w0')).toEqual({ allowed: true })
  })
})
