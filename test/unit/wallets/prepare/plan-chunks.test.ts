import { describe, expect, it } from 'vitest'
import { chunkSizesFor, DEFAULT_CHUNK_SIZES, planChunks, SINGLE_CHUNK_MAX } from '../../../../src/wallets/prepare/plan-chunks.ts'

const ONE_CHUNK = [Number.MAX_SAFE_INTEGER]

describe('chunk sizes', () => {
  it('keeps a small batch, or one not handed on chunk by chunk, in one chunk', () => {
    expect(chunkSizesFor(SINGLE_CHUNK_MAX, true)).toEqual(ONE_CHUNK)
    expect(chunkSizesFor(SINGLE_CHUNK_MAX + 1, false)).toEqual(ONE_CHUNK)
    expect(chunkSizesFor(SINGLE_CHUNK_MAX + 1, true)).toBe(DEFAULT_CHUNK_SIZES)
    expect(chunkSizesFor(SINGLE_CHUNK_MAX + 1, true, [2, 5])).toEqual([2, 5])
  })
})

describe('chunk plans', () => {
  it('fills chunks in request order, the last size repeating', () => {
    const senders = Array.from({ length: 10 }, (_, i) => `0x${i}`)
    const plan = planChunks(senders, new Set(), [2, 3])
    expect(plan.chunks).toEqual([
      [0, 1],
      [2, 3, 4],
      [5, 6, 7],
      [8, 9],
    ])
    expect(plan.deploys).toEqual(new Array(10).fill(false))
  })

  it('puts initCode on the first operation of a wallet it deploys, and all its operations in that chunk', () => {
    const deployers = new Set(['0xa'])
    const plan = planChunks(['0xx', '0xa', '0xy', '0xz', '0xw', '0xa'], deployers, [2])
    expect(plan.chunks).toEqual([[0, 1, 5], [2, 3], [4]])
    expect(plan.deploys).toEqual([false, true, false, false, false, false])
    expect([...deployers]).toEqual(['0xa'])
  })
})
