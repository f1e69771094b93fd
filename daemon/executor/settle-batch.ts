import { zeroHash } from 'viem'
import { allocateBatch } from '../../src/domain/batch/batch-allocation.ts'
import { formatDecimal } from '../../src/domain/decimal.ts'
import { USDC_DECIMALS } from '../../src/domain/order-bounds.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import type { BatchExecutionRecord, BatchRecord } from '../../src/journal/batch-records.ts'
import type { InFlightExecution } from '../../src/journal/journal-records.ts'
import { followerCountOf } from '../../src/store/follower-count.ts'
import type { StoreOperation } from '../../src/store/open-store.ts'
import { orderKey } from '../../src/store/order-index.ts'
import type { ExecutorContext } from './executor-context.ts'
import { transitionOps } from './order-transition-ops.ts'
import { batchFillOf, unheldFillOps } from './settle-unheld-order.ts'

export type BatchSettlerContext = Pick<ExecutorContext, 'store' | 'journal' | 'batchJournal' | 'withOrderLocks' | 'now' | 'log'>

/** The reason an order skipped by its batch goes back to active with (its pull failed: it withdrew or revoked). */
export const SKIPPED_BY_BATCH = 'skipped by the batch: the wallet no longer held the spend or the approval'

/** The reason an order of a split batch's chunk that was never collected goes back to active with. */
export const NOT_COLLECTED_BY_BATCH = 'its chunk of the split batch was not collected before the settle: it waits for the next batch'

/**
 * Records what a batch's transaction did, in one write under the orders' locks: every included order that paid is
 * filled with its share (allocateBatch over what the chain says each paid: the event's tokensOut, the journaled entries,
 * the skipped ones zeroed), its fill recorded with the batch; a skipped order is active again; every in-flight entry
 * is deleted; the batch record becomes `executed` (its tokens wait for the sweep) or `swept` when nothing is to sweep.
 * Call under the chain lock. Returns the record as written.
 */
export async function settleExecutedBatch(ctx: BatchSettlerContext, record: BatchRecord, execution: BatchExecutionRecord): Promise<BatchRecord> {
  const skipped = new Set(execution.skipped)
  const notCollected = new Set(execution.notCollected ?? [])
  const paid = record.included.map((e, i) => (skipped.has(i) ? 0n : BigInt(e.spendAtoms)))
  const totalIn = paid.reduce((a, b) => a + b, 0n)
  if (totalIn.toString() !== execution.totalIn) {
    ctx.log.error({ batchId: record.batchId, journaled: totalIn.toString(), onChain: execution.totalIn }, 'a batch paid other amounts than journaled')
  }
  const allocation = allocateBatch(BigInt(execution.tokensOut), paid)
  const nothingToSweep = execution.allocationHash === zeroHash
  const next: BatchRecord = { ...record, state: nothingToSweep ? 'swept' : 'executed', txHash: execution.txHash, execution }
  await writeUnderLocks(
    ctx,
    record,
    next,
    (entry, i, current, followers, at) => {
      if (skipped.has(i)) {
        const reason = notCollected.has(i) ? NOT_COLLECTED_BY_BATCH : SKIPPED_BY_BATCH
        return transitionOps(ctx, current, 'active', at, { reason, txHash: execution.txHash }, followers)
      }
      const share = allocation.shares[i]!
      const fill = ctx.journal.putFill(batchFillOf(record, execution, entry))
      const event = {
        reason: `bought in batch ${record.batchId} (rank ${entry.rank}), held by the batch until swept`,
        txHash: execution.txHash,
        blockNumber: execution.blockNumber,
        spendAtoms: entry.spendAtoms,
        tokensReceived: share.net.toString(),
        feeTokens: share.fee.toString(),
      }
      const executionOf: NonNullable<OrderRecord['execution']> = {
        spentUsdc: formatDecimal(BigInt(entry.spendAtoms), USDC_DECIMALS),
        tokensReceived: share.net.toString(),
        feeTokens: share.fee.toString(),
        txHash: execution.txHash,
        executedAt: at,
        batch: { chain: record.chain, contract: record.batchBuyer, batchId: record.batchId },
      }
      return [fill, ...transitionOps(ctx, current, 'filled', at, event, followers, { execution: executionOf })]
    },
    (entry, i, current, at) => (skipped.has(i) ? [] : unheldFillOps(ctx, record, execution, entry, allocation.shares[i]!, current, at)),
  )
  return next
}

