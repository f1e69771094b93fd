import type { Hash } from 'viem'
import type { BatchRecord } from '../../src/journal/batch-records.ts'

/**
 * What became of a committed batch's second write (the included orders' moves to `executing`, their in-flight entries
 * and the tick decision, written after the batch's sends under the same order locks):
 * - `moved`: written; the batch is settled from the chain as before;
 * - `abandoned`: the executor stopped while the sends were going out; nothing more is written by this process, and
 *   the next start rolls the batch forward (roll-forward-batches.ts) before anything else;
 * - `failed`: the write failed; the executor fail-stops (start-executor.ts), since its orders would otherwise stay
 *   `active` while their money may be collected; the next start rolls the batch forward.
 */
export type BatchMovesOutcome = { kind: 'moved' } | { kind: 'abandoned'; reason: string } | { kind: 'failed'; error: unknown }

/** The two writes of a tick with a batch: the commit record before the sends, the orders' moves after them. */
export interface BatchWrites {
  /** The commit record is written (the batch may be sent); rejects when it failed (nothing is sent). */
  committed: Promise<void>
  /** The orders' moves, once the sends went out; never rejects. Settling a batch waits for `moved`. */
  moved: Promise<BatchMovesOutcome>
}

/** Why the executor stopped itself (it does not tick again in this process; a restart rolls forward and reconciles). */
export interface ExecutorFailStop {
  /**
   * `batch_moves_not_written`: the moves' write failed; `readied_launch_mismatch`: a readied launch's plan, run after
   * its commit's sends, built another batch record than the one committed (readied-launch.ts);
   * `readied_launch_unverified`: that plan failed (the record could not be checked).
   */
  kind: 'batch_moves_not_written' | 'readied_launch_mismatch' | 'readied_launch_unverified'
  batchId: Hash
  slug: string
  message: string
}

/**
 * Called once the batch's commit record is built, with its two writes: send once `committed` succeeded, settle only
 * after `moved`. Resolves once the batch's first transactions are out (or it sends none): the orders' moves are built
 * and written only then, so they never delay a send.
 */
export type SendBatch = (record: BatchRecord, writes: BatchWrites) => Promise<void>
