import type { BatchShare } from '../../src/domain/batch/batch-allocation.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import type { BatchEntryRecord, BatchExecutionRecord, BatchRecord } from '../../src/journal/batch-records.ts'
import type { FillRecord } from '../../src/journal/journal-records.ts'
import type { StoreOperation } from '../../src/store/open-store.ts'
import type { ExecutorContext } from './executor-context.ts'

/** The fill record of one buyer of a settled batch (what revalidation and the replay read), held or not. */
export function batchFillOf(record: BatchRecord, execution: BatchExecutionRecord, entry: BatchEntryRecord): FillRecord {
  return {
    chain: record.chain,
    keyId: entry.keyId,
    slug: entry.slug,
    blockNumber: execution.blockNumber,
    txHash: execution.txHash,
    wallet: entry.wallet,
    orderId: entry.orderId,
    userIndex: entry.userIndex,
    spendAtoms: entry.spendAtoms,
    token: record.token,
    batchId: record.batchId,
    batchBuyer: record.batchBuyer,
  }
}

/**
 * The share of an order a settled batch paid for though the order is no longer `executing`: a committed batch rolled
 * forward at start for an order that was deleted (or deleted and created again) after the commit
 * (roll-forward-batches.ts). Its wallet paid and the sweep credits it like every other buyer, so its contribution is
 * recorded, never dropped: the fill record (wallet, spend, batch: what revalidation and the replay read) and an order
 * event naming the share. The order's own record keeps its state (the executor may not move a deleted order).
 */
export function unheldFillOps(
  ctx: Pick<ExecutorContext, 'journal'>,
  record: BatchRecord,
  execution: BatchExecutionRecord,
  entry: BatchEntryRecord,
  share: BatchShare,
  current: OrderRecord | undefined,
  at: number,
): StoreOperation[] {
  const ops: StoreOperation[] = [ctx.journal.putFill(batchFillOf(record, execution, entry))]
  if (current)
    ops.push(
      ctx.journal.putOrderEvent({
        keyId: entry.keyId,
        slug: entry.slug,
        from: current.status,
        to: current.status,
        at,
        reason: `bought in batch ${record.batchId} (rank ${entry.rank}) as committed before the order changed; its share is the wallet's, credited by the sweep`,
        txHash: execution.txHash,
        blockNumber: execution.blockNumber,
        spendAtoms: entry.spendAtoms,
        tokensReceived: share.net.toString(),
        feeTokens: share.fee.toString(),
      }),
    )
  return ops
}
