import { describe, expect, it } from 'vitest'
import { retryBlockAfter } from '../../../daemon/indexer/launch-intake.ts'

describe('quarantine backoff', () => {
  it('retries 1, 2, 4, ... blocks after each failed attempt, never more than 256 blocks apart', () => {
    expect([1, 2, 3, 4, 9, 10, 40].map((attempts) => retryBlockAfter(100n, attempts) - 100n)).toEqual([1n, 2n, 4n, 8n, 256n, 256n, 256n])
  })
})
