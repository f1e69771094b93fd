import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { Logger } from '../../src/common/logger.ts'
import type { BatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { type CompactBatchCommit, compactBatchCommit, compactCommitFromWalk, type PreparedBatchEntries } from '../../src/journal/compact-batch-commit.ts'
import type { Store } from '../../src/store/open-store.ts'

/**
 * What the readying pass offers for a waiting launch: its readied walk's candidates' price-free parts, in order, and
 * (kept in memory only, a hint for the commit: compactBatchCommit `byRank`) the walk's priority order.
 */
export type PreparedContent = Pick<PreparedBatchEntries, 'rows' | 'entries'> & { byRank?: ArrayLike<number> }

/**
 * The least time between two writes of one project's prepared entries. A held book whose balances or orders move every
 * block gets a new readied walk every block; its entries are written at most this often (a launch in between names the
 * last ones written, its changed entries written out in its commit), never on the tick's path.
 */
export const PREPARED_ENTRIES_EVERY_MS = 2_000

/**
 * A launch's batch entries written ahead of it (issue 23 item 3; docs/execution.md §8, "The compact commit"): the
 * readying pass offers each new readied walk's entries; they are written off the tick when they changed (at most every
 * PREPARED_ENTRIES_EVERY_MS per project). The launch tick's commit then names the last ones written (compactCommit)
 * instead of writing every entry before its first send.
 */
export interface PreparedEntries {
  /** The readying pass's new walk of a waiting launch: written (later, off this turn) when it differs from the last. */
  offer(chain: ChainKey, slug: string, content: PreparedContent): void
  /**
   * The launch's commit as a compact commit naming its prepared entries, if some were written (durable) for it;
   * undefined otherwise (the record is committed in full). The entries named are kept from then on (never replaced by
   * a later offer, deleted only with the commit: BatchJournal.dropCommit, or at the next start).
   */
  compactCommit(record: BatchRecord): CompactBatchCommit | undefined
  /**
   * A readied launch's commit written straight from its walk (compactCommitFromWalk, no comparison), when the prepared
   * entries written are the ones that walk offered (`byRank`, the walk's permutation, is the very array they were
   * offered with): the commit and the entries it names, which the caller checks after the sends (commitExpandsTo).
   * Undefined otherwise (the caller uses compactCommit). Names the entries as compactCommit does.
   */
  commitFromWalk(record: BatchRecord, byRank: ArrayLike<number>): { commit: CompactBatchCommit; prepared: PreparedBatchEntries } | undefined
  /** The project's book is no longer prepared ahead: its unnamed prepared entries are deleted, nothing more written. */
  forget(chain: ChainKey, slug: string): void
  /** Prepared entries written by this process (the tests count them). */
  written(): number
  /** Resolves once no write is pending or due (the tests wait for it). */
  idle(): Promise<void>
}

interface Written {
  prepared: PreparedBatchEntries
  indexOf: Map<string, number>
  byRank: ArrayLike<number> | undefined
}

interface ProjectState {
  current?: Written
  /** Content offered and not written yet (the latest offer). */
  pending?: PreparedContent
  writing: boolean
  timer?: NodeJS.Timeout
  lastWriteAt: number
  /** Named by a commit: nothing more is written or deleted for this project here. */
  named: boolean
}

const sameContent = (a: PreparedContent, b: PreparedContent): boolean => {
  if (a.rows.length !== b.rows.length) return false
  for (let i = 0; i < a.rows.length; i++) {
    const x = a.rows[i]!
    const y = b.rows[i]!
    if (x !== y && (x[0] !== y[0] || x[1] !== y[1] || x[2] !== y[2] || x[3] !== y[3])) return false
    const p = a.entries[i]!
    const q = b.entries[i]!
    if (p !== q && (p[0] !== q[0] || p[1] !== q[1] || p[2] !== q[2])) return false
  }
  return true
}

export function createPreparedEntries(deps: { store: Store; batchJournal: BatchJournal; log: Logger; now?: () => number; everyMs?: number }): PreparedEntries {
  const now = deps.now ?? Date.now
  const everyMs = deps.everyMs ?? PREPARED_ENTRIES_EVERY_MS
  const projects = new Map<string, ProjectState>()
  // Unique across this process's writes and, by the start time, across restarts (a key is never reused).
  const run = Date.now().toString(36)
  let sequence = 0
  let written = 0
  const busy = new Set<Promise<void>>()
  const keyOf = (chain: ChainKey, slug: string) => `${chain}!${slug}`

  function track(p: Promise<void>) {
    busy.add(p)
    void p.finally(() => busy.delete(p))
  }

  function schedule(chain: ChainKey, slug: string, state: ProjectState) {
    if (state.writing || state.timer || !state.pending || state.named) return
    const wait = state.lastWriteAt + everyMs - now()
    const go = () => {
      state.timer = undefined
      track(flush(chain, slug, state))
    }
    // Never in the readying pass's own turn: the write's JSON text is built in a later one.
    state.timer = wait > 0 ? setTimeout(go, wait) : (setTimeout(go, 0) as NodeJS.Timeout)
    state.timer.unref?.()
  }

  async function flush(chain: ChainKey, slug: string, state: ProjectState): Promise<void> {
    const content = state.pending
    state.pending = undefined
    if (!content || state.named) return
    const prepared: PreparedBatchEntries = { key: `${chain}!${slug}!${run}-${++sequence}`, chain, slug, rows: content.rows, entries: content.entries }
    state.writing = true
    try {
      await deps.store.batch([deps.batchJournal.putPrepared(prepared)])
      written++
      if (state.named) {
        // A commit named the former entries while these were written: these are named by nothing.
        await deps.store.batch([deps.batchJournal.delPrepared(prepared.key)]).catch(() => undefined)
        return
      }
      const old = state.current
      const indexOf = new Map<string, number>()
      for (let i = 0; i < prepared.rows.length; i++) indexOf.set(prepared.rows[i]![0], i)
      state.current = { prepared, indexOf, byRank: content.byRank }
      state.lastWriteAt = now()
      // The former entries go once the new ones are written, unless a commit named them meanwhile (this turn decides).
      if (old && !state.named) await deps.store.batch([deps.batchJournal.delPrepared(old.prepared.key)]).catch(() => undefined)
    } catch (error) {
      deps.log.debug({ err: error, chain, slug }, "a launch's prepared entries could not be written; its commit is written in full")
    } finally {
      state.writing = false
    }
    schedule(chain, slug, state)
  }

  /** The project's current prepared entries are named by a commit: kept, nothing more written or named for it. */
  function named(state: ProjectState) {
    state.named = true
    state.pending = undefined
    // Deleted with the commit (BatchJournal.dropCommit); nothing here names them again.
    state.current = undefined
    if (state.timer) clearTimeout(state.timer)
    state.timer = undefined
  }

  return {
    offer(chain, slug, content) {
      const key = keyOf(chain, slug)
      let state = projects.get(key)
      if (!state) {
        state = { writing: false, lastWriteAt: Number.NEGATIVE_INFINITY, named: false }
        projects.set(key, state)
      }
      if (state.named) return
      const last = state.pending ?? state.current?.prepared
      if (last && sameContent(last, content)) return
      // Back to what is written: nothing to write.
      if (state.pending && state.current && sameContent(state.current.prepared, content)) {
        state.pending = undefined
        return
      }
      state.pending = content
      schedule(chain, slug, state)
    },
    compactCommit(record) {
      const state = projects.get(keyOf(record.chain, record.slug))
      const current = state?.current
      // One commit per prepared entries (its full record's write deletes them): a launch's later batches in full.
      if (!state || !current || state.named) return undefined
      const commit = compactBatchCommit(record, current.prepared, current.indexOf, current.byRank)
      if (!commit) return undefined
      named(state)
      return commit
    },
    commitFromWalk(record, byRank) {
      const state = projects.get(keyOf(record.chain, record.slug))
      const current = state?.current
      // Only the entries this very walk offered (a later walk's equal content is not written again: its permutation is
      // another array, and the commit is then compared entry by entry, compactCommit).
      if (!state || !current || state.named || current.byRank !== byRank) return undefined
      const commit = compactCommitFromWalk(record, current.prepared, byRank)
      if (!commit) return undefined
      named(state)
      return { commit, prepared: current.prepared }
    },
    forget(chain, slug) {
      const key = keyOf(chain, slug)
      const state = projects.get(key)
      if (!state || state.named) return
      projects.delete(key)
      if (state.timer) clearTimeout(state.timer)
      state.pending = undefined
      state.named = true
      const current = state.current
      if (current) track(deps.store.batch([deps.batchJournal.delPrepared(current.prepared.key)]).catch(() => undefined))
    },
    written: () => written,
    async idle() {
      for (;;) {
        const pending = [...projects.values()].some((s) => s.timer !== undefined || s.writing)
        if (!pending && busy.size === 0) return
        await Promise.all([...busy])
        if (busy.size === 0) await new Promise((resolve) => setTimeout(resolve, 5))
      }
    },
  }
}
