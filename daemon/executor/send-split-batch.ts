import { type Address, encodeFunctionData, type Hash, type Hex } from 'viem'
import type { BatchRecord, SplitBatchRecord } from '../../src/journal/batch-records.ts'
import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import type { Landing } from '../../src/wallets/bundler/poll-receipt.ts'
import { batchBuyerAbi, batchEntry } from './batch-buyer-abi.ts'
import { encodeCollect } from './encode-collect.ts'
import type { ExecutorContext } from './executor-context.ts'
import { batchRoute, committedLowestLimit, lastBlockOf } from './send-batch.ts'
import { withSupersedeGas } from './superseded-batches.ts'
import { completeShares } from './shares-later.ts'

export type SplitSenderContext = Pick<ExecutorContext, 'chains' | 'wallets' | 'feeRecipient' | 'log'> & Partial<Pick<ExecutorContext, 'stage'>>

type SentCall = Awaited<ReturnType<NonNullable<ExecutorContext['wallets']['sendFromAccount']>>>

/** A turn of the event loop (after pending I/O callbacks): what a started send needs to get its request out. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** What sending a split batch did: nothing at all, or the settle (and collects) out and the settle's landing. */
export type SplitSendOutcome = { kind: 'not_sent'; reason: string } | { kind: 'sent'; settle: Hash | undefined; landing: Landing | undefined }

/** The settle call of a journaled split batch: the batch's route (send-batch.ts batchRoute) and its committed lowest limit. */
export function splitSettleData(ctx: Pick<ExecutorContext, 'chains' | 'feeRecipient'>, record: BatchRecord, launch: LaunchRecord): `0x${string}` {
  const route = batchRoute(ctx, record, launch)
  const lowest = committedLowestLimit(record)
  return encodeFunctionData({ abi: batchBuyerAbi, functionName: 'settle', args: [record.batchId, route, lowest] })
}

/** The entry words of one chunk: its range of `included`, in order (what collect pulls and the paid words start from). */
export const chunkEntries = (record: BatchRecord, chunk: { from: number; to: number }): bigint[] =>
  record.included.slice(chunk.from, chunk.to).map((e) => batchEntry(e.wallet, BigInt(e.spendAtoms)))

/**
 * Sends a journaled split batch (its chunks, their ranges and accounts already written): every collect in turn (each
 * encoded just before its send, so the first leaves first), each from its planned account (collects of one account on consecutive nonces), then the settle from its planned account,
 * after its collects in that account's nonces and with a tip below every collect's, so that the block orders it after
 * them (Base orders by priority fee: docs.base.org/base-chain/network-information/transaction-ordering). A collect
 * landing after the settle takes nothing (NotCollecting) and its buyers wait for the next batch. `onSent` records the
 * hashes (one write) before the settle's receipt is awaited. Never throws.
 */
