import type { Address } from 'viem'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import { planCollectChunks } from '../../src/domain/batch/plan-collect-chunks.ts'
import { COLLECT_FIXED_GAS, COLLECT_PER_BUYER_GAS, SETTLE_GAS } from '../../src/domain/batch/split-batch-gas.ts'
import type { SplitBatchRecord } from '../../src/journal/batch-records.ts'
import type { ExecutorContext } from './executor-context.ts'

/**
 * The operator accounts a split batch of `chain` is sent from, or undefined when the executor cannot send one (no
 * split reads, or a wallet layer without sendFromAccount: an external bundler, a test's fake): every sender account once
 * they all are operators of the batch buyer (batch-operators.ts), else the bundler EOA alone (the constructor's
 * operator, sender account 0).
 */
export function splitOperators(ctx: Pick<ExecutorContext, 'wallets' | 'batchOperators' | 'splitReads'>, chain: ChainKey): Address[] | undefined {
  if (!ctx.splitReads || !ctx.wallets.sendFromAccount) return undefined
  if (ctx.batchOperators.poolReady(chain)) {
    const senders = ctx.wallets.senderAddresses?.(chain) ?? []
    if (senders.length > 0) return senders
  }
  const operator = ctx.wallets.operatorAddress?.(chain)
  return operator ? [operator] : undefined
}

/**
 * The collects of `buyers` included entries (chunk j = a contiguous range of the priority order) and the settle, over
 * `operators`, as planCollectChunks decides them (fewest collects under the cap, even sizes, round-robin, the settle
 * from the operator with the fewest collects), recorded with the account of each: journaled before anything is sent.
 */
export function planSplitBatch(input: { buyers: number; operators: readonly Address[]; txGasCap: bigint; maxBuyersPerChunk?: number }): SplitBatchRecord {
  const plan = planCollectChunks({
    buyers: input.buyers,
    perBuyerGas: COLLECT_PER_BUYER_GAS,
    collectFixedGas: COLLECT_FIXED_GAS,
    settleGas: SETTLE_GAS,
    txGasCap: input.txGasCap,
    operators: input.operators.length,
    ...(input.maxBuyersPerChunk === undefined ? {} : { maxBuyersPerChunk: input.maxBuyersPerChunk }),
  })
  return {
    maxBuyersPerChunk: plan.maxBuyersPerChunk,
    txGasCap: input.txGasCap.toString(),
    operators: [...input.operators],
    chunks: plan.collects.map((c) => ({
      chunk: c.chunk,
      from: c.from,
      to: c.to,
      operator: input.operators[c.operator]!,
      gasLimit: c.gasLimit.toString(),
    })),
    settle: { operator: input.operators[plan.settle.operator]!, gasLimit: plan.settle.gasLimit.toString() },
  }
}

/** The same plan over fewer entries (orders dropped between the clearing and the executing write). */
export const replanSplitBatch = (split: SplitBatchRecord, buyers: number): SplitBatchRecord =>
  planSplitBatch({ buyers, operators: split.operators, txGasCap: BigInt(split.txGasCap), maxBuyersPerChunk: split.maxBuyersPerChunk })
