import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import type { ExecutorContext } from './executor-context.ts'

/** A launch's batch sequences, as the batch planner numbers them (plan-batch.ts). */
export interface BatchSequences {
  /**
   * Asks the journal for the launch's next sequence now, if not counted here yet: a LevelDB read that then runs while
   * the launch's first split waits for its allowances and clears, instead of after the clearing (docs/execution.md
   * §8, "The launch tick's split on the readied walk"), or earlier, when the launch's log arrives (its reads ahead:
   * launch-tick-reads-ahead.ts). Only the planner journals the launch's batches, each after taking its sequence through
   * `nextSequence`, so the answer cannot go stale before it is used. A launch log that never becomes a launch leaves its
   * read unused: at most MAX_UNTAKEN_READS are kept (the oldest dropped; a dropped read is asked again if needed).
   */
  readSequenceSoon(launch: LaunchKey): void
  /** The launch's next sequence: from the journal once (the read asked by readSequenceSoon, if any), then counted. */
  nextSequence(launch: LaunchKey): Promise<number>
}

type LaunchKey = Pick<LaunchRecord, 'chain' | 'slug' | 'blockNumber'>

/** Reads asked and not taken kept at most (a launch hinted that never launched leaves one). */
export const MAX_UNTAKEN_READS = 64

export function createBatchSequences(batchJournal: Pick<ExecutorContext['batchJournal'], 'nextSequence'>): BatchSequences {
  // Next sequence per launch: from the journal once, then counted here (the ticks of one project run one at a time).
  const sequences = new Map<string, number>()
  // The journal's reads asked by readSequenceSoon, not taken yet.
  const reads = new Map<string, Promise<number>>()
  const keyOf = (launch: LaunchKey) => `${launch.chain}!${launch.slug}!${launch.blockNumber}`
  const read = (launch: LaunchKey) => batchJournal.nextSequence(launch.chain, launch.slug, launch.blockNumber)
  return {
    readSequenceSoon(launch) {
      const key = keyOf(launch)
      if (sequences.has(key) || reads.has(key)) return
      const asked = read(launch)
      asked.catch(() => undefined)
      reads.set(key, asked)
      if (reads.size > MAX_UNTAKEN_READS) reads.delete(reads.keys().next().value!)
    },
    async nextSequence(launch) {
      const key = keyOf(launch)
      let next = sequences.get(key)
      if (next === undefined) {
        // The read asked when the split started, if any (taken: after a failed one the next split asks again).
        const asked = reads.get(key) ?? read(launch)
        reads.delete(key)
        next = await asked
      }
      sequences.set(key, next + 1)
      return next
    },
  }
}
