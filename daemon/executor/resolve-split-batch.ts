import { encodeFunctionData, type Hash } from 'viem'
import type { BatchExecutionRecord, BatchRecord, SplitBatchRecord } from '../../src/journal/batch-records.ts'
import { CANCEL_GAS } from '../../src/domain/batch/split-batch-gas.ts'
import { pastLastBlock } from '../../src/domain/batch/batch-deadline.ts'
import type { ExecutorContext } from './executor-context.ts'
import { batchBuyerAbi } from './batch-buyer-abi.ts'
import type { BatchChainReads } from './batch-chain-reads.ts'
import { type ChunkDrainContext, type ChunkToDrain, drainSplitChunks } from './drain-split-chunks.ts'
import {
  COLLECTION_CANCELLED,
  COLLECTION_COLLECTING,
  COLLECTION_NONE,
  COLLECTION_SETTLED,
  type CollectedChunk,
  type CollectionOnChain,
} from './split-chain-reads.ts'

export type SplitResolverContext = ChunkDrainContext & { batchReads: Pick<BatchChainReads, 'landing'> } & Pick<ExecutorContext, 'batchDeadline'>

/** A split batch's fate as the chain decides it (the runner settles or releases its orders accordingly). */
export type SplitFate =
  /** Settled: its orders are filled from BatchSettled (the record carries which chunks were collected, and their skips). */
  | { kind: 'executed'; execution: BatchExecutionRecord; record: BatchRecord }
  /** Cancelled or expired, and every collected chunk refunded: its orders are active again. */
  | { kind: 'not_executed'; reason: string }
  /** Not known yet (its settle may still land, a cancel or a refund did not land): asked again on the next block. */
  | { kind: 'unknown' }

/**
 * What became of a split batch, acted on so that it ends settled or refunded (docs/execution.md §8, "The split batch
 * through the executor"), from `collections(batchId)`:
 * - settled → BatchSettled, the chunks' ChunkCollected and CollectSkipped: executed (a chunk never collected, its
 *   collect refused after the settle, has its buyers active again);
 * - collecting within the window, or nothing collected (a crash before or while sending): unless its settle is still
 *   in the node's pool (then asked again), `cancel` it (any collect or settle still in flight then takes nothing; a
 *   settle that lands first makes the cancel revert, and the status read after it says settled);
 * - cancelled, or collecting past the window (anyone may refund): every collected chunk refunded from its cursor, then
 *   not executed.
 * Never twice: the contract collects a chunk id once, settles once, and pays refunds and sweeps from cursors; the
 * wallet's allowance caps any pull.
 */
export async function resolveSplitBatch(ctx: SplitResolverContext, record: BatchRecord & { split: SplitBatchRecord }): Promise<SplitFate> {
  const { chain, batchBuyer, batchId } = record
  let collection = await ctx.splitReads.collection(chain, batchBuyer, batchId)
  if (collection.status === COLLECTION_SETTLED) return settledFate(ctx, record)
  if (isOpen(collection)) {
    if (record.txHash) {
      const landing = await ctx.batchReads.landing(chain, record.txHash)
      if (!landing.receipt && landing.pending) return { kind: 'unknown' }
    }
    const cancelled = await sendCancel(ctx, record)
    if (!cancelled) return { kind: 'unknown' }
    collection = await ctx.splitReads.collection(chain, batchBuyer, batchId)
    if (collection.status === COLLECTION_SETTLED) return settledFate(ctx, record)
    if (isOpen(collection)) return { kind: 'unknown' }
  }
  const collected = await ctx.splitReads.collected(chain, batchBuyer, batchId, BigInt(record.tickBlock))
  const refunds = drainable(record.split, collected)
  const refunded = await drainSplitChunks(ctx, record, refunds, 'refund')
  if (refunded.kind === 'stopped') {
    ctx.log.warn({ batchId, reason: refunded.reason }, 'refunds of a cancelled split batch stopped; asked again on the next block')
    return { kind: 'unknown' }
  }
  if (!(await noCollectCanLand(ctx, record, collected, collection.blockNumber))) return { kind: 'unknown' }
  const why = collection.status === COLLECTION_CANCELLED ? 'cancelled before it settled' : 'not settled within its window'
  return { kind: 'not_executed', reason: `split batch ${why}: ${refunds.length} collected chunk(s) refunded` }
}

/**
 * Whether no collect of the batch can pull any more (docs/execution.md §8, "A last block for every pull"): every chunk is
 * collected (a chunk id is collected once: its collect landed and was refunded) or its collect has a receipt (landed
 * after the cancel or the window: it took nothing), or the batch's last block is final at `head` (read before the
 * chunks were). A collect not collected and without a receipt (dropped, or its hash never recorded: a crash while
 * sending) may otherwise still be held by a node and land after a reorg that took the cancel with it: the batch stays
 * open until then and is asked again on the next block.
 */
