import type { Logger } from '../../src/common/logger.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import { type BatchJournal, createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import type { InFlightExecution } from '../../src/journal/journal-records.ts'
import type { Journal } from '../../src/journal/journal.ts'
import { orderLockName } from '../../src/services/order-service.ts'
import { followerCountOf } from '../../src/store/follower-count.ts'
import type { Store, StoreOperation } from '../../src/store/open-store.ts'
import { orderKey } from '../../src/store/order-index.ts'
import { executionOrderId } from './build-buy-calls.ts'
import { transitionOps } from './order-transition-ops.ts'

/** What a roll forward wrote: per committed batch whose orders were not moved, the orders moved and the entries alone. */
export interface RollForwardOutcome {
  /** Committed batches found without their orders' moves. */
  batches: number
  /** Included orders moved to `executing` with their in-flight entry. */
  moved: number
  /** Included orders no longer as committed (deleted, re-created): their in-flight entry alone, settled from the chain. */
  unheld: number
}

export interface RollForwardDeps {
  store: Store
  journal: Journal
  batchJournal?: BatchJournal
  log: Logger
  now?: () => number
  /**
   * Delete prepared batch entries no compact commit names (their readying pass was a former process's): only where
   * nothing of this process can have written any yet (the daemon's start; the executor's, before it takes signals).
   */
  pruneUnnamedPrepared?: boolean
}

/**
 * Rolls forward every committed batch whose orders' moves were never written (docs/execution.md §8, "The commit
 * record"): the launch tick writes the batch record alone before its sends and the orders' moves after them, so a crash
 * (or a failed second write) between the two leaves a batch record (`journaled` or `sent`) whose included orders are
 * still `active` with no in-flight entry. Run at start, before anything else reads or writes orders (the daemon runs it
 * before the API serves and before any tick; the executor again before its reconcile: idempotent). Each such entry
 * gets its in-flight entry naming the batch, and its order, still active and the same order (its router id), moves to
 * `executing`, exactly as the live second write would have; the batch runner's reconcile then settles or refunds it
 * from the chain as today. An order no longer as committed (deleted, or deleted and created again: another id) keeps
 * its record; its entry alone says a collected contribution may be its, and settling records its share or refund
 * from the chain (settle-unheld-order.ts). One atomic write per batch, under the orders' locks.
 */
export async function rollForwardCommittedBatches(deps: RollForwardDeps): Promise<RollForwardOutcome> {
  const batchJournal = deps.batchJournal ?? createBatchJournal(deps.store)
  // A compact commit (the launch tick's pre-send write when its entries were prepared ahead) becomes its full
  // `journaled` record first, exactly the record the tick built (compact-batch-commit.ts), in one write with its
  // commit's and prepared entries' deletions; then it is rolled forward below like any committed batch. The readers
  // saw it expanded before too (batch-journal.ts), so this changes what is stored, not what is read.
  const expanded = await batchJournal.materializeCommits({ pruneUnnamed: deps.pruneUnnamedPrepared === true })
  if (expanded > 0) deps.log.warn({ expanded }, 'compact batch commits written out as their full records at start')
  const outcome: RollForwardOutcome = { batches: 0, moved: 0, unheld: 0 }
  for (const record of await batchJournal.open()) {
    if (record.state !== 'journaled' && record.state !== 'sent') continue
    // Sent again by a reorg that undid it (revalidate-fills.ts): its orders were held in that same write; an entry
    // without an in-flight entry is one the batch skipped (active, or bought elsewhere since), not a move never written.
    if (record.undone) continue
    // Taken back after it turned out to have pulled (superseded-batches.ts): its orders were moved in that same write.
    if (record.cameBack) continue
    const { moved, unheld } = await rollForward(deps, record)
    if (moved + unheld === 0) continue
    outcome.batches++
    outcome.moved += moved
    outcome.unheld += unheld
    deps.log.warn(
      { batchId: record.batchId, slug: record.slug, moved, unheld },
      'a committed batch was rolled forward: its orders are executing, settled from the chain',
    )
  }
  return outcome
}

async function rollForward(deps: RollForwardDeps, record: BatchRecord): Promise<{ moved: number; unheld: number }> {
  const { store, journal, log } = deps
  const keys = record.included.map((e) => `${record.chain}!${e.keyId}!${e.slug}`)
  return store.mutex.runAll(
    record.included.map((e) => orderLockName(e.keyId)),
    async () => {
      const inFlight = (await journal.sub.inFlight.getMany(keys)) as Array<InFlightExecution | undefined>
      const missing = record.included.flatMap((entry, i) => (inFlight[i] === undefined ? [entry] : []))
      if (missing.length === 0) return { moved: 0, unheld: 0 }
      for (const [i, held] of inFlight.entries())
        if (held && held.batchId !== record.batchId)
          log.error(
            { batchId: record.batchId, keyId: record.included[i]!.keyId, heldBy: held.batchId ?? 'a single UserOperation' },
            'a committed batch names an order another execution holds',
          )
      const orders = (await store.sub.orders.getMany(missing.map((e) => orderKey(e.keyId, e.slug)))) as Array<OrderRecord | undefined>
      const followers = await Promise.all(missing.map((e) => followerCountOf(store, e.keyId)))
      const at = deps.now?.() ?? Date.now()
      const ops: StoreOperation[] = []
      let moved = 0
      for (const [i, entry] of missing.entries()) {
        ops.push(
          journal.putInFlight({
            keyId: entry.keyId,
            slug: entry.slug,
            chain: record.chain,
            userIndex: entry.userIndex,
            wallet: entry.wallet,
            spendAtoms: entry.spendAtoms,
            // A batch entry's bound is the batch's committed lowest limit, checked on chain; this field is a single buy's.
            minTokensOut: '0',
            token: record.token,
            orderId: entry.orderId,
            submittedAt: record.at,
            fromBlock: record.tickBlock,
            batchId: record.batchId,
          }),
        )
        const order = orders[i]
        const reason = `batch ${record.batchId} rank ${entry.rank} (rolled forward at start: committed before its sends)`
        if (order?.status === 'active' && executionOrderId(order) === entry.orderId) {
          ops.push(...transitionOps(deps, order, 'executing', at, { spendAtoms: entry.spendAtoms, reason, blockNumber: record.tickBlock }, followers[i]!))
          moved++
        } else if (order) {
          log.error(
            { batchId: record.batchId, keyId: entry.keyId, slug: entry.slug, status: order.status },
            'a committed batch includes an order no longer as committed: its share or refund is recorded from the chain',
          )
          ops.push(
            journal.putOrderEvent({
              keyId: entry.keyId,
              slug: entry.slug,
              from: order.status,
              to: order.status,
              at,
              reason: `${reason}; the order changed since`,
            }),
          )
        }
      }
      await store.batch(ops)
      return { moved, unheld: missing.length - moved }
    },
  )
}
