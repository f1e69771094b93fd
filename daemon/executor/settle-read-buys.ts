import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import type { ExecutorContext } from './executor-context.ts'
import type { BuySettler, Settlement } from './settle-buys.ts'

export type ReadBuysSettlerContext = Pick<ExecutorContext, 'withChainLock' | 'log'> & Partial<Pick<ExecutorContext, 'reorgEpochs'>>

/**
 * Settles the single buys' outcomes as read (`read`), under the chain lock, only if no reorg was signalled on the chain
 * since `epoch`, the count noted before they were read (reorg-epochs.ts): a buy read in a block that a reorg then
 * dropped, written after that reorg's revalidation, would stay recorded there, its order filled by a buy the chain
 * does not have. Otherwise every buy is read from the chain again (its failure kept as the hint if it is not found,
 * as after a restart) and settled under the same rule.
 */
export async function settleReadBuys(
  ctx: ReadBuysSettlerContext,
  settler: Pick<BuySettler, 'settle' | 'fromChain'>,
  launch: Pick<LaunchRecord, 'chain' | 'slug'>,
  read: readonly Settlement[],
  epoch: number | undefined,
): Promise<void> {
  let settlements = read
  let since = epoch
  for (;;) {
    const written = await ctx.withChainLock(launch.chain, async () => {
      if (since !== undefined && ctx.reorgEpochs?.of(launch.chain) !== since) return false
      await settler.settle(settlements)
      return true
    })
    if (written) return
    ctx.log.warn({ slug: launch.slug, buys: settlements.length }, 'a reorg was signalled while the buys were read: read again from the chain')
    since = ctx.reorgEpochs?.of(launch.chain)
    settlements = await Promise.all(settlements.map((s) => settler.fromChain(s.entry, s.failure, s.extra)))
  }
}
