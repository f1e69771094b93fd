import { describe, expect, it } from 'vitest'
import { batchDeadlineBlocks, batchDeadlineOf, pastLastBlock, validUntilBlockOf } from '../../../src/domain/batch/batch-deadline.ts'

describe('a batch’s last block (batch-deadline.ts)', () => {
  it('counts the landing window (12 s) and the finality depth (24 s, the indexer’s reorg window) in the chain’s blocks', () => {
    expect(batchDeadlineBlocks(0.2)).toEqual({ landingBlocks: 60, finalityBlocks: 120 })
    expect(batchDeadlineBlocks(1)).toEqual({ landingBlocks: 12, finalityBlocks: 24 })
    expect(batchDeadlineBlocks(2)).toEqual({ landingBlocks: 6, finalityBlocks: 12 })
  })

  it('the last block is the tick’s plus the window; a batch can no longer pull once the head is the finality depth past it', () => {
    const deadline = { landingBlocks: 5, finalityBlocks: 3 }
    expect(validUntilBlockOf(100n, deadline)).toBe(105n)
    expect(pastLastBlock(107n, 105n, deadline)).toBe(false)
    expect(pastLastBlock(108n, 105n, deadline)).toBe(true)
  })

  it('the executor’s figures: from each chain’s block time, overridden in blocks when given', () => {
    const of = batchDeadlineOf({ blockSeconds: { base: 0.2 } })
    expect(of('base')).toEqual({ landingBlocks: 60, finalityBlocks: 120 })
    // A chain without a block time: the nominal 2 s of a devnet mined on demand.
    expect(of('second_chain')).toEqual({ landingBlocks: 6, finalityBlocks: 12 })
    expect(batchDeadlineOf({ blockSeconds: { base: 0.2 }, override: { landingBlocks: 40 } })('base')).toEqual({ landingBlocks: 40, finalityBlocks: 120 })
  })

  it('refuses override figures it could not honour (not positive integers)', () => {
    expect(() => batchDeadlineOf({ override: { landingBlocks: 0 } })).toThrow(/batchDeadline.landingBlocks must be a positive integer/)
    expect(() => batchDeadlineOf({ override: { finalityBlocks: 1.5 } })).toThrow(/batchDeadline.finalityBlocks/)
  })
})
