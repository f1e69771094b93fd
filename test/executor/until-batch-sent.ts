import type { BatchRecord } from '../../src/journal/batch-records.ts'
import type { FlowHarness } from './flow-harness.ts'

/**
 * Waits until the launch block is decided or the batch's transaction is sent and not mined yet (its record's txHash:
 * for a split batch, its settle's, once the collects' sends returned); if it is not pending then, mines until it is (at
 * most 6 blocks). Returns with the transaction pending, for the test to put a transaction ahead of it.
 */
export async function untilBatchSent(h: FlowHarness, what: string, batch: () => Promise<BatchRecord | undefined>): Promise<void> {
  const pending = async () => {
    const record = await batch()
    if (!record?.txHash) return false
    return (await h.client.getTransactionReceipt({ hash: record.txHash }).catch(() => undefined)) === undefined
  }
  await h.waitFor('the launch block decided', async () => h.executor.busy() === 0 || (await pending()))
  if (!(await pending())) await h.mineUntil(what, pending, 6, 'ours')
}
