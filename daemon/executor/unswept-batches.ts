import { zeroHash } from 'viem'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import type { ExecutorContext } from './executor-context.ts'
import { collectedChunksOf } from './resolve-split-batch.ts'
import { recordPaidWords } from './sweep-batch.ts'

export type UnsweptContext = Pick<ExecutorContext, 'store' | 'batchJournal' | 'batchReads' | 'batchDeadline' | 'log' | 'withChainLock'> &
  Partial<Pick<ExecutorContext, 'splitReads'>>

/**
 * Batches journaled `swept` whose sweep the chain no longer holds, written back to `executed` (the runner then sweeps
 * them again from the contract's own cursor). A sweep transaction is as reorg-able as any other: a reorg, or a devnet
 * chain restarted from its last saved state, can keep the batch's executeBatch block and lose the sweep's; the record
 * then said `swept` while the buyers' tokens stayed in the batch buyer, and nothing ever went back to it (found by the
 * crash rounds: a kill shortly after BatchExecuted, the restarted chain at "swept 0/10" under a `swept` record).
 *
 * Asked at the executor's start and after every reorg signal, for the batches executed within twice the chain's
 * finality depth of its head (the sweep follows the execution; a reorg deeper than the finality depth is one the daemon
 * does not follow at all). A batch the chain no longer shows executed is not this function's: revalidate-fills.ts holds
 * its orders and the runner asks its fate. Reads the chain only: a read that fails leaves the record as it is (asked
 * again at the next reorg or start).
 */
export async function reopenUnsweptBatches(ctx: UnsweptContext, chain: ChainKey): Promise<BatchRecord[]> {
  const swept = await ctx.batchJournal.swept(chain)
  if (swept.length === 0) return []
  const head = await ctx.batchReads.head(chain)
  const since = head - 2n * BigInt(ctx.batchDeadline(chain).finalityBlocks)
  const reopened: BatchRecord[] = []
  for (const record of swept) {
    if (!record.execution || BigInt(record.execution.blockNumber) < since) continue
    try {
      const cursor = await sweptOnChain(ctx, record)
      if (cursor === 'complete' || cursor === 'not_executed') continue
      // Written only if the journal still says swept, checked under the chain lock revalidate-fills.ts writes under: a
      // reorg's `sent` (its execution undone) written since the list was read is not overwritten with executed.
      const next = await ctx.withChainLock(chain, async () => {
        const stored = await ctx.batchJournal.get(record.chain, record.slug, record.launchBlock, record.sequence)
        if (stored?.state !== 'swept') return undefined
        const reopened: BatchRecord = { ...stored, state: 'executed', swept: cursor }
        await ctx.store.batch([ctx.batchJournal.put(reopened)])
        return reopened
      })
      if (!next) continue
      ctx.log.warn(
        { batchId: record.batchId, slug: record.slug, swept: cursor },
        'a swept batch is not swept on the chain any more (its sweep was lost): swept again',
      )
      reopened.push(next)
    } catch (error) {
      ctx.log.warn({ err: error, batchId: record.batchId }, 'could not read whether a swept batch is still swept; asked again at the next reorg or start')
    }
  }
  return reopened
}

/** How far the chain has swept a batch: 'complete', the buyers credited so far, or 'not_executed' (not this function's). */
async function sweptOnChain(ctx: UnsweptContext, record: BatchRecord): Promise<'complete' | 'not_executed' | number> {
  if (record.split) {
    if (!ctx.splitReads) return 'complete'
    let credited = 0
    let complete = true
    for (const chunk of collectedChunksOf(record.split)) {
      const { size, cursor } = await ctx.splitReads.chunk(record.chain, record.batchBuyer, record.batchId, chunk.chunk)
      credited += Math.min(cursor, size)
      if (cursor < size) complete = false
    }
    return complete ? 'complete' : credited
  }
  const onChain = await ctx.batchReads.batch(record.chain, record.batchBuyer, record.batchId)
  if (!onChain.executed) return 'not_executed'
  if (onChain.allocationHash === zeroHash || onChain.swept >= recordPaidWords(record).length) return 'complete'
  return onChain.swept
}