async function noCollectCanLand(
  ctx: SplitResolverContext,
  record: BatchRecord & { split: SplitBatchRecord },
  collected: ReadonlyMap<number, CollectedChunk>,
  head: bigint,
): Promise<boolean> {
  if (record.validUntilBlock === undefined) return true
  if (pastLastBlock(head, BigInt(record.validUntilBlock), ctx.batchDeadline(record.chain))) return true
  for (const chunk of record.split.chunks) {
    if (collected.has(chunk.chunk)) continue
    if (!chunk.txHash || !(await ctx.batchReads.landing(record.chain, chunk.txHash)).receipt) return false
  }
  return true
}

/** Still able to settle: collecting within its window, or nothing collected and not cancelled. */
const isOpen = (c: CollectionOnChain): boolean => c.status === COLLECTION_NONE || (c.status === COLLECTION_COLLECTING && c.blockNumber <= c.settleBy)

/** The collected chunks of the plan, in chunk order, with their skips (what a sweep or a refund pays). */
function drainable(split: SplitBatchRecord, collected: ReadonlyMap<number, CollectedChunk>): ChunkToDrain[] {
  return split.chunks.flatMap((c) => {
    const k = collected.get(c.chunk)
    return k ? [{ chunk: c.chunk, from: c.from, to: c.to, skipped: k.skipped }] : []
  })
}

/** The chunks of a split record that were collected, as the record keeps them once settled. */
export const collectedChunksOf = (split: SplitBatchRecord): ChunkToDrain[] =>
  split.chunks.flatMap((c) => (c.collected ? [{ chunk: c.chunk, from: c.from, to: c.to, skipped: c.skipped ?? [] }] : []))

async function settledFate(ctx: SplitResolverContext, record: BatchRecord & { split: SplitBatchRecord }): Promise<SplitFate> {
  const { chain, batchBuyer, batchId } = record
  const from = BigInt(record.tickBlock)
  const [settled, collected] = await Promise.all([
    ctx.splitReads.settled(chain, batchBuyer, batchId, from),
    ctx.splitReads.collected(chain, batchBuyer, batchId, from),
  ])
  if (!settled) return { kind: 'unknown' }
  const skipped: number[] = []
  const notCollected: number[] = []
  let allocationHash: Hash | undefined
  const chunks = record.split.chunks.map((c) => {
    const k = collected.get(c.chunk)
    if (!k) {
      for (let i = c.from; i < c.to; i++) notCollected.push(i)
      return { ...c, collected: false }
    }
    allocationHash ??= k.paidHash
    for (const s of k.skipped) skipped.push(c.from + s)
    return { ...c, collected: true, skipped: [...k.skipped] }
  })
  const execution: BatchExecutionRecord = {
    txHash: settled.txHash,
    blockNumber: settled.blockNumber.toString(),
    totalIn: settled.totalIn.toString(),
    tokensOut: settled.tokensOut.toString(),
    skipped: [...skipped, ...notCollected].sort((a, b) => a - b),
    allocationHash: allocationHash!,
    ...(notCollected.length > 0 ? { notCollected } : {}),
  }
  return { kind: 'executed', execution, record: { ...record, split: { ...record.split, chunks } } }
}

/** cancel(batchId) from an operator (the bundler EOA, the constructor's; else the plan's settle account); true once mined. */
async function sendCancel(ctx: SplitResolverContext, record: BatchRecord & { split: SplitBatchRecord }): Promise<boolean> {
  const call = { to: record.batchBuyer, data: encodeFunctionData({ abi: batchBuyerAbi, functionName: 'cancel', args: [record.batchId] }), gas: CANCEL_GAS }
  const fields = { batchId: record.batchId, cancel: true }
  try {
    const { sendCall, sendFromAccount } = ctx.wallets
    const sent = sendCall
      ? await sendCall(record.chain, call, fields)
      : sendFromAccount
        ? await sendFromAccount(record.chain, record.split.settle.operator, call, fields)
        : undefined
    if (!sent) return false
    ctx.log.info({ batchId: record.batchId, txHash: sent.hash }, 'split batch cancelled before it settled')
    // Mined either way (a revert: it settled or was cancelled first) is an answer; the status read after says which.
    return (await sent.landed).receipt !== undefined
  } catch (error) {
    ctx.log.warn({ err: error, batchId: record.batchId }, 'cancel of a split batch not sent')
    return false
  }
}
