import type { Hash } from 'viem'
import type { BatchRecord, SplitBatchRecord } from '../../src/journal/batch-records.ts'
import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import { drainSplitChunks } from './drain-split-chunks.ts'
import type { ExecutorContext } from './executor-context.ts'
import { collectedChunksOf, resolveSplitBatch, type SplitFate } from './resolve-split-batch.ts'
import { type SplitSenderContext, sendSplitBatch } from './send-split-batch.ts'
import { putIfStillExecuted, type SweepOutcome } from './sweep-batch.ts'

/** What the split batch's part of the batch runner (run-batch.ts) uses. */
export type SplitRunnerContext = SplitSenderContext &
  Pick<ExecutorContext, 'store' | 'batchJournal' | 'batchReads' | 'stopped' | 'batchDeadline' | 'withChainLock'> &
  Partial<Pick<ExecutorContext, 'splitReads'>>

type SplitRecord = BatchRecord & { split: SplitBatchRecord }

/** A split batch's fate for the runner (resolve-split-batch.ts): without the split reads it cannot be known. */
export async function splitFate(ctx: SplitRunnerContext, record: BatchRecord): Promise<SplitFate> {
  const { splitReads } = ctx
  if (!splitReads || !record.split) return { kind: 'unknown' }
  return resolveSplitBatch({ ...ctx, splitReads }, record as SplitRecord)
}

/**
 * Sends a journaled split batch once its write succeeded (send-split-batch.ts: the collects, then the settle), records
 * the hashes, and settles its orders from the chain (`settle` of the runner); a fate not known yet is kept in
 * `pending` and asked again on the next block. Never rejects.
 */
export async function runSplitBatch(
  ctx: SplitRunnerContext,
  journaled: BatchRecord & { split?: SplitBatchRecord },
  launch: LaunchRecord,
  runner: { settle(record: BatchRecord, fate: SplitFate): Promise<void>; pending: { set(id: Hash, record: BatchRecord): unknown } },
  /**
   * Called once every collect's and the settle's send returned (the orders' moves are built and written then, so
   * building them never delays the settle: commit-batch.ts).
   */
  sendsOut?: () => void,
): Promise<void> {
  let record = journaled as SplitRecord
  try {
    const outcome = await sendSplitBatch(ctx, record, launch, async (split, settle) => {
      // Every collect and the settle are out: the orders' moves may take the thread now (decide-tick.ts).
      sendsOut?.()
      record = { ...record, split, state: 'sent', ...(settle ? { txHash: settle.txHash, from: settle.from } : {}) }
      // The full record (a compact commit's, too: its commit and prepared entries go in the same write).
      await ctx.store.batch([ctx.batchJournal.put(record), ...ctx.batchJournal.dropCommit(record)])
    })
    if (outcome.kind === 'sent' && outcome.landing && !outcome.landing.receipt && outcome.landing.pending) {
      // The settle is still in the node's pool: asked again on the next block (resolve waits for it while it is).
      runner.pending.set(record.batchId, record)
      return
    }
    await runner.settle(record, await splitFate(ctx, record))
  } catch (error) {
    ctx.log.warn({ err: error, batchId: record.batchId }, 'settling a split batch failed; asked again on the next block')
    runner.pending.set(record.batchId, record)
  }
}

/**
 * Credits a settled split batch's buyers: `sweepChunk` over every collected chunk from its cursor (drain-split-
 * chunks.ts), from the sender pool; the record becomes `swept` once every chunk is paid to its end (the last one pays
 * the fee recipient). A stop resumes from the cursors at the next start.
 */
export async function sweepSplitBatch(ctx: SplitRunnerContext, record: BatchRecord): Promise<SweepOutcome> {
  const { splitReads } = ctx
  if (!splitReads || !record.split) return { kind: 'stopped', record, reason: 'no split reads' }
  const outcome = await drainSplitChunks({ ...ctx, splitReads }, record, collectedChunksOf(record.split), 'sweepChunk')
  if (outcome.kind === 'stopped') return { kind: 'stopped', record, reason: outcome.reason }
  // Undone by a reorg while it was swept (the record `sent` again, its orders held), or settled again from another
  // place: not written back to swept (putIfStillExecuted).
  const swept: BatchRecord = { ...record, state: 'swept', swept: record.included.length - (record.execution?.skipped.length ?? 0) }
  return (await putIfStillExecuted(ctx, record, swept)) ?? { kind: 'done', record: swept }
}
