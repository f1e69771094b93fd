import { encodeFunctionData, zeroHash } from 'viem'
import { txGasCapOf } from '../../src/chain/tx-gas-cap.ts'
import { sweepChunk } from '../../src/domain/batch/batch-gas.ts'
import { paidWords } from '../../src/domain/batch/paid-words.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { batchBuyerAbi, batchEntry } from './batch-buyer-abi.ts'
import type { ExecutorContext } from './executor-context.ts'

export type BatchSweeperContext = Pick<ExecutorContext, 'store' | 'chains' | 'wallets' | 'batchReads' | 'batchJournal' | 'log' | 'stopped' | 'withChainLock'>

/** The paid words exactly as the batch committed them: each entry, a skipped buyer's amount zeroed (paidWords). */
export const recordPaidWords = (record: BatchRecord): bigint[] =>
  paidWords(
    record.included.map((e) => batchEntry(e.wallet, BigInt(e.spendAtoms))),
    record.execution?.skipped ?? [],
  )

/**
 * Why a sweep stopped before the end (it resumes from the on-chain cursor: at the next start, or the next call), or
 * `undone`: the chain does not hold the batch as executed (a reorg, or a devnet restarted from an older dump, dropped the
 * block of its BatchExecuted), or the journal holds it `sent` again (revalidate-fills.ts): there is nothing to sweep,
 * and the batch's fate is to be asked of the chain again; or `resettled`: while it was swept, a reorg moved the batch
 * and the runner settled it again from its new place (`record`, the journaled one): this sweep's record is stale, and
 * the sweep of the record as settled now is the runner's.
 */
export type SweepOutcome =
  | { kind: 'done'; record: BatchRecord }
  | { kind: 'stopped'; record: BatchRecord; reason: string }
  | { kind: 'undone'; record: BatchRecord }
  | { kind: 'resettled'; record: BatchRecord }

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
  /** Writes `next` unless the journal no longer holds the batch executed as this sweep read it (then why not). */
  const save = async (next: BatchRecord): Promise<StaleSweep | undefined> => {
    const stale = await putIfStillExecuted(ctx, record, next)
    if (!stale) current = next
    return stale
  }
  while (!ctx.stopped()) {
    const onChain = await ctx.batchReads.batch(record.chain, record.batchBuyer, record.batchId)
    // Not executed on this chain: its zero allocation hash must not read as "nothing to sweep" (the record would say
    // swept for a batch the chain no longer has; found by the crash rounds, a kill -9 during the sweep).
    if (!onChain.executed) return { kind: 'undone', record: current }
    if (onChain.allocationHash === zeroHash || onChain.swept >= total) {
      const stale = await save({ ...current, state: 'swept', swept: onChain.allocationHash === zeroHash ? 0 : total })
      return stale ?? { kind: 'done', record: current }
    }
    if (onChain.swept !== current.swept) {
      const stale = await save({ ...current, swept: onChain.swept })
      if (stale) return stale
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

/** Why a sweep's write was not made, with the journaled record: undone, settled again, or swept already (SweepOutcome). */
export type StaleSweep = Extract<SweepOutcome, { kind: 'undone' | 'resettled' | 'done' }>

/**
 * Whether the journal still holds the batch `executed` from the execution the sweep started with (undefined), else why
 * not, with the journaled record:
 * - `undone`: a reorg undid the batch while it was swept (revalidate-fills.ts wrote it `sent` again, its orders held
 *   under it); a sweep that read the chain before the reorg must not write it back to executed or swept (a restart would
 *   then never ask its fate, its orders held executing for good);
 * - `resettled`: the runner settled it again from another execution (a reorg re-mined it at another block); this
 *   sweep's record carries the old execution and must not overwrite the new one (found by batch-superseded.test.ts
 *   (b): the batch record swept at the block the reorg took, its orders filled at the new one, the replay differing);
 * - `done`: swept already from the same execution (by another sweep of it that ended first).
 */
async function staleSweep(ctx: Pick<BatchSweeperContext, 'batchJournal'>, record: BatchRecord): Promise<StaleSweep | undefined> {
  const stored = await ctx.batchJournal.get(record.chain, record.slug, record.launchBlock, record.sequence)
  if (!stored) return undefined
  const same = stored.execution?.txHash === record.execution?.txHash && stored.execution?.blockNumber === record.execution?.blockNumber
  if (stored.state === 'executed' && same) return undefined
  if ((stored.state === 'executed' || stored.state === 'swept') && !same) return { kind: 'resettled', record: stored }
  // Swept already from this execution (a sweep of the same record ended first): nothing left to write.
  if (stored.state === 'swept') return { kind: 'done', record: stored }
  return { kind: 'undone', record: stored }
}

/**
 * Writes a sweep's `next` record unless its record is stale (staleSweep: then why, and nothing written). The check and
 * the write are one section under the chain lock, the lock revalidate-fills.ts and the runner's settle write under:
 * checked outside it, a reorg's `sent` or a settle from the new place could be written between the check and this
 * write, and then overwritten with the old execution.
 */
export async function putIfStillExecuted(
  ctx: Pick<BatchSweeperContext, 'batchJournal' | 'store' | 'withChainLock'>,
  record: BatchRecord,
  next: BatchRecord,
): Promise<StaleSweep | undefined> {
  return ctx.withChainLock(record.chain, async () => {
    const stale = await staleSweep(ctx, record)
    if (stale) return stale
    await ctx.store.batch([ctx.batchJournal.put(next)])
    return undefined
  })
}
