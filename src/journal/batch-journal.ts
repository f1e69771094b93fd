import type { ChainKey } from '../chain/chain-keys.ts'
import { padNumber } from '../store/cursor.ts'
import type { Store, StoreOperation, Sublevel } from '../store/open-store.ts'
import { del, put } from '../store/open-store.ts'
import { readAll } from '../store/paginate.ts'
import type { BatchRecord, BatchState } from './batch-records.ts'
import { type CompactBatchCommit, expandBatchCommit, type PreparedBatchEntries } from './compact-batch-commit.ts'

const BLOCK_WIDTH = 20
const SEQUENCE_WIDTH = 10

/** States in which a batch still needs the executor: its fate unknown, or its tokens not all swept. */
const OPEN: ReadonlySet<BatchState> = new Set(['journaled', 'sent', 'executed'])

export interface BatchJournal {
  /** The one write of a batch record (inside the caller's batch, with the orders it moves). */
  put(record: BatchRecord): StoreOperation
  /**
   * The launch tick's pre-send write when its entries were prepared ahead (docs/execution.md §8, "The compact
   * commit"): the commit naming the prepared entries, under the batch's own key in the commits sublevel. Every reader
   * below sees it as the full `journaled` record (expanded) until the full record is written.
   */
  putCommit(commit: CompactBatchCommit): StoreOperation
  /**
   * What goes with the write of a batch's full record after a compact commit made by this journal object: the commit's
   * and its prepared entries' deletions (none when the batch was committed in full). Its in-memory note is dropped.
   */
  dropCommit(record: Pick<BatchRecord, 'chain' | 'slug' | 'launchBlock' | 'sequence'>): StoreOperation[]
  /** A waiting launch's prepared entries (the readying pass's write, off the tick). */
  putPrepared(prepared: PreparedBatchEntries): StoreOperation
  delPrepared(key: string): StoreOperation
  /**
   * At start (roll forward, before anything else reads batches): every compact commit written out as its full
   * `journaled` record in one write with its commit's and prepared entries' deletions (a commit whose full record was
   * already written is only deleted); with `pruneUnnamed`, prepared entries no commit names are deleted too (the
   * readying pass of this process prepares its own again). Returns the commits expanded.
   */
  materializeCommits(options?: { pruneUnnamed?: boolean }): Promise<number>
  get(chain: ChainKey, slug: string, launchBlock: string, sequence: number): Promise<BatchRecord | undefined>
  /**
   * The next batch's sequence in this launch: one past the highest journaled (a sequence planned but never journaled
   * may be skipped; a journaled one, maybe sent, is never reused: its id may have executed).
   */
  nextSequence(chain: ChainKey, slug: string, launchBlock: string): Promise<number>
  /** Batches whose fate is unknown or whose tokens are not all swept, on a chain (or all chains). */
  open(chain?: ChainKey): Promise<BatchRecord[]>
  /** Batches journaled `swept` on a chain (whether the chain still holds their sweep: unswept-batches.ts). */
  swept(chain: ChainKey): Promise<BatchRecord[]>
  /**
   * Batches journaled `released` on a chain (or all chains) that carry a last block: at start, the released batches
   * whose transaction could still land (their last block not final) are found here (superseded-batches.ts).
   */
  released(chain?: ChainKey): Promise<BatchRecord[]>
  /** Every batch of one launch, in sequence order (`executions replay`). */
  ofLaunch(chain: ChainKey, slug: string, launchBlock: string): Promise<BatchRecord[]>
  /** The sublevel the records are written to (the console feed recognises their writes by it). */
  readonly sub: Sublevel<BatchRecord>
  /** The compact commits' sublevel (by the batch's key) and the prepared entries' (by their key). */
  readonly commitsSub: Sublevel<CompactBatchCommit>
  readonly preparedSub: Sublevel<PreparedBatchEntries>
}

