import { describe, expect, it } from 'vitest'
import { createBatchSequences, MAX_UNTAKEN_READS } from '../../../daemon/executor/batch-sequences.ts'

/** A journal whose next sequence per launch is `stored`, counting its reads. */
function journalOf(stored: Record<string, number>) {
  const reads: string[] = []
  return {
    reads,
    nextSequence: async (chain: string, slug: string, launchBlock: string) => {
      const key = `${chain}!${slug}!${launchBlock}`
      reads.push(key)
      return stored[key] ?? 0
    },
  }
}

const launchOf = (slug: string, blockNumber = '10') => ({ chain: 'base' as const, slug, blockNumber })

describe('batch sequences', () => {
  it('take the read asked ahead (one journal read), then count', async () => {
    const journal = journalOf({ 'base!a!10': 3 })
    const sequences = createBatchSequences(journal)
    sequences.readSequenceSoon(launchOf('a'))
    sequences.readSequenceSoon(launchOf('a'))
    expect(journal.reads).toEqual(['base!a!10'])
    expect(await sequences.nextSequence(launchOf('a'))).toBe(3)
    expect(await sequences.nextSequence(launchOf('a'))).toBe(4)
    // Counted from then on: a read asked again is not made.
    sequences.readSequenceSoon(launchOf('a'))
    expect(journal.reads).toEqual(['base!a!10'])
  })

  it('keep at most MAX_UNTAKEN_READS reads never taken (hints of launches that never came), the oldest dropped', async () => {
    const journal = journalOf({ 'base!s0!10': 7 })
    const sequences = createBatchSequences(journal)
    for (let i = 0; i <= MAX_UNTAKEN_READS; i++) sequences.readSequenceSoon(launchOf(`s${i}`))
    expect(journal.reads).toHaveLength(MAX_UNTAKEN_READS + 1)
    // s0's read was dropped: asked again when its launch comes (same answer), s1's is still held.
    expect(await sequences.nextSequence(launchOf('s0'))).toBe(7)
    expect(journal.reads).toHaveLength(MAX_UNTAKEN_READS + 2)
    expect(await sequences.nextSequence(launchOf('s1'))).toBe(0)
    expect(journal.reads).toHaveLength(MAX_UNTAKEN_READS + 2)
  })
})
