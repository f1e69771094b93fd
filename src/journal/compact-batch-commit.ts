import type { Address, Hash } from 'viem'
import type { ChainKey } from '../chain/chain-keys.ts'
import { allocateBatch } from '../domain/batch/batch-allocation.ts'
import { type BatchClearingRecord, type BatchEntryRecord, type BatchExclusionRecord, type BatchRecord, predictedShareRecord } from './batch-records.ts'

/** A clearing record's candidate row: keyId, max spend, limit (null: none), what it may spend now (BatchClearingRecord). */
export type ClearingRow = BatchClearingRecord['candidates'][number]

/**
 * A waiting launch's likely batch entries, written ahead by the readying pass (docs/execution.md §8, "The compact
 * commit"): what does not depend on the launch's price, per candidate of its readied walk. A launch's commit then names
 * it (CompactBatchCommit) instead of writing every entry. Kept until the batch's full record is written, and deleted
 * with its commit.
 */
export interface PreparedBatchEntries {
  /** Its key in the prepared sublevel (`${chain}!${slug}!${id}`), named by a compact commit. */
  key: string
  chain: ChainKey
  slug: string
  /** Per candidate: its clearing row (whose spend is the entry's `spendAtoms`). */
  rows: ClearingRow[]
  /** Per candidate, at the same index: the entry's userIndex, wallet and router order id. */
  entries: Array<[userIndex: number, wallet: Address, orderId: Hash]>
}

/** An included entry written out (it differs from the prepared candidate it would name): its place and itself. */
export type WrittenOutEntry = [at: number, entry: Omit<BatchEntryRecord, 'predicted'>]
/** An excluded entry: likewise, with its reason. */
export type CompactExclusion = [index: number, rank: number, reason: BatchExclusionRecord['reason']] | BatchExclusionRecord

/**
 * The launch tick's pre-send write when its entries were prepared ahead: the batch record less its entries and its
 * clearing's rows (`record`, with those three as empty arrays, in the record's own field order), the prepared entries it
 * names (`prepared`), and per entry its prepared index or, where the launch's entry differs, the entry written out.
 * The predicted shares are not written: they are the pro-rata rule (allocateBatch) over the included spends and
 * `predictedTokensOut`, exactly as the clearing computed them (clear-batch.ts finishClearing). expandBatchCommit
 * rebuilds the full record, field for field (tested: test/unit/journal/compact-batch-commit.test.ts).
 */
export interface CompactBatchCommit {
  /** The format (a reader refuses one it does not know rather than guess). */
  format: 1
  prepared: string
  record: BatchRecord
  /**
   * Per included entry, in the entries' order: its prepared candidate's index, or -1 where it is written out
   * (`writtenOut`). Numbers only (no object per entry: the commit is built in the launch tick, before its first send).
   */
  included: number[]
  /** Per included entry, its rank. */
  ranks: number[]
  /** The included entries that differ from any prepared candidate, by their place in `included`. */
  writtenOut: WrittenOutEntry[]
  excluded: CompactExclusion[]
  /** The clearing's candidate rows (absent: the record has no clearing): a prepared index, or the row itself. */
  candidates?: Array<number | ClearingRow>
}

const sameRow = (a: ClearingRow, b: ClearingRow): boolean => a === b || (a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3])

/**
 * The compact commit of `record` over `prepared` (`indexOf`: a prepared candidate's index by keyId), or undefined when
 * the record cannot be named that way (its clearing dropped orders under the executor: written in full as before).
 * Every entry, exclusion and row is compared field by field with the prepared candidate it names; one that differs is
 * written out, so the expansion is the record whatever changed since the entries were prepared.
 */