export async function sendSplitBatch(
  ctx: SplitSenderContext,
  record: BatchRecord & { split: SplitBatchRecord },
  launch: LaunchRecord,
  onSent: (split: SplitBatchRecord, settle: { txHash: Hash; from: Address } | undefined) => Promise<void>,
): Promise<SplitSendOutcome> {
  const send = ctx.wallets.sendFromAccount
  if (!send) return { kind: 'not_sent', reason: 'no sender accounts to send a split batch from' }
  const { chain, batchBuyer, batchId, split } = record
  const stablecoin = ctx.chains[chain].addresses.stablecoin
  if (record.validUntilBlock === undefined) return { kind: 'not_sent', reason: 'the split batch has no last block journaled' }
  const lastBlock = lastBlockOf(record)
  // Collects and settle land in the block after the tick: in the launch's first blocks they offer the launch tip.
  // One group (the batch id): the pending-nonce check made for the first collect stands for the later collects and the
  // settle (chain-now.ts `recent`: not one round trip before each; docs/execution.md §8, "The first send without a
  // read before it").
  const moment = { launchBlock: BigInt(record.launchBlock), landsIn: BigInt(record.tickBlock) + 1n, group: batchId }
  // Each collect encoded just before its send (by hand, encode-collect.ts: ~0.3 ms for 625 entries), and a turn of the
  // event loop after the first, so that its signing and its request leave before any other collect is encoded or
  // signed (they all used to be encoded first, 23-86 ms: docs/execution.md §8, "The first collect on the wire first").
  // Not a turn after every collect: each turn lets unrelated work in (a block's warm refresh) and spread a bench run's
  // collects over two blocks. Sends started in order still take their accounts' nonces in order (send-transaction.ts).
  const started: Array<Promise<SentCall>> = []
  for (const [i, c] of split.chunks.entries()) {
    if (i === 1) await nextTurn()
    let data: Hex
    try {
      data = encodeCollect(batchId, stablecoin, BigInt(c.chunk), record.included.slice(c.from, c.to), lastBlock, record.supersedes ?? [])
    } catch (error) {
      // An entry batchEntry would refuse: this collect is not sent (its buyers wait for the next batch), as a failed send.
      const refused = Promise.reject(error)
      refused.catch(() => undefined)
      started.push(refused)
      continue
    }
    ctx.stage?.(`split.collectEncoded.${c.chunk}`)
    const sending = send(
      chain,
      c.operator,
      { to: batchBuyer, data, gas: withSupersedeGas(BigInt(c.gasLimit), record.supersedes, BigInt(split.txGasCap)) },
      { batchId, chunk: c.chunk, buyers: c.to - c.from },
      { moment },
    )
    sending.then(
      () => ctx.stage?.(`split.collectSent.${c.chunk}`),
      () => undefined,
    )
    started.push(sending)
  }
  // The settle's calldata while the collects' requests are out (it is sent once they all returned: their tips).
  const settleData = (() => {
    try {
      return { data: splitSettleData(ctx, record, launch) }
    } catch (error) {
      return { error }
    }
  })()
  const collects = await Promise.allSettled(started)
  const chunks = split.chunks.map((c, i) => {
    const sent = collects[i]!
    return sent.status === 'fulfilled' ? { ...c, txHash: sent.value.hash } : c
  })
  const tips = collects.flatMap((s) => (s.status === 'fulfilled' && s.value.maxPriorityFeePerGas !== undefined ? [s.value.maxPriorityFeePerGas] : []))
  for (const [i, s] of collects.entries())
    if (s.status === 'rejected') ctx.log.warn({ err: s.reason, batchId, chunk: split.chunks[i]!.chunk }, 'collect not sent: its buyers wait for the next batch')
  if (tips.length === 0 && collects.every((s) => s.status === 'rejected')) {
    completeShares(record)
    await onSent({ ...split, chunks }, undefined).catch(() => undefined)
    return { kind: 'not_sent', reason: 'no collect of the split batch could be sent' }
  }
  const lowestTip = tips.reduce<bigint | undefined>((low, t) => (low === undefined || t < low ? t : low), undefined)
  if (lowestTip === undefined || lowestTip <= 1n) {
    // No tip left below the collects' (they offer the node's 1-wei minimum, or did not say): the block cannot order
    // the settle after them, so it waits for them to be mined (a block later, the same price guarantee).
    await Promise.all(collects.map((c) => (c.status === 'fulfilled' ? c.value.landed : undefined)))
  }
  let settle: { hash: Hash; from: Address; landed: Promise<Landing> } | undefined
  try {
    if ('error' in settleData) throw settleData.error
    settle = await send(
      chain,
      split.settle.operator,
      { to: batchBuyer, data: settleData.data, gas: BigInt(split.settle.gasLimit) },
      { batchId, settle: true, chunks: chunks.length },
      { moment, ...(lowestTip === undefined ? {} : { tipAtMost: lowestTip - 1n }) },
    )
  } catch (error) {
    ctx.log.warn({ err: error, batchId }, 'settle not sent: the batch is cancelled and refunded')
  }
  const next = { ...split, chunks, settle: { ...split.settle, ...(settle ? { txHash: settle.hash } : {}) } }
  // A readied launch's predicted shares, once every transaction is out: onSent writes the record whole (shares-later.ts).
  completeShares(record)
  await onSent(next, settle ? { txHash: settle.hash, from: settle.from } : undefined).catch((error) =>
    ctx.log.warn({ err: error, batchId }, 'recording the split batch transactions failed; the chain is asked after a restart'),
  )
  return { kind: 'sent', settle: settle?.hash, landing: settle ? await settle.landed : undefined }
}
