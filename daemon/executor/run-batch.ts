import type { Address, Hash } from 'viem'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import { pastLastBlock } from '../../src/domain/batch/batch-deadline.ts'
import type { BatchExecutionRecord, BatchRecord } from '../../src/journal/batch-records.ts'
import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import type { ExecutorContext } from './executor-context.ts'
import { type BatchSenderContext, sendBatch } from './send-batch.ts'
import { type BatchSettlerContext, releaseBatch, settleExecutedBatch } from './settle-batch.ts'
import { type BatchSweeperContext, sweepBatch } from './sweep-batch.ts'
import { runSplitBatch, splitFate, sweepSplitBatch } from './run-split-batch.ts'
import type { BatchWrites } from './batch-writes.ts'
import { reopenUnsweptBatches } from './unswept-batches.ts'
import { takeBackReleasedBatch } from './take-back-released-batch.ts'

/** What the chain says about a journaled batch. */
export type BatchFate =
  /** `record`: the record to settle from when the chain told more about it (a split batch's collected chunks). */
  | { kind: 'executed'; execution: BatchExecutionRecord; record?: BatchRecord }
  /** It took nothing and never can: its orders may buy again. */
  | { kind: 'not_executed'; reason: string }
  /** Its transaction may still land (the node holds it, or the operator has transactions pending): asked again later. */
  | { kind: 'unknown' }

export type BatchRunnerContext = BatchSettlerContext &
  BatchSweeperContext &
  BatchSenderContext &
  Pick<ExecutorContext, 'withChainLock' | 'batchDeadline'> &
  Partial<Pick<ExecutorContext, 'splitReads' | 'supersededBatches' | 'reorgEpochs'>>

export interface BatchRunner {
  /**
   * Sends a batch once its commit record is written, calls `sendsOut` once its transactions are out (an executeBatch's
   * send returned; a split batch's collects and settle returned) or it sends none, follows it and settles its orders
   * only once their moves are written (batch-writes.ts `moved`; else the restart's roll forward does); never rejects.
   */
  run(record: BatchRecord, launch: LaunchRecord, writes: BatchWrites, sendsOut?: () => void): Promise<void>
  /** At start: every batch whose fate was unknown is asked of the chain (settled, released or followed), and sweeps resume. */
  reconcile(): Promise<void>
  /** On a new block: the batches still unknown on the chain are asked again. */
  recheck(chain: ChainKey): void
  /**
   * A batch a reorg undid, `sent` again with its orders executing under it (revalidate-fills.ts): asked of the chain on
   * every block until its fate is known, like a batch just sent (re-mined: settled again; else released once its last
   * block is final).
   */
  follow(record: BatchRecord): void
  /**
   * At start and after a reorg: the batches journaled swept whose sweep the chain no longer holds are written back to
   * executed and swept again from the contract's cursor (unswept-batches.ts).
   */
  resweep(chain: ChainKey): Promise<void>
  /** Batch work in progress (follow-ups and sweeps). */
  running(): Promise<void>[]
}

/** What the runner tells the executor once written. */
export interface BatchRunnerHooks {
  /**
   * A batch was released: its orders are active again. Their launch's tick is asked for the next block (a quiet pool
   * would tick only at its heartbeat): docs/execution.md §6, "Re-evaluated on the next block".
   */
  released?(record: BatchRecord): void
}

