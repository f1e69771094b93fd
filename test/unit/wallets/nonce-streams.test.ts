import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { PrebuyError } from '../../../src/common/errors.ts'
import { createNonceStreams } from '../../../src/wallets/nonce-streams.ts'

const A: Address = '0x00000000000000000000000000000000000000aa'

describe('nonce streams', () => {
  it('never gives one account the same stream twice while in flight, and reuses released ones', () => {
    const streams = createNonceStreams()
    expect([streams.acquire(A, 10), streams.acquire(A, 10), streams.acquire(A, 10)]).toEqual([0, 1, 2])
    expect(streams.acquire('0x00000000000000000000000000000000000000bb', 10)).toBe(0)
    streams.release(A, 1)
    expect(streams.acquire(A, 10)).toBe(1)
    expect(() => {
      for (let i = 0; i < 10; i++) streams.acquire(A, 10)
    }).toThrow(PrebuyError)
  })
})
