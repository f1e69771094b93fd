import { describe, expect, it } from 'vitest'
import { createAccountStateCache } from '../../../src/wallets/account-state-cache.ts'

const A = '0x00000000000000000000000000000000000000aA'
const B = '0x00000000000000000000000000000000000000bb'

describe('account state cache (states read ahead of a launch)', () => {
  it('serves a read until the account is touched by one of its own operations', () => {
    const cache = createAccountStateCache({ maxAgeMs: 60_000 })
    const read = cache.beginRead()
    cache.record(read, A, { deployed: true, nonce: 4n })
    cache.record(read, B, { deployed: false, nonce: 0n })
    // Addresses are compared case-insensitively.
    expect(cache.get(A.toLowerCase() as `0x${string}`)).toEqual({ deployed: true, nonce: 4n })
    cache.touch(A)
    expect(cache.get(A)).toBeUndefined()
    expect(cache.get(B)).toEqual({ deployed: false, nonce: 0n })
  })

  it('refuses a read that began before a touch of the account (its operation may have landed meanwhile)', () => {
    const cache = createAccountStateCache({ maxAgeMs: 60_000 })
    const read = cache.beginRead()
    cache.touch(A)
    cache.record(read, A, { deployed: true, nonce: 1n })
    cache.record(read, B, { deployed: true, nonce: 2n })
    expect(cache.get(A)).toBeUndefined()
    expect(cache.get(B)).toEqual({ deployed: true, nonce: 2n })
    // A read begun after the touch is exact again.
    cache.record(cache.beginRead(), A, { deployed: true, nonce: 2n })
    expect(cache.get(A)).toEqual({ deployed: true, nonce: 2n })
  })

  it('on a deployment ahead ending, refuses only the "not deployed" reads begun before it (the nonce is unchanged)', () => {
    const cache = createAccountStateCache({ maxAgeMs: 60_000 })
    // Read while the deployment was pending (no code yet), and one read after it landed, before its follow-up came.
    cache.record(cache.beginRead(), A, { deployed: false, nonce: 0n })
    cache.record(cache.beginRead(), B, { deployed: true, nonce: 0n })
    const travellingA = cache.beginRead()
    const travellingB = cache.beginRead()
    cache.deploymentEnded(A)
    cache.deploymentEnded(B)
    expect(cache.get(A)).toBeUndefined()
    expect(cache.get(B)).toEqual({ deployed: true, nonce: 0n })
    // A read still travelling when the deployment ended: its "not deployed" is refused, its "deployed" kept.
    cache.record(travellingA, A, { deployed: false, nonce: 0n })
    expect(cache.get(A)).toBeUndefined()
    cache.record(travellingB, A, { deployed: true, nonce: 0n })
    expect(cache.get(A)).toEqual({ deployed: true, nonce: 0n })
    // A "not deployed" read begun after the end (a dropped deployment) is served.
    cache.record(cache.beginRead(), B, { deployed: false, nonce: 0n })
    expect(cache.get(B)).toEqual({ deployed: false, nonce: 0n })
  })

  it('forgets everything on clear, including reads still travelling (a reorg)', () => {
    const cache = createAccountStateCache({ maxAgeMs: 60_000 })
    cache.record(cache.beginRead(), A, { deployed: true, nonce: 1n })
    const travelling = cache.beginRead()
    cache.clear()
    expect(cache.get(A)).toBeUndefined()
    cache.record(travelling, B, { deployed: true, nonce: 1n })
    expect(cache.get(B)).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('expires entries after the maximum age', () => {
    let now = 1_000
    const cache = createAccountStateCache({ maxAgeMs: 500, now: () => now })
    cache.record(cache.beginRead(), A, { deployed: true, nonce: 1n })
    now += 500
    expect(cache.get(A)).toEqual({ deployed: true, nonce: 1n })
    now += 1
    expect(cache.get(A)).toBeUndefined()
  })

  it('stays bounded, and a read that began before its touch marks were dropped is refused', () => {
    const cache = createAccountStateCache({ maxAgeMs: 60_000, maxEntries: 3 })
    const old = cache.beginRead()
    for (let i = 0; i < 3; i++) cache.touch(`0x${(i + 1).toString(16).padStart(40, '0')}`)
    for (let i = 3; i < 5; i++) cache.deploymentEnded(`0x${(i + 1).toString(16).padStart(40, '0')}`)
    cache.record(old, '0x0000000000000000000000000000000000000001', { deployed: true, nonce: 9n })
    expect(cache.get('0x0000000000000000000000000000000000000001')).toBeUndefined()
    const fresh = cache.beginRead()
    for (let i = 0; i < 5; i++) cache.record(fresh, `0x${(i + 10).toString(16).padStart(40, '0')}`, { deployed: true, nonce: 0n })
    expect(cache.size).toBeLessThanOrEqual(3)
  })
})
