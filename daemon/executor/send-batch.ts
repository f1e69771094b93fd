import { type Address, encodeFunctionData, type Hash, type TransactionReceipt } from 'viem'
import { txGasCapOf } from '../../src/chain/tx-gas-cap.ts'
import { batchGasLimit } from '../../src/domain/batch/batch-gas.ts'
import { PLATFORM_FEE_BPS } from '../../src/domain/execution/platform-fee.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import { batchBuyerAbi, batchEntry } from './batch-buyer-abi.ts'
import type { ExecutorContext } from './executor-context.ts'
import { withSupersedeGas } from './superseded-batches.ts'

/** What became of sending a batch: not sent at all, or sent and then mined (either way) or not known to be. */
export type BatchSendOutcome =
  | { kind: 'not_sent'; reason: string }
  | { kind: 'mined'; txHash: Hash; receipt: TransactionReceipt }
  | { kind: 'not_mined'; txHash: Hash; pending: boolean }

export type BatchSenderContext = Pick<ExecutorContext, 'chains' | 'wallets' | 'feeRecipient' | 'log' | 'batchOperators'>

/** The batch transaction is out: its hash and the sender account that signed it (known unless sendCall names none). */
export interface BatchSent {
  txHash: Hash
  from?: Address
}

/** The route of a batch's one swap (executeBatch's and a split batch's settle): exactly a single buy's. */
export function batchRoute(ctx: Pick<ExecutorContext, 'chains' | 'feeRecipient'>, record: BatchRecord, launch: LaunchRecord) {
  const { addresses } = ctx.chains[record.chain]
  return {
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
}

/** The lowest included limit committed with the batch (0: none), which the contract checks the clearing against. */
export const committedLowestLimit = (record: BatchRecord): bigint => (record.lowestLimitFdv === null ? 0n : BigInt(record.lowestLimitFdv))

/** The batch's last block, sent with its executeBatch or collects; a record without one is never sent (it predates it). */
export function lastBlockOf(record: BatchRecord): bigint {
  if (record.validUntilBlock === undefined) throw new Error(`batch ${record.batchId} has no last block journaled`)
  return BigInt(record.validUntilBlock)
}

/**
 * The executeBatch call of a journaled batch: the route is exactly a single buy's (stablecoin, WETH, the v3 pool, the
 * bridge, the launch's pool key, token, fee recipient, the 3% fee), one entry word per included order in the
 * clearing's order, the lowest included limit committed (0: none), the allocation committed for a later sweep, the
 * batch's last block (refused after it) and the released batches it supersedes (journaled with it: §8, "A price-reverted
 * batch, superseded").
 */
export function executeBatchData(ctx: Pick<ExecutorContext, 'chains' | 'feeRecipient'>, record: BatchRecord, launch: LaunchRecord): `0x${string}` {
  const route = batchRoute(ctx, record, launch)
  const entries = record.included.map((e) => batchEntry(e.wallet, BigInt(e.spendAtoms)))
  const lowest = committedLowestLimit(record)
  return encodeFunctionData({
    abi: batchBuyerAbi,
    functionName: 'executeBatch',
    args: [record.batchId, route, entries, lowest, false, lastBlockOf(record), record.supersedes ?? []],
  })
}

/**
 * Sends a journaled batch as one plain transaction with a gas limit from the measured figures under the chain's
 * per-transaction cap, and follows it to its receipt. From the freest sender account (`sendFromPool`: its own nonces,
 * the launch tip in the launch's first blocks) once every sender account of the chain is an operator of the batch
 * buyer (batch-operators.ts), else from the bundler EOA (`sendCall`, the constructor's operator). Never throws: the
 * outcome says what happened. `onSent` records the hash and the sender before the wait.
 */
export async function sendBatch(
  ctx: BatchSenderContext,
  record: BatchRecord,
  launch: LaunchRecord,
  onSent: (sent: BatchSent) => Promise<void>,
): Promise<BatchSendOutcome> {
  const { sendFromPool, sendCall, operatorAddress } = ctx.wallets
  const fromPool = sendFromPool && ctx.batchOperators.poolReady(record.chain)
  if (!fromPool && !sendCall) return { kind: 'not_sent', reason: 'no operator account on this chain' }
  let sent: { hash: Hash; from: Address | undefined; landed: Promise<{ receipt: TransactionReceipt | undefined; pending: boolean }> }
  try {
    const cap = txGasCapOf(ctx.chains[record.chain])
    const gas = withSupersedeGas(batchGasLimit(record.included.length, cap), record.supersedes, cap)
    const call = { to: record.batchBuyer, data: executeBatchData(ctx, record, launch), gas }
    const fields = { batchId: record.batchId, buyers: record.included.length }
    if (fromPool) {
      // The batch lands in the block after its tick: in the launch's first blocks it offers the launch tip.
      sent = await sendFromPool(record.chain, call, fields, { launchBlock: BigInt(record.launchBlock), landsIn: BigInt(record.tickBlock) + 1n })
    } else {
      const operatorSent = await sendCall!(record.chain, call, fields)
      sent = { ...operatorSent, from: operatorAddress?.(record.chain) }
    }
  } catch (error) {
    ctx.log.warn({ err: error, batchId: record.batchId, slug: record.slug }, 'batch not sent')
    return { kind: 'not_sent', reason: `batch not sent: ${error instanceof Error ? error.message : String(error)}` }
  }
  const { from } = sent
  await onSent({ txHash: sent.hash, ...(from ? { from } : {}) }).catch((error) =>
    ctx.log.warn({ err: error, batchId: record.batchId }, 'recording the batch transaction failed; the chain is asked after a restart'),
  )
  const landed = await sent.landed
  return landed.receipt ? { kind: 'mined', txHash: sent.hash, receipt: landed.receipt } : { kind: 'not_mined', txHash: sent.hash, pending: landed.pending }
}
