import { zeroAddress, zeroHash } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord, BatchState } from '../../src/journal/batch-records.ts'
import { allocateBatch } from '../../src/domain/batch/batch-allocation.ts'
import { type ClearingRow, compactBatchCommit, type PreparedBatchEntries } from '../../src/journal/compact-batch-commit.ts'
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

describe('compact commits in the batch journal (docs/execution.md §8, "The compact commit"; real LevelDB)', () => {
  let store: Store
  let remove: () => Promise<void>
  beforeEach(async () => {
    ;({ store, remove } = await openTempStore('batch-journal-compact'))
  })
  afterEach(() => remove())

  const wallet = (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}` as `0x${string}`
  const orderId = (i: number) => `0x${(i + 1).toString(16).padStart(64, '0')}` as `0x${string}`
  /** Three candidates prepared ahead; the launch includes two and leaves one out, as a tick would record it. */
  const prepared: PreparedBatchEntries = {
    key: 'base!proj!run-1',
    chain: 'base',
    slug: 'proj',
    rows: [0, 1, 2].map((i): ClearingRow => [`key-${i}`, `${(i + 1) * 1_000_000}`, null, `${(i + 1) * 1_000_000}`]),
    entries: [0, 1, 2].map((i): [number, `0x${string}`, `0x${string}`] => [i, wallet(i), orderId(i)]),
  }
  const full = (sequence: number): BatchRecord => {
    const spends = [3_000_000n, 2_000_000n]
    const { shares } = allocateBatch(5_000n, spends)
    return {
      ...record(sequence, 'journaled'),
      predictedTokensOut: '5000',
      included: [2, 1].map((i, rank) => ({
        keyId: `key-${i}`,
        slug: 'proj',
        userIndex: i,
        wallet: wallet(i),
        orderId: orderId(i),
        spendAtoms: spends[rank]!.toString(),
        rank,
        predicted: { gross: shares[rank]!.gross.toString(), fee: shares[rank]!.fee.toString(), net: shares[rank]!.net.toString() },
      })),
      excluded: [{ keyId: 'key-0', slug: 'proj', wallet: wallet(0), spendAtoms: '1000000', rank: 2, reason: 'gas_budget' }],
      clearing: { pool: 'formula', policy: 'p', maxBuyers: 2, totalSupply: '1', candidates: prepared.rows, evaluations: [['5000000', '5000']] },
    }
  }
  const indexOf = new Map(prepared.rows.map((row, i) => [row[0], i]))

  it('every reader sees a compact commit as its full journaled record until the full record is written; a record written in full (the former format) reads as before', async () => {
    const batches = createBatchJournal(store)
    const launched = full(1)
    const commit = compactBatchCommit(launched, prepared, indexOf)!
    expect(commit.included).toEqual([2, 1])
    expect(commit.ranks).toEqual([0, 1]) // Sequence 0 written in full, as every record before this change; sequence 1 committed compact.
    await store.batch([batches.putPrepared(prepared), batches.put({ ...full(0), state: 'swept' })])
    await store.batch([batches.putCommit(commit)])
    expect(await batches.get('base', 'proj', '100', 1)).toEqual(launched)
    expect((await batches.get('base', 'proj', '100', 0))?.state).toBe('swept')
    expect(await batches.nextSequence('base', 'proj', '100')).toBe(2)
    expect(await batches.open()).toEqual([launched])
    expect((await batches.ofLaunch('base', 'proj', '100')).map((r) => [r.sequence, r.state])).toEqual([
      [0, 'swept'],
      [1, 'journaled'],
    ])
    // Its sends out: the full record, the commit and the prepared entries gone in the same write.
    const sent: BatchRecord = { ...launched, state: 'sent', txHash: zeroHash }
    const drops = batches.dropCommit(sent)
    expect(drops).toHaveLength(2)
    await store.batch([batches.put(sent), ...drops])
    expect(await batches.get('base', 'proj', '100', 1)).toEqual(sent)
    expect(await batches.commitsSub.keys().all()).toEqual([])
    expect(await batches.preparedSub.keys().all()).toEqual([])
    expect(batches.dropCommit(sent)).toEqual([])
  })

  it("a reader whose read of the prepared entries comes after the batch's sent write (not one snapshot) reads the full record it wrote", async () => {
    const batches = createBatchJournal(store)
    const launched = full(1)
    const commit = compactBatchCommit(launched, prepared, indexOf)!
    await store.batch([batches.putPrepared(prepared)])
    await store.batch([batches.putCommit(commit)])
    const sent: BatchRecord = { ...launched, state: 'sent', txHash: zeroHash }
    const drops = batches.dropCommit(sent)
    // The sent write lands between the reader's read of the commit and its read of the entries: held here, the
    // reader's read of the prepared entries waits until it is written (the race CI hit with a test's polling reader).
    const preparedSub = batches.preparedSub as unknown as { get(key: string): Promise<unknown> }
    const original = preparedSub.get.bind(preparedSub)
    let raced = 0
    preparedSub.get = async (key: string) => {
      if (raced++ === 0) await store.batch([batches.put(sent), ...drops])
      return original(key)
    }
    try {
      expect(await batches.get('base', 'proj', '100', 1)).toEqual(sent)
      expect(raced).toBe(1)
    } finally {
      preparedSub.get = original
    }
    // The sent write landing just after a reader's read of the full records (none yet): the commit is read first, so
    // the batch is found either way, by `get` and by `nextSequence` (a sequence read too low would reuse a batch id).
    const next = full(3)
    const nextCommit = compactBatchCommit(next, prepared, indexOf)!
    await store.batch([batches.putPrepared(prepared)])
    await store.batch([batches.putCommit(nextCommit)])
    const nextSent: BatchRecord = { ...next, state: 'sent', txHash: zeroHash }
    const nextDrops = batches.dropCommit(nextSent)
    const fullSub = batches.sub as unknown as { get(key: string): Promise<unknown>; values(options: object): AsyncIterable<unknown> }
    const originalGet = fullSub.get.bind(fullSub)
    const originalValues = fullSub.values.bind(fullSub)
    let landed = false
    const land = async () => {
      if (landed) return
      landed = true
      await store.batch([batches.put(nextSent), ...nextDrops])
    }
    fullSub.get = async (key: string) => {
      const value = await originalGet(key)
      await land()
      return value
    }
    try {
      expect(await batches.get('base', 'proj', '100', 3)).toEqual(nextSent)
    } finally {
      fullSub.get = originalGet
    }
    expect(landed).toBe(true)
    // nextSequence: the same with a later batch (sequence 4) and its range read.
    const later = full(4)
    const laterCommit = compactBatchCommit(later, prepared, indexOf)!
    await store.batch([batches.putPrepared(prepared)])
    await store.batch([batches.putCommit(laterCommit)])
    const laterSent: BatchRecord = { ...later, state: 'sent', txHash: zeroHash }
    const laterDrops = batches.dropCommit(laterSent)
    let laterLanded = false
    fullSub.values = (options: object) => {
      const inner = originalValues({ ...options })
      return (async function* () {
        const values: unknown[] = []
        for await (const value of inner) values.push(value)
        if (!laterLanded) {
          laterLanded = true
          // A fresh store write after the range was read: invisible to it.
          await store.batch([batches.put({ ...laterSent, sequence: 4 }), ...laterDrops])
        }
        yield* values
      })()
    }
    try {
      expect(await batches.nextSequence('base', 'proj', '100')).toBe(5)
    } finally {
      fullSub.values = originalValues
    }
    expect(laterLanded).toBe(true)
    // A commit whose entries are gone with no full record is a broken store: it throws, never guesses.
    const orphan = compactBatchCommit(full(2), { ...prepared, key: 'base!proj!gone' }, indexOf)!
    await store.batch([batches.putCommit(orphan)])
    await expect(batches.get('base', 'proj', '100', 2)).rejects.toThrow(/names prepared entries base!proj!gone that are not stored/)
  })

  it('at start, a compact commit is written out as its full record (or only deleted when its full record exists); unnamed prepared entries pruned', async () => {
    const batches = createBatchJournal(store)
    const commit = compactBatchCommit(full(0), prepared, indexOf)!
    const stale = compactBatchCommit(full(1), { ...prepared, key: 'base!proj!run-2' }, indexOf)!
    await store.batch([
      batches.putPrepared(prepared),
      batches.putPrepared({ ...prepared, key: 'base!proj!run-2' }),
      batches.putPrepared({ ...prepared, key: 'base!other!run-3' }),
      batches.putCommit(commit),
      batches.putCommit(stale),
      // The stale one's full record was written (its commit left behind: released without a `sent` write).
      batches.put({ ...full(1), state: 'released' }),
    ])
    const restarted = createBatchJournal(store)
    expect(await restarted.materializeCommits({ pruneUnnamed: true })).toBe(1)
    expect(await restarted.commitsSub.keys().all()).toEqual([])
    expect(await restarted.preparedSub.keys().all()).toEqual([])
    expect(await restarted.sub.get(`base!proj!${'0'.repeat(17)}100!${'0'.repeat(10)}`)).toEqual(full(0))
    expect((await restarted.get('base', 'proj', '100', 1))?.state).toBe('released')
    // Idempotent.
    expect(await restarted.materializeCommits()).toBe(0)
  })
})