export function createBatchJournal(store: Store): BatchJournal {
  const sub = store.sublevel<BatchRecord>('journal.batches')
  const commitsSub = store.sublevel<CompactBatchCommit>('journal.batchCommits')
  const preparedSub = store.sublevel<PreparedBatchEntries>('journal.batchPrepared')
  // The compact commits this object wrote, by batch key: their prepared entries' key (dropCommit).
  const committed = new Map<string, string>()
  const launchPrefix = (chain: ChainKey, slug: string, launchBlock: string) => `${chain}!${slug}!${padNumber(BigInt(launchBlock), BLOCK_WIDTH)}!`
  const keyOf = (chain: ChainKey, slug: string, launchBlock: string, sequence: number) =>
    `${launchPrefix(chain, slug, launchBlock)}${padNumber(BigInt(sequence), SEQUENCE_WIDTH)}`
  const recordKey = (r: Pick<BatchRecord, 'chain' | 'slug' | 'launchBlock' | 'sequence'>) => keyOf(r.chain, r.slug, r.launchBlock, r.sequence)

  /**
   * A compact commit (stored under `key`) as its full record (its prepared entries read). The reads are not one
   * snapshot: the batch's `sent` write (its full record, with the commit's and the prepared entries' deletions, in one
   * atomic write) may land between this reader's read of the commit and its read of the entries. Entries found gone
   * are then that write's doing, and the full record it wrote is what is read instead (CI, 2026-11-27: a test's reader
   * polling the journal while the batch was sent threw here). Gone with no full record is a broken store: it throws.
   */
  async function expand(key: string, commit: CompactBatchCommit): Promise<BatchRecord> {
    const prepared = (await preparedSub.get(commit.prepared)) as PreparedBatchEntries | undefined
    if (prepared) return expandBatchCommit(commit, prepared)
    const full = (await sub.get(key)) as BatchRecord | undefined
    if (full) return full
    throw new Error(`the compact commit of batch ${commit.record.batchId} names prepared entries ${commit.prepared} that are not stored`)
  }

  /**
   * The full records under `prefix` with the compact commits whose full record is not written yet, expanded, in key
   * order. The commits' sublevel is empty but for a launch's batch between its commit and its `sent` write (or after a
   * crash there, until the roll forward), so this is one empty range read in the common case. The commits are read
   * before the full records: the `sent` write puts a batch's full record and deletes its commit atomically, so a batch
   * whose commit is gone by the first read has its full record by the second, and no batch is missed in between.
   */
  async function withCommits(prefix: string): Promise<Array<{ key: string; value: BatchRecord }>> {
    const commits = await readAll(commitsSub, prefix)
    const records = await readAll(sub, prefix)
    if (commits.length === 0) return records
    const have = new Set(records.map((r) => r.key))
    const added: Array<{ key: string; value: BatchRecord }> = []
    for (const c of commits) if (!have.has(c.key)) added.push({ key: c.key, value: await expand(c.key, c.value) })
    if (added.length === 0) return records
    return [...records, ...added].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  }
  const all = async (prefix: string) => (await withCommits(prefix)).map((e) => e.value)

  return {
    put: (record) => put(sub, recordKey(record), record),
    putCommit(commit) {
      const key = recordKey(commit.record)
      committed.set(key, commit.prepared)
      return put(commitsSub, key, commit)
    },
    dropCommit(record) {
      const key = recordKey(record)
      const prepared = committed.get(key)
      if (prepared === undefined) return []
      committed.delete(key)
      return [del(commitsSub, key), del(preparedSub, prepared)]
    },
    putPrepared: (prepared) => put(preparedSub, prepared.key, prepared),
    delPrepared: (key) => del(preparedSub, key),
    async materializeCommits(options) {
      let expanded = 0
      const named = new Set<string>()
      for (const { key, value: commit } of await readAll(commitsSub, '')) {
        const full = await sub.get(key)
        const ops: StoreOperation[] = [del(commitsSub, key), del(preparedSub, commit.prepared)]
        if (full === undefined) {
          ops.unshift(put(sub, key, await expand(key, commit)))
          expanded++
        }
        named.add(commit.prepared)
        await store.batch(ops)
      }
      if (options?.pruneUnnamed) {
        const stale = (await preparedSub.keys().all()).filter((key) => !named.has(key))
        if (stale.length > 0) await store.batch(stale.map((key) => del(preparedSub, key)))
      }
      return expanded
    },
    async get(chain, slug, launchBlock, sequence) {
      const key = keyOf(chain, slug, launchBlock, sequence)
      // The commit first (withCommits says why): gone by this read, its full record is there by the next.
      const commit = (await commitsSub.get(key)) as CompactBatchCommit | undefined
      const full = (await sub.get(key)) as BatchRecord | undefined
      if (full) return full
      return commit ? expand(key, commit) : undefined
    },
    async nextSequence(chain, slug, launchBlock) {
      const prefix = launchPrefix(chain, slug, launchBlock)
      let next = 0
      // The commits first (withCommits says why): a batch's commit gone by this read has its full record by the next.
      for await (const value of commitsSub.values({ gte: prefix, lt: `${prefix}\xff`, reverse: true, limit: 1 }))
        next = (value as CompactBatchCommit).record.sequence + 1
      for await (const value of sub.values({ gte: prefix, lt: `${prefix}\xff`, reverse: true, limit: 1 }))
        next = Math.max(next, (value as BatchRecord).sequence + 1)
      return next
    },
    sub,
    commitsSub,
    preparedSub,
    async ofLaunch(chain, slug, launchBlock) {
      return all(launchPrefix(chain, slug, launchBlock))
    },
    async swept(chain) {
      // A compact commit is `journaled`: never swept or released.
      return (await readAll(sub, `${chain}!`)).map((e) => e.value).filter((r) => r.state === 'swept')
    },
    async released(chain) {
      return (await readAll(sub, chain ? `${chain}!` : '')).map((e) => e.value).filter((r) => r.state === 'released' && r.validUntilBlock !== undefined)
    },
    async open(chain) {
      return (await all(chain ? `${chain}!` : '')).filter((r) => OPEN.has(r.state))
    },
  }
}
