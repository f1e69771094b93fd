import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPreparedEntries, type PreparedContent } from '../../../daemon/executor/prepared-entries.ts'
import { createBatchJournal } from '../../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../../src/journal/batch-records.ts'
import type { Store, StoreOperation } from '../../../src/store/open-store.ts'
import { openTempStore } from '../../support/temp-store.ts'

const quiet = { info() {}, warn() {}, debug() {}, error() {} } as never
const wallet = (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}` as `0x${string}`
const orderId = (i: number) => `0x${(i + 1).toString(16).padStart(64, '0')}` as `0x${string}`
/** A readied walk's entries: `n` candidates, the `bump`th spending 1 atom more. */
const content = (n: number, bump = -1): PreparedContent => ({
  rows: Array.from({ length: n }, (_, i) => [`key-${i}`, '5000000', null, String(5_000_000 + (i === bump ? 1 : 0))]),
  entries: Array.from({ length: n }, (_, i) => [i, wallet(i), orderId(i)]),
})
const launchRecord = (n: number): BatchRecord => ({
  batchId: zeroHashOf(1),
  chain: 'base',
  slug: 'proj',
  launchBlock: '100',
  sequence: 0,
  tickBlock: '101',
  batchBuyer: wallet(99),
  token: wallet(98),
  lowestLimitFdv: null,
  predictedTokensOut: '0',
  included: Array.from({ length: n }, (_, i) => ({
    keyId: `key-${i}`,
    slug: 'proj',
    userIndex: i,
    wallet: wallet(i),
    orderId: orderId(i),
    spendAtoms: '5000000',
    rank: i,
    predicted: { gross: '0', fee: '0', net: '0' },
  })),
  excluded: [],
  state: 'journaled',
  at: 1,
  swept: 0,
})
function zeroHashOf(i: number) {
  return `0x${i.toString(16).padStart(64, '0')}` as `0x${string}`
}

/**
 * The readying pass's writes of a launch's entries ahead (prepared-entries.ts; docs/execution.md §8, "The compact
 * commit"): counted on a real LevelDB, never timed. A held book must not cost a write per block.
 */
describe('the launch entries written ahead', () => {
  let store: Store
  let remove: () => Promise<void>
  const writes: StoreOperation[][] = []
  beforeEach(async () => {
    ;({ store, remove } = await openTempStore('prepared-entries'))
    writes.length = 0
    store.onBatch((ops) => writes.push([...ops]))
  })
  afterEach(() => remove())

  it('writes only when the entries changed, off the offering turn, at most once per interval; the former ones deleted once the new ones are written', async () => {
    const batchJournal = createBatchJournal(store)
    let clock = 0
    const prepared = createPreparedEntries({ store, batchJournal, log: quiet, now: () => clock, everyMs: 1_000 })
    prepared.offer('base', 'proj', content(50))
    // Not in the offering turn (the readying pass's): nothing written yet.
    expect(prepared.written()).toBe(0)
    await prepared.idle()
    expect(prepared.written()).toBe(1)
    // The same entries every block (new arrays, same content): nothing written.
    for (let block = 0; block < 20; block++) prepared.offer('base', 'proj', content(50))
    await prepared.idle()
    expect(prepared.written()).toBe(1)
    // Changed on every block within one interval: one write of the last, once the interval passed.
    clock = 10
    for (let block = 0; block < 5; block++) prepared.offer('base', 'proj', content(50, block))
    clock = 1_010
    await prepared.idle()
    expect(prepared.written()).toBe(2)
    const keys = await batchJournal.preparedSub.keys().all()
    expect(keys).toHaveLength(1)
    expect((await batchJournal.preparedSub.get(keys[0]!))?.rows[4]?.[3]).toBe('5000001')
  })

  it('a commit from the walk only over the entries that very walk offered (its permutation array), not a later equal one; once', async () => {
    const batchJournal = createBatchJournal(store)
    const prepared = createPreparedEntries({ store, batchJournal, log: quiet, everyMs: 0 })
    const walk = [2, 0, 1]
    prepared.offer('base', 'proj', { ...content(3), byRank: walk })
    await prepared.idle()
    // A later walk with the same entries is not written again: its permutation, equal or not, names nothing written.
    prepared.offer('base', 'proj', { ...content(3), byRank: [2, 0, 1] })
    await prepared.idle()
    expect(prepared.written()).toBe(1)
    expect(prepared.commitFromWalk(launchRecord(3), [2, 0, 1])).toBeUndefined()
    const made = prepared.commitFromWalk(launchRecord(3), walk)!
    // Rank r names the walk's candidate walk[r], with no comparison (checked after the sends: commitExpandsTo).
    expect(made.commit.included).toEqual([2, 0, 1])
    expect(made.prepared.key).toBe(made.commit.prepared)
    // Named once, as compactCommit's: a launch's later batch is committed in full.
    expect(prepared.commitFromWalk(launchRecord(3), walk)).toBeUndefined()
    expect(prepared.compactCommit(launchRecord(3))).toBeUndefined()
  })

  it('the commit names the last entries written, once; nothing more is written or deleted for the launch; forget deletes an unnamed one', async () => {
    const batchJournal = createBatchJournal(store)
    const prepared = createPreparedEntries({ store, batchJournal, log: quiet, everyMs: 0 })
    expect(prepared.compactCommit(launchRecord(3))).toBeUndefined()
    prepared.offer('base', 'proj', content(3))
    await prepared.idle()
    const commit = prepared.compactCommit(launchRecord(3))!
    expect(commit.included).toEqual([0, 1, 2]) // One commit per prepared entries (a launch's later batch is committed in full).
    expect(prepared.compactCommit({ ...launchRecord(3), sequence: 1 })).toBeUndefined()
    prepared.offer('base', 'proj', content(3, 1))
    await prepared.idle()
    expect(prepared.written()).toBe(1)
    expect(await batchJournal.preparedSub.keys().all()).toEqual([commit.prepared])
    // Another waiting project, forgotten (its book no longer prepared ahead): its entries deleted.
    prepared.offer('base', 'other', content(2))
    await prepared.idle()
    expect(await batchJournal.preparedSub.keys().all()).toHaveLength(2)
    prepared.forget('base', 'other')
    await prepared.idle()
    expect(await batchJournal.preparedSub.keys().all()).toEqual([commit.prepared])
  })

  it('a commit made while newer entries are being written names the former ones, which stay; the newer ones are deleted', async () => {
    const batchJournal = createBatchJournal(store)
    // The newer entries' write is held at a gate once asked, so the commit lands between its asking and its landing on
    // every machine (no timer race: the CI's busy machine once let the write land first).
    let held: (() => void) | undefined
    let asked: () => void = () => {}
    const writeAsked = new Promise<void>((resolve) => {
      asked = resolve
    })
    let gateNext = false
    const gated: Store = Object.create(store, {
      batch: {
        value: async (operations: readonly StoreOperation[]) => {
          if (gateNext) {
            gateNext = false
            await new Promise<void>((resolve) => {
              held = resolve
              asked()
            })
          }
          return store.batch(operations)
        },
      },
    })
    const prepared = createPreparedEntries({ store: gated, batchJournal, log: quiet, everyMs: 0 })
    prepared.offer('base', 'proj', content(3))
    await prepared.idle()
    const first = (await batchJournal.preparedSub.keys().all())[0]!
    gateNext = true
    prepared.offer('base', 'proj', content(3, 2))
    // The newer write is asked (its timer fired) but not landed when the launch commits.
    await writeAsked
    expect(prepared.written()).toBe(1)
    const commit = prepared.compactCommit(launchRecord(3))!
    expect(commit.prepared).toBe(first)
    held!()
    await prepared.idle()
    // The newer entries were written (the race taken), then deleted: named by nothing.
    expect(prepared.written()).toBe(2)
    expect(await batchJournal.preparedSub.keys().all()).toEqual([first])
  })
})
