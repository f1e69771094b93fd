import type { OrderRecord } from '../../src/domain/records.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import type { InFlightExecution } from '../../src/journal/journal-records.ts'
import { followerCountOf } from '../../src/store/follower-count.ts'
import type { StoreOperation } from '../../src/store/open-store.ts'
import { orderKey } from '../../src/store/order-index.ts'
import type { ExecutorContext } from './executor-context.ts'
import { batchEntryInFlight } from './in-flight-entry.ts'
import { transitionOps } from './order-transition-ops.ts'

export type TakeBackContext = Pick<ExecutorContext, 'store' | 'journal' | 'batchJournal' | 'withOrderLocks' | 'now' | 'log'>

/** What taking a released batch back did: its record `sent` again, or not yet (an order of it is in another batch). */
export type TakeBackOutcome = { kind: 'taken'; record: BatchRecord } | { kind: 'deferred'; heldBy: string }

/**
 * A released batch pulled after all (its signed transaction landed again after a reorg took its revert, before any
 * batch superseding it): its orders are its. In one write under the orders' locks, each of its included orders that is
 * `active` goes back to `executing` under it (its in-flight entry naming it), and the record is `sent` again
 * (`cameBack`), so the runner settles it from its BatchExecuted (or, a split batch, resolves it: settled or cancelled
 * and refunded) like a batch just sent. An order still executing in another batch defers the whole take-back: that
 * batch names this one (it was planned after the release), so the contract refuses it, and once it is released its
 * orders are active and taken here (the runner takes back right after that release). An order filled elsewhere would
 * have paid twice: logged, left alone. It is a guard only: a single UserOperation, the one path that names no
 * superseded batch, never buys an order of a released batch that could still land (plan-batch.ts `awaitingReleased`).
 */
export async function takeBackReleasedBatch(ctx: TakeBackContext, record: BatchRecord): Promise<TakeBackOutcome> {
  return ctx.withOrderLocks(
    record.included.map((e) => e.keyId),
    async () => {
      const journaled = (await ctx.batchJournal.get(record.chain, record.slug, record.launchBlock, record.sequence)) ?? record
      if (journaled.state !== 'released') return { kind: 'taken', record: journaled }
      const currents = (await ctx.store.sub.orders.getMany(record.included.map((e) => orderKey(e.keyId, e.slug)))) as Array<OrderRecord | undefined>
      const inFlight = (await ctx.journal.sub.inFlight.getMany(record.included.map((e) => `${record.chain}!${e.keyId}!${e.slug}`))) as Array<
        InFlightExecution | undefined
      >
      for (const [i, current] of currents.entries()) {
        const claimed = inFlight[i]
        if (current?.status === 'executing' && claimed && claimed.batchId !== record.batchId)
          return { kind: 'deferred', heldBy: claimed.batchId ?? 'a single UserOperation' }
      }
      const at = ctx.now()
      const next: BatchRecord = { ...journaled, state: 'sent', cameBack: { at } }
      const ops: StoreOperation[] = [ctx.batchJournal.put(next)]
      for (const [i, entry] of record.included.entries()) {
        const current = currents[i]
        if (current?.status !== 'active') {
          if (current?.status === 'filled')
            ctx.log.error(
              { batchId: record.batchId, keyId: entry.keyId, slug: entry.slug },
              'a released batch came back and pulled an order bought elsewhere meanwhile: it paid twice',
            )
          continue
        }
        const followers = await followerCountOf(ctx.store, entry.keyId)
        const event = { reason: `batch ${record.batchId}, released after its transaction reverted, pulled after all (a reorg): held by it until settled` }
        ops.push(...transitionOps(ctx, current, 'executing', at, event, followers))
        ops.push(ctx.journal.putInFlight(batchEntryInFlight(record, entry, at)))
      }
      await ctx.store.batch(ops)
      ctx.log.warn({ batchId: record.batchId, slug: record.slug }, 'a released batch pulled after all: its orders are taken back and settled from the chain')
      return { kind: 'taken', record: next }
    },
  )
}