export function compactBatchCommit(
  record: BatchRecord,
  prepared: PreparedBatchEntries,
  indexOf: ReadonlyMap<string, number>,
  /**
   * The prepared index likely at each rank (the readied walk's priority order: prepared-entries.ts): tried before the
   * lookup by keyId, and checked by keyId like any index. A launch priced on the readied walk ranks exactly so.
   */
  byRank?: ArrayLike<number>,
): CompactBatchCommit | undefined {
  if (record.dropped !== undefined || record.chain !== prepared.chain || record.slug !== prepared.slug) return undefined
  const { rows, entries } = prepared
  const slug = record.slug
  const n = record.included.length
  const included: number[] = new Array(n)
  const ranks: number[] = new Array(n)
  const writtenOut: WrittenOutEntry[] = []
  for (let i = 0; i < n; i++) {
    const e = record.included[i]!
    ranks[i] = e.rank
    const guess = byRank === undefined ? undefined : byRank[e.rank]
    const k = guess !== undefined && rows[guess]?.[0] === e.keyId ? guess : indexOf.get(e.keyId)
    const p = k === undefined ? undefined : entries[k]
    if (k !== undefined && p && e.slug === slug && e.userIndex === p[0] && e.wallet === p[1] && e.orderId === p[2] && e.spendAtoms === rows[k]![3])
      included[i] = k
    else {
      included[i] = -1
      writtenOut.push([
        i,
        { keyId: e.keyId, slug: e.slug, userIndex: e.userIndex, wallet: e.wallet, orderId: e.orderId, spendAtoms: e.spendAtoms, rank: e.rank },
      ])
    }
  }
  const excluded: CompactExclusion[] = new Array(record.excluded.length)
  for (let i = 0; i < record.excluded.length; i++) {
    const e = record.excluded[i]!
    const k = indexOf.get(e.keyId)
    const p = k === undefined ? undefined : entries[k]
    excluded[i] = k !== undefined && p && e.slug === slug && e.wallet === p[1] && e.spendAtoms === rows[k]![3] ? [k, e.rank, e.reason] : e
  }
  let candidates: Array<number | ClearingRow> | undefined
  if (record.clearing) {
    const own = record.clearing.candidates
    candidates = new Array(own.length)
    for (let i = 0; i < own.length; i++) {
      const row = own[i]!
      // The launch's candidates are the readied walk's, in its order, when the split took them (plan-batch.ts): the
      // prepared row at the same place, the same held array, is checked first (no lookup).
      if (row === rows[i]) {
        candidates[i] = i
        continue
      }
      const k = indexOf.get(row[0])
      candidates[i] = k !== undefined && sameRow(row, rows[k]!) ? k : row
    }
  }
  return commitOf(record, prepared, { included, ranks, writtenOut, excluded, candidates })
}

/** The commit's shape: the record less its entries and its clearing's rows, and what names them. */
function commitOf(
  record: BatchRecord,
  prepared: PreparedBatchEntries,
  parts: Pick<CompactBatchCommit, 'included' | 'ranks' | 'writtenOut' | 'excluded'> & { candidates: CompactBatchCommit['candidates'] | undefined },
): CompactBatchCommit {
  const { candidates, ...named } = parts
  return {
    format: 1,
    prepared: prepared.key,
    record: { ...record, included: [], excluded: [], ...(record.clearing ? { clearing: { ...record.clearing, candidates: [] } } : {}) },
    ...named,
    ...(candidates ? { candidates } : {}),
  }
}

/**
 * The compact commit of a record built on a readied walk (readied-launch.ts) over the prepared entries that same walk
 * offered (prepared-entries.ts `commitFromWalk`: its priority order `byRank` is the one the entries were written with),
 * without comparing a field: by construction the record's entry of rank r is the walk's candidate `byRank[r]`, whose
 * prepared row and entry are that candidate's, its spend the row's (plan-batch.ts `clearReadied`, `batchRecordFrom`),
 * and the clearing's rows are the walk's candidates' in their order. ~0.5 ms for 5,000 entries where
 * compactBatchCommit's comparisons take 5-8 ms, before the launch's first send (docs/execution.md §8, "The launch
 * committed on its readied walk"). The comparison is not dropped: it runs after the sends (commitExpandsTo; a
 * difference fail-stops the executor, commit-batch.ts). Undefined where the shape alone says it cannot be so.
 */
