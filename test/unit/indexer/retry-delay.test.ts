import { describe, expect, it } from 'vitest'
import { MAX_RETRY_DELAY_MS, retryDelayMs } from '../../../daemon/indexer/start-indexer.ts'

describe('indexer retry delay', () => {
  it('doubles with each consecutive failure from the base delay, up to 30 s', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, 1_000))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000])
    expect(retryDelayMs(6, 1_000)).toBe(MAX_RETRY_DELAY_MS)
    expect(retryDelayMs(10_000, 1_000)).toBe(MAX_RETRY_DELAY_MS)
    expect(retryDelayMs(3, 100)).toBe(400)
  })
})
