import { encodeFunctionData } from 'viem'
import { txGasCapOf } from '../../src/chain/tx-gas-cap.ts'
import { sweepChunk } from '../../src/domain/batch/batch-gas.ts'
import { paidWords } from '../../src/domain/batch/paid-words.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { batchBuyerAbi } from './batch-buyer-abi.ts'
import type { ExecutorContext } from './executor-context.ts'
import { chunkEntries } from './send-split-batch.ts'
import type { SplitChainReads } from './split-chain-reads.ts'

export type ChunkDrainContext = Pick<ExecutorContext, 'chains' | 'wallets' | 'log' | 'stopped'> & { splitReads: SplitChainReads }

/** One collected chunk to pay out: its id, its range of `included` and the CollectSkipped indexes within it. */
export interface ChunkToDrain {
  chunk: number
  from: number
  to: number
  skipped: readonly number[]
}

/** Whether every chunk was paid to its end, or why not (it resumes from the on-chain cursors: next block, next start). */
export type DrainOutcome = { kind: 'done' } | { kind: 'stopped'; reason: string }

/**
 * Pays out a split batch's collected chunks with `sweepChunk` (credits each buyer's tokens once settled) or `refund`
 * (returns each buyer's stablecoin once cancelled or expired): per chunk, from the contract's own cursor
 * (`collectedChunks(batchId, chunk).cursor`, read before each transaction) in ranges under the gas cap (≤ 500 buyers,
 * sweepChunk's sizing in batch-gas.ts), so a range that already landed (before a crash, or sent by anyone: both are
 * open to all) is never sent again. The paid words are the chunk's entries with its skipped buyers zeroed (paidWords),
 * which the contract checks against the chunk's hash. From the sender pool (not only the bundler EOA) when it can.
 */
export async function drainSplitChunks(
  ctx: ChunkDrainContext,
  record: BatchRecord,
  chunks: readonly ChunkToDrain[],
  functionName: 'sweepChunk' | 'refund',
): Promise<DrainOutcome> {
  const { sendFromPool, sendCall } = ctx.wallets
  const send = sendFromPool
    ? (call: { to: `0x${string}`; data: `0x${string}`; gas: bigint }, fields: Record<string, unknown>) => sendFromPool(record.chain, call, fields)
    : sendCall
      ? (call: { to: `0x${string}`; data: `0x${string}`; gas: bigint }, fields: Record<string, unknown>) => sendCall(record.chain, call, fields)
      : undefined
  if (!send) return { kind: 'stopped', reason: 'no account to send from on this chain' }
  const cap = txGasCapOf(ctx.chains[record.chain])
  for (const chunk of chunks) {
    const words = paidWords(chunkEntries(record, chunk), chunk.skipped)
    const size = words.length
    const sizing = sweepChunk(size, cap)
    let failures = 0
    for (;;) {
      if (ctx.stopped()) return { kind: 'stopped', reason: 'executor stopping' }
      const { cursor } = await ctx.splitReads.chunk(record.chain, record.batchBuyer, record.batchId, chunk.chunk)
      if (cursor >= size) break
      const to = Math.min(size, cursor + sizing.buyers)
      const data = encodeFunctionData({ abi: batchBuyerAbi, functionName, args: [record.batchId, BigInt(chunk.chunk), words, BigInt(cursor), BigInt(to)] })
      const fields = { batchId: record.batchId, chunk: chunk.chunk, from: cursor, to, [functionName]: true }
      try {
        const sent = await send({ to: record.batchBuyer, data, gas: sizing.gas(to - cursor) }, fields)
        const landed = await sent.landed
        if (landed.receipt?.status === 'success') {
          failures = 0
          continue
        }
        ctx.log.warn({ ...fields, txHash: sent.hash, pending: landed.pending }, `${functionName} did not land; the cursor is read again`)
      } catch (error) {
        ctx.log.warn({ err: error, ...fields }, `${functionName} not sent`)
      }
      if (++failures >= 3) return { kind: 'stopped', reason: `three ${functionName} transactions in a row did not land` }
    }
  }
  return { kind: 'done' }
}