export function compactCommitFromWalk(record: BatchRecord, prepared: PreparedBatchEntries, byRank: ArrayLike<number>): CompactBatchCommit | undefined {
  if (record.dropped !== undefined || record.chain !== prepared.chain || record.slug !== prepared.slug) return undefined
  const count = prepared.rows.length
  if (byRank.length !== count || (record.clearing && record.clearing.candidates.length !== count)) return undefined
  const n = record.included.length
  const included: number[] = new Array(n)
  const ranks: number[] = new Array(n)
  for (let i = 0; i < n; i++) {
    const rank = record.included[i]!.rank
    const k = byRank[rank]
    if (k === undefined) return undefined
    ranks[i] = rank
    included[i] = k
  }
  const excluded: CompactExclusion[] = new Array(record.excluded.length)
  for (let i = 0; i < record.excluded.length; i++) {
    const e = record.excluded[i]!
    const k = byRank[e.rank]
    if (k === undefined) return undefined
    excluded[i] = [k, e.rank, e.reason]
  }
  let candidates: number[] | undefined
  if (record.clearing) {
    candidates = new Array(count)
    for (let i = 0; i < count; i++) candidates[i] = i
  }
  return commitOf(record, prepared, { included, ranks, writtenOut: [], excluded, candidates })
}

/**
 * Whether `commit` over `prepared` expands to `record`, JSON text for JSON text (what the store holds and a reader, the
 * roll forward included, sees): the check of a commit written from the walk (compactCommitFromWalk), after the sends.
 */
export function commitExpandsTo(commit: CompactBatchCommit, prepared: PreparedBatchEntries, record: BatchRecord): boolean {
  try {
    return JSON.stringify(expandBatchCommit(commit, prepared)) === JSON.stringify(record)
  } catch {
    return false
  }
}

/** The full batch record a compact commit names (what the launch tick built in memory and sent). */
export function expandBatchCommit(commit: CompactBatchCommit, prepared: PreparedBatchEntries): BatchRecord {
  if (commit.format !== 1) throw new Error(`a compact batch commit of format ${String(commit.format)} is not known to this version`)
  if (commit.prepared !== prepared.key) throw new Error(`the compact commit of batch ${commit.record.batchId} names ${commit.prepared}, not ${prepared.key}`)
  const { record } = commit
  const { rows, entries } = prepared
  const rowAt = (k: number): ClearingRow => {
    const row = rows[k]
    if (!row) throw new Error(`the compact commit of batch ${record.batchId} names candidate ${k}, which ${prepared.key} does not hold`)
    return row
  }
  if (commit.ranks.length !== commit.included.length) throw new Error(`the compact commit of batch ${record.batchId} has ranks for another count of entries`)
  const out = new Map(commit.writtenOut.map(([at, entry]) => [at, entry]))
  const open: Array<Omit<BatchEntryRecord, 'predicted'>> = commit.included.map((k, i) => {
    if (k === -1) {
      const entry = out.get(i)
      if (!entry) throw new Error(`the compact commit of batch ${record.batchId} lacks its written-out entry ${i}`)
      return entry
    }
    const row = rowAt(k)
    const [userIndex, wallet, orderId] = entries[k]!
    return { keyId: row[0], slug: record.slug, userIndex, wallet, orderId, spendAtoms: row[3], rank: commit.ranks[i]! }
  })
  // The clearing's shares (clear-batch.ts finishClearing): allocateBatch over the included spends in the entries' order.
  const { shares } = allocateBatch(
    BigInt(record.predictedTokensOut),
    open.map((e) => BigInt(e.spendAtoms)),
  )
  const included: BatchEntryRecord[] = open.map((e, i) => ({ ...e, predicted: predictedShareRecord(shares[i]!) }))
  const excluded: BatchExclusionRecord[] = commit.excluded.map((c) => {
    if (!Array.isArray(c)) return c
    const [k, rank, reason] = c
    const row = rowAt(k)
    return { keyId: row[0], slug: record.slug, wallet: entries[k]![1], spendAtoms: row[3], rank, reason }
  })
  const expanded: BatchRecord = { ...record, included, excluded }
  if (record.clearing && commit.candidates) {
    expanded.clearing = { ...record.clearing, candidates: commit.candidates.map((c) => (typeof c === 'number' ? rowAt(c) : c)) }
  }
  return expanded
}
