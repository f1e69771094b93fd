import { describe, expect, it } from 'vitest'
import { blockTimeMs } from '../../../src/chain/block-time-ms.ts'
import { toBlockRef } from '../../../src/sync/sync-types.ts'

const HASH = `0x${'ab'.repeat(32)}` as const
const hex = (n: number) => `0x${n.toString(16)}`

describe("a block's time in milliseconds (Base's optional timestampMs; anvil has none)", () => {
  it("uses Base's timestampMs where the RPC gives it (viem keeps the unknown field as the RPC's hex quantity)", () => {
    // Five 200 ms blocks share the whole second 1_795_000_000; the millisecond field tells them apart.
    const block = { timestamp: 1_795_000_000n, timestampMs: hex(1_795_000_000_600) }
    expect(blockTimeMs(block)).toEqual({ ms: 1_795_000_000_600, precise: true })
    expect(blockTimeMs({ timestamp: 1_795_000_000n, timestampMs: 1_795_000_000_400n })).toEqual({ ms: 1_795_000_000_400, precise: true })
    // A log's or receipt's name for it.
    expect(blockTimeMs({ timestamp: 1_795_000_000n, blockTimestampMs: hex(1_795_000_000_200) })).toEqual({ ms: 1_795_000_000_200, precise: true })
  })

  it('falls back to the whole second without the field (anvil) or when the field disagrees with it', () => {
    expect(blockTimeMs({ timestamp: 1_795_000_000n })).toEqual({ ms: 1_795_000_000_000, precise: false })
    // Seconds instead of milliseconds, or another second altogether: not trusted.
    expect(blockTimeMs({ timestamp: 1_795_000_000n, timestampMs: 1_795_000_000 })).toEqual({ ms: 1_795_000_000_000, precise: false })
    expect(blockTimeMs({ timestamp: 1_795_000_000n, timestampMs: 'soon' })).toEqual({ ms: 1_795_000_000_000, precise: false })
  })

  it('the block ref the indexer works with carries the milliseconds, and its whole-second timestamp is unchanged (fee schedules use it)', () => {
    const ref = toBlockRef({ number: 7n, hash: HASH, parentHash: HASH, timestamp: 1_795_000_000n, timestampMs: hex(1_795_000_000_800) })
    expect(ref.timestamp).toBe(1_795_000_000n)
    expect(ref.timestampMs).toBe(1_795_000_000_800)
    expect(toBlockRef({ number: 7n, hash: HASH, parentHash: HASH, timestamp: 1_795_000_000n })).not.toHaveProperty('timestampMs')
  })
})
