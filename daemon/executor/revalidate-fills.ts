import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import { orderKey } from '../../src/store/order-index.ts'
import type { StoreOperation } from '../../src/store/open-store.ts'
import type { ExecutorContext } from './executor-context.ts'
import { transitionOps } from './order-transition-ops.ts'
import { executionOf } from './settle-buys.ts'

export type FillRevalidatorContext = Pick<ExecutorContext, 'store' | 'journal' | 'reads' | 'withOrderLocks' | 'now' | 'log'>

/**
 * After a reorg above `ancestor`: every buy mined above it is checked against the new chain. Still bought in the same
 * transaction and block -> unchanged; bought elsewhere (re-included) -> the fill is re-pointed; undone -> the order is
 * active again and buys on a later tick (the router's order id still guarantees a single buy if the old transaction
 * lands after all). Call under the chain lock.
 */
export async function revalidateFills(ctx: FillRevalidatorContext, chain: ChainKey, ancestor: bigint): Promise<void> {
  const { store, journal } = ctx
  const fills = await journal.fillsAbove(chain, ancestor)
  if (fills.length === 0) return
  const outcomes = await Promise.all(fills.map((f) => ctx.reads.buyOf(chain, f.wallet, f.orderId, ancestor + 1n)))
  await ctx.withOrderLocks(
    fills.map((f) => f.keyId),
    async () => {
      const ops: StoreOperation[] = []
      const at = ctx.now()
      for (const [i, fill] of fills.entries()) {
        const outcome = outcomes[i]
        if (outcome && outcome.txHash === fill.txHash && outcome.blockNumber.toString() === fill.blockNumber) continue
        const current = (await store.sub.orders.get(orderKey(fill.keyId, fill.slug))) as OrderRecord | undefined
        ops.push(journal.deleteFill(fill))
        if (current?.status !== 'filled') continue
        const followers = (await store.sub.users.get(fill.keyId))?.social?.followerCount ?? 0
        if (outcome) {
          ops.push(journal.putFill({ ...fill, blockNumber: outcome.blockNumber.toString(), txHash: outcome.txHash, spendAtoms: outcome.amountIn.toString() }))
          const event = { reason: 'buy re-mined after a reorg', txHash: outcome.txHash, blockNumber: outcome.blockNumber.toString() }
          ops.push(...transitionOps(ctx, current, 'filled', at, event, followers, { execution: executionOf(outcome, at) }))
        } else {
          const { execution: _undone, ...rest } = current
          ops.push(...transitionOps(ctx, rest, 'active', at, { reason: 'buy undone by a reorg', txHash: fill.txHash }, followers))
        }
      }
      await store.batch(ops)
    },
  )
  ctx.log.warn({ chain, ancestor: ancestor.toString(), fills: fills.length }, 'revalidated fills after a reorg')
}
