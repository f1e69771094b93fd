import { describe, expect, it } from 'vitest'
import { blocksIn, chainBlockSeconds, isBlockSeconds, nextBlockTimestamp, TIMING_SECONDS } from '../../../src/chain/block-seconds.ts'

describe('block seconds', () => {
  it('accepts seconds from 0.1 to 60 in whole milliseconds', () => {
    expect([0.1, 0.2, 0.25, 1, 2, 60].every(isBlockSeconds)).toBe(true)
    expect([0, 0.05, 0.2005, 61, Number.NaN, -2].some(isBlockSeconds)).toBe(false)
  })

  it('turns a wall-time budget into whole blocks of the chain', () => {
    expect(blocksIn(TIMING_SECONDS.readyLag, 2)).toBe(30)
    expect(blocksIn(TIMING_SECONDS.readyLag, 0.2)).toBe(300)
    expect(blocksIn(TIMING_SECONDS.finality, 2)).toBe(12)
    expect(blocksIn(TIMING_SECONDS.finality, 0.2)).toBe(120)
    expect(blocksIn(0.1, 2)).toBe(1)
  })

  it('prices the next block at the earliest whole second it can carry: the same second on 200 ms blocks', () => {
    expect(nextBlockTimestamp(1_000, 2)).toBe(1_002)
    expect(nextBlockTimestamp(1_000, 1.5)).toBe(1_001)
    expect(nextBlockTimestamp(1_000, 0.2)).toBe(1_000)
  })

  it('takes the devnet interval, the rpc chain’s configured one, or Base’s 200 ms', () => {
    expect(chainBlockSeconds({ mode: 'devnet', blockTime: 0.2 }, 'base')).toBe(0.2)
    expect(chainBlockSeconds({ mode: 'devnet', blockTime: 'manual' }, 'second_chain')).toBe(2)
    expect(chainBlockSeconds({ mode: 'rpc', base: {}, second_chain: { blockTime: 1 } }, 'second_chain')).toBe(1)
    expect(chainBlockSeconds({ mode: 'rpc', base: {} }, 'base')).toBe(0.2)
  })
})