export function createBatchRunner(ctx: BatchRunnerContext, hooks: BatchRunnerHooks = {}): BatchRunner {
  const pending = new Map<Hash, BatchRecord>()
  /** The batches being swept, each with the record settled again meanwhile, to sweep next (startSweep). */
  const sweeping = new Map<Hash, BatchRecord | undefined>()
  const tasks = new Set<Promise<void>>()
  const checking = new Set<ChainKey>()
  const track = (task: Promise<void>) => {
    const run = task.catch((error) => ctx.log.error({ err: error }, 'batch work failed')).finally(() => tasks.delete(run))
    tasks.add(run)
  }

  async function fateFromChain(record: BatchRecord): Promise<BatchFate> {
    if (record.split) return splitFate(ctx, record)
    const fate = await fateOfTransaction(record)
    if (fate.kind !== 'not_executed' || record.state !== 'executed' || !record.execution) return fate
    // A batch settled as executed that the chain no longer holds: released only once its fills are gone too (the
    // indexer saw the reorg and revalidateFills undid them); while a fill of it stands, this may be a node behind the
    // chain rather than a reorg, and releasing would leave its buyers' tokens unswept: asked again on the next block.
    // From the launch's block: a fill re-pointed by a reorg may sit below the block the batch first landed in.
    const fills = await ctx.journal.fillsAbove(record.chain, BigInt(record.launchBlock) - 1n)
    if (fills.some((fill) => fill.batchId === record.batchId)) return { kind: 'unknown' }
    return { kind: 'not_executed', reason: `its execution was undone (its block is no longer on the chain); ${fate.reason}` }
  }

  async function fateOfTransaction(record: BatchRecord): Promise<BatchFate> {
    const { chain, batchBuyer, batchId } = record
    // Whether its last block is final, read before anything else: every read after it is then at a block past the last
    // one, so a transaction that landed in time is seen by them (docs/execution.md §8, "A last block for every pull").
    const final =
      record.validUntilBlock === undefined || pastLastBlock(await ctx.batchReads.head(chain), BigInt(record.validUntilBlock), ctx.batchDeadline(chain))
    if ((await ctx.batchReads.batch(chain, batchBuyer, batchId)).executed) {
      const execution = await ctx.batchReads.executionOf(chain, batchBuyer, batchId, BigInt(record.tickBlock))
      return execution ? { kind: 'executed', execution } : { kind: 'unknown' }
    }
    if (record.txHash) {
      const landing = await ctx.batchReads.landing(chain, record.txHash)
      if (landing.receipt) {
        const execution = ctx.batchReads.executionIn(batchBuyer, batchId, landing.receipt)
        return execution ? { kind: 'executed', execution } : { kind: 'not_executed', reason: revertReason(record) }
      }
      if (landing.pending) return { kind: 'unknown' }
    }
    // Not executed and no transaction of it known: it can only still land if the account that sent it has a transaction
    // pending (a fee-bumped replacement, or one whose hash was never recorded). The sender recorded with the hash is that
    // account; without one (a crash between sending and recording), any sender account may be: all are asked. With none
    // pending, the batch's nonce is spent or unused.
    const accounts = batchSenders(ctx, record)
    if (accounts.length === 0) return { kind: 'unknown' }
    const idle = await Promise.all(accounts.map((account) => ctx.batchReads.idle(chain, account)))
    if (!idle.every(Boolean)) return { kind: 'unknown' }
    // Nothing pending is not enough: a node may still hold the signed transaction, or rebroadcast it after a reorg, and
    // our account may not reuse its nonce. Only once its last block is final can it never pull (the contract refuses it
    // after that block); until then its orders stay executing and it is asked again on every block.
    if (!final) return { kind: 'unknown' }
    const deadline = record.validUntilBlock === undefined ? '' : `, and its last block ${record.validUntilBlock} is final`
    return { kind: 'not_executed', reason: `the batch transaction never landed${deadline}` }
  }

  /** The reorgs signalled on the batch's chain so far: noted before a fate is read (settle's `epoch`). */
  const epochOf = (record: BatchRecord): number | undefined => ctx.reorgEpochs?.of(record.chain)

  /** The batch's fate read from the chain now, and settled (settle, with the reorgs noted before the read). */
  async function settleFromChain(record: BatchRecord): Promise<void> {
    const epoch = epochOf(record)
    await settle(record, await fateFromChain(record), epoch)
  }

  /**
   * Writes what the chain said of a batch. `epoch`: the reorgs signalled on its chain before the fate was read; when a
   * reorg was signalled since, nothing is written and the batch is asked again on the next block (reorg-epochs.ts: the
   * fate may be of a block the reorg dropped, and the revalidation of that reorg has already looked at the fills).
   */
  async function settle(record: BatchRecord, fate: BatchFate, epoch?: number): Promise<void> {
    if (fate.kind === 'unknown') {
      pending.set(record.batchId, record)
      return
    }
    pending.delete(record.batchId)
    // A batch that superseded others and took nothing may have lost to one of them: a superseded batch that pulled after
    // all (a reorg brought its transaction back before this one landed: the contract then refused this one). Asked of
    // the chain before the write, taken back in the same chain-locked section as the release, so no tick plans those
    // orders into a new batch in between.
    const cameBack = fate.kind === 'executed' ? [] : await supersededThatPulled(record)
    const taken: BatchRecord[] = []
    const written = await ctx.withChainLock(record.chain, async () => {
      if (epoch !== undefined && epochOf(record) !== epoch) return undefined
      if (fate.kind === 'executed') return settleExecutedBatch(ctx, fate.record ?? record, fate.execution)
      // Kept as superseded before its orders are active, so every batch planned with them names it (its transaction may
      // still land after a reorg until its last block is final: docs/execution.md §8, "A price-reverted batch, superseded").
      ctx.supersededBatches?.add({ ...record, state: 'released' })
      const released = await releaseBatch(ctx, record, fate.reason)
      for (const superseded of cameBack) {
        const outcome = await takeBackReleasedBatch(ctx, superseded)
        if (outcome.kind === 'taken') taken.push(outcome.record)
        else ctx.log.warn({ batchId: superseded.batchId, heldBy: outcome.heldBy }, 'a released batch pulled after all; taken back once its orders are free')
      }
      return released
    })
    if (!written) {
      ctx.log.warn({ batchId: record.batchId, slug: record.slug }, 'a reorg was signalled while the batch was asked of the chain: asked again')
      pending.set(record.batchId, record)
      return
    }
    ctx.log.info({ batchId: record.batchId, slug: record.slug, state: written.state, buyers: record.included.length }, 'batch settled')
    if (written.state === 'executed') startSweep(written)
    if (written.state === 'released') hooks.released?.(written)
    for (const record of taken) await settleTakenBack(record)
  }

  /** The journaled released batches among `record.supersedes` that pulled on the chain. */
  async function supersededThatPulled(record: BatchRecord): Promise<BatchRecord[]> {
    if (!record.supersedes?.length) return []
    const ids = new Set(record.supersedes)
    const released = (await ctx.batchJournal.ofLaunch(record.chain, record.slug, record.launchBlock)).filter(
      (r) => ids.has(r.batchId) && r.state === 'released',
    )
    const pulled = await Promise.all(released.map((r) => pulledOnChain(r)))
    return released.filter((_, i) => pulled[i])
  }

  const pulledOnChain = async (record: BatchRecord): Promise<boolean> =>
    ctx.batchReads.pulled
      ? ctx.batchReads.pulled(record.chain, record.batchBuyer, record.batchId)
      : (await ctx.batchReads.batch(record.chain, record.batchBuyer, record.batchId)).executed

  /** A released batch taken back (its orders executing under it again): settled from the chain like a batch just sent. */
  async function settleTakenBack(record: BatchRecord): Promise<void> {
    ctx.supersededBatches?.remove(record.batchId)
    await settleFromChain(record)
  }

  /**
   * On a block: the released batches of the chain whose last block is not final yet are asked whether they pulled after
   * all (a reorg took their revert and their transaction landed again, with no superseding batch before it); one that
   * did is taken back and settled. One whose orders are in a newer batch waits for it: that batch names it and is
   * refused, and its release takes it back (above).
   */
  async function watchReleased(chain: ChainKey): Promise<void> {
    if (!ctx.supersededBatches) return
    const watched = ctx.supersededBatches.watched(chain, await ctx.batchReads.head(chain))
    for (const record of watched) {
      if (!(await pulledOnChain(record))) continue
      const outcome = await ctx.withChainLock(chain, () => takeBackReleasedBatch(ctx, record))
      if (outcome.kind === 'taken') await settleTakenBack(outcome.record)
    }
  }

  /**
   * Sweeps an executed batch, one sweep per batch at a time. A batch settled again while its sweep runs (a reorg moved
   * it: revalidate-fills.ts held it, the runner settled it from its new place) is swept again from the record as settled
   * now once the running sweep ends: that sweep carries the old execution, and stops without writing (`resettled`).
   */
  function startSweep(record: BatchRecord): void {
    if (sweeping.has(record.batchId)) {
      sweeping.set(record.batchId, record)
      return
    }
    sweeping.set(record.batchId, undefined)
    track(
      (record.split ? sweepSplitBatch(ctx, record) : sweepBatch(ctx, record)).then(
        (outcome) => {
          const newer = sweeping.get(record.batchId)
          sweeping.delete(record.batchId)
          if (outcome.kind === 'stopped') ctx.log.warn({ batchId: record.batchId, reason: outcome.reason }, 'sweep stopped; it resumes at the next start')
          if (outcome.kind === 'undone') return track(askAgain(outcome.record))
          const again = newer ?? (outcome.kind === 'resettled' && outcome.record.state === 'executed' ? outcome.record : undefined)
          if (again && !ctx.stopped()) startSweep(again)
        },
        (error: unknown) => {
          sweeping.delete(record.batchId)
          throw error
        },
      ),
    )
  }

  /**
   * An executed batch the chain no longer holds (a reorg or a restarted chain dropped its block) is asked again like an
   * unsettled one: executed again (re-mined) -> settled and swept; may still land -> asked each block; can no longer
   * land -> released. Its orders' fills are revalidateFills' to undo or re-point (a release moves only orders still
   * executing).
   */
  async function askAgain(record: BatchRecord): Promise<void> {
    ctx.log.warn({ batchId: record.batchId, slug: record.slug }, 'an executed batch is not on the chain any more; its fate is asked again')
    await settleFromChain(record)
  }

  return {
    async run(journaled, launch, writes, sendsOut = () => undefined) {
      try {
        await writes.committed
      } catch {
        sendsOut()
        return
      }
      // Settling writes the orders' outcome: only once their moves to executing are (else the restart's, after its
      // roll forward: roll-forward-batches.ts).
      const movesWritten = async (): Promise<boolean> => {
        const moves = await writes.moved
        if (moves.kind === 'moved') return true
        ctx.log.warn({ batchId: journaled.batchId, moves: moves.kind }, 'a committed batch is left to the next start: its orders were not moved')
        return false
      }
      // The reorgs signalled before anything of this batch is read from the chain (its receipt, its fate): a reorg
      // signalled before the settle's write leaves it to the next block's recheck (settle).
      const epoch = epochOf(journaled)
      const settleMoved = async (record: BatchRecord, fate: BatchFate): Promise<void> => {
        if (await movesWritten()) await settle(record, fate, epoch)
      }
      let record = journaled
      if (record.split) {
        // Asked again on the next block only once its orders were moved (else the restart asks).
        const pendingMoved = { set: (id: Hash, r: BatchRecord) => void movesWritten().then((moved) => moved && pending.set(id, r)) }
        try {
          return await runSplitBatch(ctx, record, launch, { settle: settleMoved, pending: pendingMoved }, sendsOut)
        } finally {
          sendsOut()
        }
      }
      try {
        const outcome = await sendBatch(ctx, record, launch, async ({ txHash, from }) => {
          sendsOut()
          record = { ...record, state: 'sent', txHash, ...(from ? { from } : {}) }
          // The full record (a compact commit's, too: its commit and prepared entries go in the same write).
          await ctx.store.batch([ctx.batchJournal.put(record), ...ctx.batchJournal.dropCommit(record)])
        })
        sendsOut()
        if (!(await movesWritten())) return
        if (outcome.kind === 'not_sent') return await settle(record, { kind: 'not_executed', reason: outcome.reason })
        const execution = outcome.kind === 'mined' ? ctx.batchReads.executionIn(record.batchBuyer, record.batchId, outcome.receipt) : undefined
        await settle(record, execution ? { kind: 'executed', execution } : await fateFromChain(record), epoch)
      } catch (error) {
        // A read failed: the batch is asked again on the next block (its orders stay executing until its fate is known).
        ctx.log.warn({ err: error, batchId: record.batchId }, 'settling a batch failed; asked again on the next block')
        pending.set(record.batchId, record)
      }
    },
    async reconcile() {
      await ctx.supersededBatches?.load()
      for (const record of await ctx.batchJournal.open()) {
        if (record.state === 'executed') startSweep(record)
        else await settleFromChain(record)
      }
    },
    recheck(chain) {
      const watching = (ctx.supersededBatches?.watched(chain, 0n).length ?? 0) > 0
      if (checking.has(chain) || (!watching && ![...pending.values()].some((r) => r.chain === chain))) return
      checking.add(chain)
      track(
        (async () => {
          for (const record of [...pending.values()].filter((r) => r.chain === chain)) await settleFromChain(record)
          if (watching) await watchReleased(chain)
        })().finally(() => checking.delete(chain)),
      )
    },
    follow(record) {
      pending.set(record.batchId, record)
    },
    async resweep(chain) {
      for (const record of await reopenUnsweptBatches(ctx, chain)) startSweep(record)
    },
    running: () => [...tasks],
  }
}

/** The accounts that may have sent a batch: the one recorded with its hash, else every sender account of its chain. */
function batchSenders(ctx: Pick<BatchRunnerContext, 'wallets'>, record: BatchRecord): Address[] {
  if (record.from) return [record.from]
  const senders = ctx.wallets.senderAddresses?.(record.chain) ?? []
  const operator = ctx.wallets.operatorAddress?.(record.chain)
  return [...new Set([...(operator ? [operator] : []), ...senders])]
}

/** A batch transaction mined without executing the batch reverted: the pool moved past the committed limit, or refused. */
const revertReason = (record: BatchRecord): string =>
  `batch transaction ${record.txHash} reverted (the clearing above the committed limit ${record.lowestLimitFdv ?? 'none'}, or the pool refused the swap)`
