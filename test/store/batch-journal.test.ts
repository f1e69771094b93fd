import { zeroAddress, zeroHash } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord, BatchState } from '../../src/journal/batch-records.ts'
import type { Store } from '../../src/store/open-store.ts'
import { openTempStore } from '../support/temp-store.ts'

const record = (sequence: number, state: BatchState, slug = 'proj', launchBlock = '100'): BatchRecord => ({
  batchId: zeroHash,
  chain: 'base',
  slug,
  launchBlock,
  sequence,
  tickBlock: launchBlock,
  batchBuyer: zeroAddress,
  token: zeroAddress,
  lowestLimitFdv: null,
  predictedTokensOut: '0',
  included: [],
  excluded: [],
  state,
  at: 1,
  swept: 0,
})

describe('the batch journal (journal.batches, real LevelDB)', () => {
  let store: Store
  let remove: () => Promise<void>
  beforeEach(async () => {
    ;({ store, remove } = await openTempStore('batch-journal'))
  })
  afterEach(() => remove())

  it('the next sequence is one past the highest journaled (a skipped one is never a reason to reuse a journaled id), per launch', async () => {
    const batches = createBatchJournal(store)
    expect(await batches.nextSequence('base', 'proj', '100')).toBe(0)
    await store.batch([batches.put(record(0, 'swept')), batches.put(record(2, 'released')), batches.put(record(10, 'sent', 'proj', '99'))])
    expect(await batches.nextSequence('base', 'proj', '100')).toBe(3)
    expect(await batches.nextSequence('base', 'proj', '99')).toBe(11)
    expect(await batches.nextSequence('base', 'other', '100')).toBe(0)
    expect((await batches.get('base', 'proj', '100', 2))?.state).toBe('released')
    expect(await batches.get('base', 'proj', '100', 1)).toBeUndefined()
  })

  it('open batches are those whose fate is unknown or whose tokens are not all swept', async () => {
    const batches = createBatchJournal(store)
    const states: BatchState[] = ['journaled', 'sent', 'executed', 'swept', 'released']
    await store.batch(states.map((state, i) => batches.put(record(i, state))))
    expect((await batches.open()).map((r) => r.state)).toEqual(['journaled', 'sent', 'executed'])
    expect(await batches.open('second_chain')).toEqual([])
  })

  it('released() reads back the released batches that carry a last block, per chain: what the superseded set is rebuilt from at start', async () => {
    const batches = createBatchJournal(store)
    await store.batch([
      batches.put({ ...record(0, 'released'), validUntilBlock: '160' }),
      batches.put(record(1, 'released')), // journaled before the last block: never named
      batches.put({ ...record(2, 'swept'), validUntilBlock: '161' }),
      batches.put({ ...record(3, 'released', 'other'), validUntilBlock: '162' }),
    ])
    const again = createBatchJournal(store)
    expect((await again.released()).map((r) => [r.slug, r.sequence])).toEqual([
      ['other', 3],
      ['proj', 0],
    ])
    expect(await again.released('second_chain')).toEqual([])
  })
})
