import type { CandidateOrder } from '../../src/domain/execution/prepared-book.ts'
import type { BatchEntryRecord, BatchRecord } from '../../src/journal/batch-records.ts'
import type { InFlightExecution, LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'
import type { ExecutorContext } from './executor-context.ts'

/**
 * The in-flight record of one order's buy, written with its move to `executing` (a single UserOperation, or an entry
 * of a batch when `batchId` is given): one shape for both paths, read back by settling and by the restart.
 */
export function inFlightEntry(
  ctx: Pick<ExecutorContext, 'orders'>,
  launch: Pick<LaunchRecord, 'chain' | 'token'>,
  tick: Pick<PriceTick, 'blockNumber'>,
  buy: { candidate: Pick<CandidateOrder, 'order' | 'userIndex' | 'wallet'>; spendAtoms: bigint; minTokensOut: bigint },
  at: number,
  batchId?: InFlightExecution['batchId'],
): InFlightExecution {
  const { order } = buy.candidate
  return {
    keyId: order.keyId,
    slug: order.slug,
    chain: launch.chain,
    userIndex: buy.candidate.userIndex,
    wallet: buy.candidate.wallet,
    spendAtoms: buy.spendAtoms.toString(),
    minTokensOut: buy.minTokensOut.toString(),
    token: launch.token,
    orderId: ctx.orders.idOf(order),
    submittedAt: at,
    fromBlock: tick.blockNumber,
    ...(batchId === undefined ? {} : { batchId }),
  }
}

/**
 * The in-flight entry of one batch entry, from the batch record alone (no tick, no candidate): what the restart's roll
 * forward writes for a committed batch, and what a reorg that undid the batch writes to hold the order under it again.
 */
export const batchEntryInFlight = (
  record: Pick<BatchRecord, 'chain' | 'token' | 'at' | 'tickBlock' | 'batchId'>,
  entry: BatchEntryRecord,
  submittedAt: number = record.at,
): InFlightExecution => ({
  keyId: entry.keyId,
  slug: entry.slug,
  chain: record.chain,
  userIndex: entry.userIndex,
  wallet: entry.wallet,
  spendAtoms: entry.spendAtoms,
  // A batch entry's bound is the batch's committed lowest limit, checked on chain; this field is a single buy's.
  minTokensOut: '0',
  token: record.token,
  orderId: entry.orderId,
  submittedAt,
  fromBlock: record.tickBlock,
  batchId: record.batchId,
})
