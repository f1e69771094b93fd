import { encodeFunctionData, type Hash, type TransactionReceipt } from 'viem'
import { txGasCapOf } from '../../src/chain/tx-gas-cap.ts'
import { batchGasLimit } from '../../src/domain/batch/batch-gas.ts'
import { PLATFORM_FEE_BPS } from '../../src/domain/execution/platform-fee.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import { batchBuyerAbi, batchEntry } from './batch-buyer-abi.ts'
import type { ExecutorContext } from './executor-context.ts'

/** What became of sending a batch: not sent at all, or sent and then mined (either way) or not known to be. */
export type BatchSendOutcome =
  | { kind: 'not_sent'; reason: string }
  | { kind: 'mined'; txHash: Hash; receipt: TransactionReceipt }
  | { kind: 'not_mined'; txHash: Hash; pending: boolean }

export type BatchSenderContext = Pick<ExecutorContext, 'chains' | 'wallets' | 'feeRecipient' | 'log'>

/**
 * The executeBatch call of a journaled batch: the route is exactly a single buy's (stablecoin, WETH, the v3 pool, the
 * bridge, the launch's pool key, token, fee recipient, the 3% fee), one entry word per included order in the
 * clearing's order, the lowest included limit committed (0: none), the allocation committed for a later sweep.
 */
export function executeBatchData(ctx: Pick<ExecutorContext, 'chains' | 'feeRecipient'>, record: BatchRecord, launch: LaunchRecord): `0x${string}` {
  const { addresses } = ctx.chains[record.chain]
  const route = {
    orderId: record.batchId,
    stablecoin: addresses.stablecoin,
    weth: addresses.weth,
    ethUsdPool: addresses.ethUsdPool,
    bridge: launch.paired.bridge ?? [],
    poolKey: launch.poolKey,
    token: launch.token,
    amountIn: 0n,
    minTokensOut: 0n,
    feeRecipient: ctx.feeRecipient,
    feeBps: PLATFORM_FEE_BPS,
  }
  const entries = record.included.map((e) => batchEntry(e.wallet, BigInt(e.spendAtoms)))
  const lowest = record.lowestLimitFdv === null ? 0n : BigInt(record.lowestLimitFdv)
  return encodeFunctionData({ abi: batchBuyerAbi, functionName: 'executeBatch', args: [record.batchId, route, entries, lowest, false] })
}

/**
 * Sends a journaled batch as one plain transaction of the operator account (the bundler EOA: its nonce manager, fee
 * policy and receipt polling), with a gas limit from the measured figures under the chain's per-transaction cap, and
 * follows it to its receipt. Never throws: the outcome says what happened. `onSent` records the hash before the wait.
 */
export async function sendBatch(
  ctx: BatchSenderContext,
  record: BatchRecord,
  launch: LaunchRecord,
  onSent: (txHash: Hash) => Promise<void>,
): Promise<BatchSendOutcome> {
  const send = ctx.wallets.sendCall
  if (!send) return { kind: 'not_sent', reason: 'no operator account on this chain' }
  let sent: Awaited<ReturnType<typeof send>>
  try {
    const gas = batchGasLimit(record.included.length, txGasCapOf(ctx.chains[record.chain]))
    sent = await send(
      record.chain,
      { to: record.batchBuyer, data: executeBatchData(ctx, record, launch), gas },
      { batchId: record.batchId, buyers: record.included.length },
    )
  } catch (error) {
    ctx.log.warn({ err: error, batchId: record.batchId, slug: record.slug }, 'batch not sent')
    return { kind: 'not_sent', reason: `batch not sent: ${error instanceof Error ? error.message : String(error)}` }
  }
  await onSent(sent.hash).catch((error) =>
    ctx.log.warn({ err: error, batchId: record.batchId }, 'recording the batch transaction failed; the chain is asked after a restart'),
  )
  const landed = await sent.landed
  return landed.receipt ? { kind: 'mined', txHash: sent.hash, receipt: landed.receipt } : { kind: 'not_mined', txHash: sent.hash, pending: landed.pending }
}
