import { withResolvers } from '../../src/common/with-resolvers.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { commitExpandsTo } from '../../src/journal/compact-batch-commit.ts'
import type { StoreOperation } from '../../src/store/open-store.ts'
import { type BatchWriteInput, batchMoveOps } from './batch-executing-ops.ts'
import type { BatchMovesOutcome, ExecutorFailStop, SendBatch } from './batch-writes.ts'
import type { ExecutorContext } from './executor-context.ts'
import { completeShares } from './shares-later.ts'

/** What the orders' moves are written from: the batch's planned input and the tick's decision. */
export interface BatchMoves {
  input: BatchWriteInput
  decision: () => StoreOperation
}

/** The plan after a readied launch's commit built another record than the one committed (readied-launch.ts). */
export class ReadiedLaunchMismatch extends Error {
  override name = 'ReadiedLaunchMismatch'
}

export type CommitContext = Pick<ExecutorContext, 'store' | 'journal' | 'batchJournal' | 'orders' | 'stage' | 'log'> &
  Partial<Pick<ExecutorContext, 'whenStopped' | 'failStop' | 'preparedEntries'>>

/**
 * A tick with a batch, in two writes under the orders' locks (docs/execution.md §8, "The commit record"): first the
 * batch record alone (with the single buys' own moves, if any: theirs precede their sends as before); once it is
 * written the batch's transactions go out, and once they are out the included orders' moves to `executing`, their
 * in-flight entries, the expiries and the decision. A failed commit sends nothing (rejects, as before); a failed
 * second write fail-stops the executor (a restart rolls the batch forward); a stop while the sends go out leaves the
 * moves to the restart too.
 */
export async function commitThenMove(
  ctx: CommitContext,
  single: { singleOps: StoreOperation[]; expiryOps: StoreOperation[] },
  /** Hands the tick's single buys on with the commit's promise (undefined: none); they broadcast once it is written. */
  handOff: ((committed: Promise<void>) => void) | undefined,
  batch: { record: BatchRecord; send: SendBatch } & (
    | BatchMoves
    | {
        after: () => Promise<BatchMoves>
        /**
         * The readied walk's priority order the record was built on (readied-launch.ts): its compact commit is written
         * straight from it when the prepared entries are that walk's (prepared-entries.ts `commitFromWalk`), and
         * checked after the sends, with the plan's record.
         */
        walk?: ArrayLike<number>
      }
  ),
): Promise<void> {
  const { record } = batch
  const committed = withResolvers<void>()
  committed.promise.catch(() => undefined)
  const moved = withResolvers<BatchMovesOutcome>()
  const sendsOut = batch.send(record, { committed: committed.promise, moved: moved.promise })
  // The pre-send write: the record's compact commit when its entries were written ahead (prepared-entries.ts: the
  // commit names them, its entries that differ written out; ~70 kB instead of ~2 MB for 5,000 orders), else the
  // record itself. Either is what every reader of batches sees as the `journaled` record (batch-journal.ts), and the
  // full record is written with the `sent` state after the sends (run-split-batch.ts, run-batch.ts), or at the next
  // start if the process died first (roll-forward-batches.ts). docs/execution.md §8, "The compact commit".
  ctx.stage('executor.commitStart')
  // A readied launch's commit from its walk, by construction (no entry compared before the send: checked after it).
  const fromWalk = 'after' in batch && batch.walk ? ctx.preparedEntries?.commitFromWalk(record, batch.walk) : undefined
  if (fromWalk) ctx.stage('executor.commitFromWalk')
  const compact = fromWalk?.commit ?? ctx.preparedEntries?.compactCommit(record)
  // Written whole: with its predicted shares (a readied launch's are filled in after its sends: shares-later.ts).
  if (!compact) completeShares(record)
  const commitOps = [...single.singleOps, compact ? ctx.batchJournal.putCommit(compact) : ctx.batchJournal.put(record)]
  if (compact) ctx.stage('executor.commitCompact')
  if (handOff) {
    handOff(committed.promise)
    await new Promise((resolve) => setImmediate(resolve))
  }
  ctx.stage('executor.commitBuilt')
  try {
    await ctx.store.batch(commitOps)
    committed.resolve()
  } catch (error) {
    committed.reject(error)
    moved.resolve({ kind: 'failed', error })
    throw error
  }
  ctx.stage('executor.committed')
  const outcome = await Promise.race([
    sendsOut.then(() => 'out' as const),
    (ctx.whenStopped ?? new Promise<never>(() => undefined)).then(() => 'stopped' as const),
  ])
  if (outcome === 'stopped') {
    ctx.log.warn({ batchId: record.batchId, slug: record.slug }, 'stopped while a committed batch was being sent: the next start rolls it forward')
    moved.resolve({ kind: 'abandoned', reason: 'the executor stopped while the batch was being sent' })
    return
  }
  // A readied launch's commit went out before its plan (readied-launch.ts): the plan, its split and its record run now,
  // after the sends, and must be the record committed. A difference, or a plan that fails, fail-stops the executor
  // (its moves are not written: the restart rolls the committed batch forward, as for a failed moves' write).
  let moves: BatchMoves
  // Read whole from here on (the plan's check, the commit's expansion, the moves): the shares filled in if the sends
  // did not (shares-later.ts).
  completeShares(record)
  try {
    moves = 'after' in batch ? await batch.after() : batch
    // The commit written from the walk, compared now (after the sends, as the plan's record is): it must expand to the
    // record sent, which the plan's record has just been found equal to (the roll forward expands it after a crash).
    if (fromWalk && !commitExpandsTo(fromWalk.commit, fromWalk.prepared, record))
      throw new ReadiedLaunchMismatch('the compact commit written from the readied walk does not expand to the record sent')
    if (fromWalk) ctx.stage('executor.commitFromWalk.checked')
  } catch (error) {
    moved.resolve({ kind: 'failed', error })
    ctx.failStop?.({
      kind: error instanceof ReadiedLaunchMismatch ? 'readied_launch_mismatch' : 'readied_launch_unverified',
      batchId: record.batchId,
      slug: record.slug,
      message: `the plan after readied launch batch ${record.batchId}'s commit ${error instanceof ReadiedLaunchMismatch ? 'differs from it' : 'failed'} (${error instanceof Error ? error.message : String(error)})`,
    })
    return
  }
  const ops = [...single.expiryOps, ...batchMoveOps(ctx, moves.input, record), moves.decision()]
  ctx.stage('executor.executingOpsBuilt')
  try {
    await ctx.store.batch(ops)
    moved.resolve({ kind: 'moved' })
  } catch (error) {
    moved.resolve({ kind: 'failed', error })
    const failure: ExecutorFailStop = {
      kind: 'batch_moves_not_written',
      batchId: record.batchId,
      slug: record.slug,
      message: `the orders' moves of committed batch ${record.batchId} could not be written (${error instanceof Error ? error.message : String(error)})`,
    }
    ctx.failStop?.(failure)
    return
  }
  ctx.stage('executor.executingWritten')
}
