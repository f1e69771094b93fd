import { encodeFunctionData, zeroHash } from 'viem'
import { txGasCapOf } from '../../src/chain/tx-gas-cap.ts'
import { sweepChunk } from '../../src/domain/batch/batch-gas.ts'
import { paidWords } from '../../src/domain/batch/paid-words.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { batchBuyerAbi, batchEntry } from './batch-buyer-abi.ts'
import type { ExecutorContext } from './executor-context.ts'

export type BatchSweeperContext = Pick<ExecutorContext, 'store' | 'chains' | 'wallets' | 'batchReads' | 'batchJournal' | 'log' | 'stopped'>

/** The paid words exactly as the batch committed them: each entry, a skipped buyer's amount zeroed (paidWords). */
export const recordPaidWords = (record: BatchRecord): bigint[] =>
  paidWords(
    record.included.map((e) => batchEntry(e.wallet, BigInt(e.spendAtoms))),
    record.execution?.skipped ?? [],
  )

/**
 * Why a sweep stopped before the end (it resumes from the on-chain cursor: at the next start, or the next call), or
 * `undone`: the chain does not hold the batch as executed (a reorg, or a devnet restarted from an older dump, dropped the
 * block of its BatchExecuted): there is nothing to sweep, and the batch's fate is to be asked of the chain again.
 */
export type SweepOutcome =
  | { kind: 'done'; record: BatchRecord }
  | { kind: 'stopped'; record: BatchRecord; reason: string }
  | { kind: 'undone'; record: BatchRecord }

/**
 * Credits an executed batch's buyers: sweep(batchId, paid, from, to) in chunks (≤ 500 buyers, under the gas cap) from
 * the operator account, each from the contract's own cursor (`batches(batchId).swept`) read before it, so a chunk
 * already landed (before a crash, or by anyone: sweep is open to all) is never sent again and a chunk that reverted
 * for the cursor is simply re-read. The record's cursor is written after each chunk; `swept` at the end.
 */
export async function sweepBatch(ctx: BatchSweeperContext, record: BatchRecord): Promise<SweepOutcome> {
  const send = ctx.wallets.sendCall
  if (!send) return { kind: 'stopped', record, reason: 'no operator account on this chain' }
  const words = recordPaidWords(record)
  const total = words.length
  const chunk = sweepChunk(total, txGasCapOf(ctx.chains[record.chain]))
  let current = record
  let failures = 0
  /** Writes `next` unless the batch is no longer `executed` in the journal (then the stored record, undone). */
  const save = async (next: BatchRecord): Promise<BatchRecord | undefined> => {
    const stored = await stillExecuted(ctx, record)
    if (stored) return stored
    await ctx.store.batch([ctx.batchJournal.put(next)])
    current = next
    return undefined
  }
  while (!ctx.stopped()) {
    const onChain = await ctx.batchReads.batch(record.chain, record.batchBuyer, record.batchId)
    // Not executed on this chain: its zero allocation hash must not read as "nothing to sweep" (the record would say
    // swept for a batch the chain no longer has; found by the crash rounds, a kill -9 during the sweep).
    if (!onChain.executed) return { kind: 'undone', record: current }
    if (onChain.allocationHash === zeroHash || onChain.swept >= total) {
      const undone = await save({ ...current, state: 'swept', swept: onChain.allocationHash === zeroHash ? 0 : total })
      return undone ? { kind: 'undone', record: undone } : { kind: 'done', record: current }
    }
    if (onChain.swept !== current.swept) {
      const undone = await save({ ...current, swept: onChain.swept })
      if (undone) return { kind: 'undone', record: undone }
    }
    const from = onChain.swept
    const to = Math.min(total, from + chunk.buyers)
    const data = encodeFunctionData({ abi: batchBuyerAbi, functionName: 'sweep', args: [record.batchId, words, BigInt(from), BigInt(to)] })
    try {
      const sent = await send(record.chain, { to: record.batchBuyer, data, gas: chunk.gas(to - from) }, { batchId: record.batchId, from, to })
      const landed = await sent.landed
      if (landed.receipt?.status === 'success') {
        failures = 0
        continue
      }
      ctx.log.warn({ batchId: record.batchId, from, to, txHash: sent.hash, pending: landed.pending }, 'sweep chunk did not land; the cursor is read again')
    } catch (error) {
      ctx.log.warn({ err: error, batchId: record.batchId, from, to }, 'sweep chunk not sent')
    }
    if (++failures >= 3) return { kind: 'stopped', record: current, reason: 'three sweep chunks in a row did not land' }
  }
  return { kind: 'stopped', record: current, reason: 'executor stopping' }
}

/**
 * The journaled record when it is no longer `executed` (else undefined): a reorg undid the batch while it was being
 * swept (revalidate-fills.ts wrote it `sent` again, its orders held under it), and a sweep that read the chain before
 * the reorg must not write it back to executed or swept (a restart would then never ask its fate, its orders held
 * executing for good). Its fate is the runner's again (`undone`).
 */
export async function stillExecuted(ctx: Pick<BatchSweeperContext, 'batchJournal'>, record: BatchRecord): Promise<BatchRecord | undefined> {
  const stored = await ctx.batchJournal.get(record.chain, record.slug, record.launchBlock, record.sequence)
  return stored && stored.state !== 'executed' ? stored : undefined
}
