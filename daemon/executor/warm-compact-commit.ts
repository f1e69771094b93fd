import type { Address, Hash } from 'viem'
import type { BatchEntryRecord, BatchExclusionRecord, BatchRecord } from '../../src/journal/batch-records.ts'
import { type ClearingRow, compactBatchCommit, type PreparedBatchEntries } from '../../src/journal/compact-batch-commit.ts'

export interface WarmCompactCommitOptions {
  /** Candidates of the synthetic launch (default 4,000: loops long enough for V8 to compile them). */
  candidates?: number
  /** Commits built (default 6). */
  rounds?: number
}

/** What the warm-up ran (for tests: the paths a launch's compact commit takes). */
export interface WarmCompactCommitResult {
  commits: number
  /** Included entries named by their prepared index, over all rounds (the common path). */
  named: number
  /** Included entries written out (they differed from the prepared candidate), over all rounds. */
  writtenOut: number
  /** Exclusions and clearing rows named by index, over all rounds. */
  namedRows: number
  /** Bytes of the last commit's JSON text (the store stringifies it the same way). */
  bytes: number
  /** The last round's compaction and JSON text alone (the rest of the time builds the synthetic launch). */
  lastCommitMs: number
  ms: number
}

let warmed: WarmCompactCommitResult | undefined

/** warmCompactCommit once per process (V8's compiled code is the process's), what the executor's start calls. */
export function warmCompactCommitOnce(options?: WarmCompactCommitOptions): WarmCompactCommitResult {
  warmed ??= warmCompactCommit(options)
  return warmed
}

const SLUG = '\u0000warm-compact-commit'

/**
 * The launch's compact commit (compact-batch-commit.ts) built at the executor's start on a synthetic launch, as
 * warm-held-ticks.ts does for the held tick: a launch runs `compactBatchCommit` once, between its locks and its
 * pre-send write, and the first run in a process is interpreted code: 4.1-6.8 ms for 5,000 entries in the split
 * bench against 0.4 ms warm (docs/execution.md §8, "The compact commit", its "What remains"). Here every path of it runs
 * first (entries named by the walk's rank order and by key id, entries and exclusions written out, clearing rows
 * named as the same array element and by key id), then the commit's JSON text. Nothing is read, written or kept.
 */
export function warmCompactCommit(options: WarmCompactCommitOptions = {}): WarmCompactCommitResult {
  const started = performance.now()
  const count = Math.max(8, options.candidates ?? 4_000)
  const rounds = Math.max(1, options.rounds ?? 6)
  const keyIdOf = (i: number) => `warm_${String(i).padStart(8, '0')}`
  const walletOf = (i: number): Address => `0x${(i + 1).toString(16).padStart(40, 'c')}` as Address
  const orderIdOf = (i: number): Hash => `0x${(i + 1).toString(16).padStart(64, 'd')}` as Hash
  const spendOf = (i: number) => String(1_000_000 * (1 + (i % 97)))
  const rows: ClearingRow[] = []
  const entries: PreparedBatchEntries['entries'] = []
  const indexOf = new Map<string, number>()
  for (let i = 0; i < count; i++) {
    rows.push([keyIdOf(i), spendOf(i), i % 3 === 0 ? null : String(10_000_000_000 + i), spendOf(i)])
    entries.push([i, walletOf(i), orderIdOf(i)])
    indexOf.set(keyIdOf(i), i)
  }
  // The walk's priority order: the reverse of the prepared order (any permutation; the rank hint is tried first).
  const byRank = new Uint32Array(count)
  for (let rank = 0; rank < count; rank++) byRank[rank] = count - 1 - rank
  const prepared: PreparedBatchEntries = { key: `${SLUG}!warm-1`, chain: 'base', slug: SLUG, rows, entries }
  const result: WarmCompactCommitResult = { commits: 0, named: 0, writtenOut: 0, namedRows: 0, bytes: 0, lastCommitMs: 0, ms: 0 }
  for (let round = 0; round < rounds; round++) {
    // Three quarters included in rank order, the rest excluded; every 50th included entry changed since it was
    // prepared (its spend: written out), every 40th exclusion too, every 30th clearing row a copy (named by key id).
    const included: BatchEntryRecord[] = []
    const excluded: BatchExclusionRecord[] = []
    for (let rank = 0; rank < count; rank++) {
      const k = byRank[rank]!
      const spendAtoms = rank % 50 === 7 ? String(Number(rows[k]![3]) + round + 1) : rows[k]![3]
      if (rank < (count * 3) >> 2) {
        included.push({
          keyId: rows[k]![0],
          slug: SLUG,
          userIndex: entries[k]![0],
          wallet: entries[k]![1],
          orderId: entries[k]![2],
          spendAtoms,
          rank,
          predicted: { gross: '1000', fee: '30', net: '970' },
        })
      } else {
        excluded.push({ keyId: rows[k]![0], slug: SLUG, wallet: entries[k]![1], spendAtoms: rank % 40 === 3 ? '1' : rows[k]![3], rank, reason: 'gas_budget' })
      }
    }
    const candidates = rows.map((row, i) => (i % 30 === 11 ? ([...row] as ClearingRow) : row))
    const record: BatchRecord = {
      batchId: `0x${'e'.repeat(64)}` as Hash,
      chain: 'base',
      slug: SLUG,
      launchBlock: '1',
      sequence: round,
      tickBlock: '1',
      validUntilBlock: '3',
      batchBuyer: walletOf(count + 1),
      token: walletOf(count + 2),
      lowestLimitFdv: null,
      predictedTokensOut: '1000000000000000000000',
      included,
      excluded,
      clearing: { pool: 'quote', policy: 'spend_then_limit', maxBuyers: count, totalSupply: '100000000000', candidates, evaluations: [['1', '1']] },
      state: 'journaled',
      at: 1_790_000_000_000 + round,
      swept: 0,
    }
    const commitStarted = performance.now()
    const commit = compactBatchCommit(record, prepared, indexOf, byRank)
    if (!commit) continue
    const text = JSON.stringify(commit)
    result.lastCommitMs = performance.now() - commitStarted
    result.commits++
    for (const k of commit.included) if (k !== -1) result.named++
    result.writtenOut += commit.writtenOut.length
    for (const e of commit.excluded) if (Array.isArray(e)) result.namedRows++
    for (const c of commit.candidates ?? []) if (typeof c === 'number') result.namedRows++
    result.bytes = text.length
  }
  result.ms = performance.now() - started
  return result
}
