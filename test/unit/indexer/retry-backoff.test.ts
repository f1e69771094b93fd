import { describe, expect, it } from 'vitest'
import { retryBlockAfter } from '../../../daemon/indexer/launch-intake.ts'

describe('quarantine backoff', () => {
  it('retries 2, 4, 8 ... seconds after each failed attempt, never more than 512 s apart: 1, 2, 4 ... 256 blocks of 2 s', () => {
    expect([1, 2, 3, 4, 9, 10, 40].map((attempts) => retryBlockAfter(100n, attempts, 2) - 100n)).toEqual([1n, 2n, 4n, 8n, 256n, 256n, 256n])
  })

  it('spaces retries by the same wall time on 200 ms blocks (Base since Denim): ten times the blocks', () => {
    expect([1, 2, 3, 4, 9, 10, 40].map((attempts) => retryBlockAfter(100n, attempts, 0.2) - 100n)).toEqual([10n, 20n, 40n, 80n, 2560n, 2560n, 2560n])
  })
})