/** A batch that took nothing (reverted, never sent, dropped): its orders are active again, for the next tick's batch. */
export async function releaseBatch(ctx: BatchSettlerContext, record: BatchRecord, reason: string): Promise<BatchRecord> {
  const next: BatchRecord = { ...record, state: 'released', releaseReason: reason }
  await writeUnderLocks(ctx, record, next, (_entry, _i, current, followers, at) =>
    transitionOps(ctx, current, 'active', at, { reason, ...(record.txHash ? { txHash: record.txHash } : {}) }, followers),
  )
  return next
}

/**
 * Deletes the batch's in-flight entries and writes each of its still-executing orders' move and the batch record, in one
 * batch. Only the orders this batch still holds: an order whose in-flight entry names another execution (a later batch,
 * or a single UserOperation) is that execution's, and neither its entry nor its state is touched. Found by the crash
 * rounds without the `durable` wait (docs/reliability.md, "Double buys without the durable wait"): a restarted chain
 * lost the block of an executed batch B0; the reorg handling undid its fills, the next tick put the orders in batch B1,
 * then B0's fate came back "never landed" and its release moved B1's executing orders back to active (and deleted B1's
 * in-flight entries): the next tick bought them again by UserOperation while B1 executed too. Every order paid twice.
 */
async function writeUnderLocks(
  ctx: BatchSettlerContext,
  record: BatchRecord,
  next: BatchRecord,
  move: (entry: BatchRecord['included'][number], index: number, current: OrderRecord, followers: number, at: number) => StoreOperation[],
  /** An order this batch holds (its entry names it) that is not executing: rolled forward after it changed (settle-unheld-order.ts). */
  unheld?: (entry: BatchRecord['included'][number], index: number, current: OrderRecord | undefined, at: number) => StoreOperation[],
): Promise<void> {
  await ctx.withOrderLocks(
    record.included.map((e) => e.keyId),
    async () => {
      const currents = (await ctx.store.sub.orders.getMany(record.included.map((e) => orderKey(e.keyId, e.slug)))) as Array<OrderRecord | undefined>
      const inFlight = (await ctx.journal.sub.inFlight.getMany(record.included.map((e) => `${record.chain}!${e.keyId}!${e.slug}`))) as Array<
        InFlightExecution | undefined
      >
      const followers = await Promise.all(record.included.map((e) => followerCountOf(ctx.store, e.keyId)))
      const at = ctx.now()
      const ops: StoreOperation[] = [ctx.batchJournal.put(next)]
      for (const [i, entry] of record.included.entries()) {
        // No entry at all: nobody else claims the order (this batch's entry was deleted by an earlier settle of it).
        const claimed = inFlight[i]
        if (claimed !== undefined && claimed.batchId !== record.batchId) {
          const held = { batchId: record.batchId, keyId: entry.keyId, slug: entry.slug, heldBy: claimed.batchId ?? 'a single UserOperation' }
          // Released: nothing was taken, the other execution goes on. Executed: the order paid here AND is being bought
          // again (a batch re-mined after its orders were bought anew): the operator must know; no fill is invented for it.
          if (next.state === 'released') ctx.log.warn(held, 'a settled batch left alone an order another execution holds now')
          else ctx.log.error(held, 'an executed batch paid for an order another execution holds now: bought twice')
          continue
        }
        ops.push(ctx.journal.deleteInFlight({ chain: record.chain, keyId: entry.keyId, slug: entry.slug }))
        const current = currents[i]
        if (current?.status !== 'executing') {
          if (claimed?.batchId === record.batchId && unheld) ops.push(...unheld(entry, i, current, at))
          continue
        }
        ops.push(...move(entry, i, current, followers[i]!, at))
      }
      await ctx.store.batch(ops)
    },
  )
}
