import type { OrderRecord } from '../../src/domain/records.ts'
import { toExecutableOrder } from '../../src/domain/execution/executable-order.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import type { LaunchRecord, OrderDecision, PriceTick } from '../../src/journal/journal-records.ts'
import type { StoreOperation } from '../../src/store/open-store.ts'
import type { ExecutorContext } from './executor-context.ts'
import { inFlightEntry } from './in-flight-entry.ts'
import { transitionOps } from './order-transition-ops.ts'
import type { PlannedBatch } from './plan-batch.ts'
import { replanSplitBatch } from './plan-split-batch.ts'

/** What the batch's part of a tick's write is built from (the included orders re-read under their locks). */
export interface BatchWriteInput {
  tick: PriceTick
  launch: LaunchRecord
  planned: PlannedBatch
  /** The included orders re-read under their locks, in `planned.buys` order. */
  current: Array<OrderRecord | undefined>
  /** Each order's followers (its order index rows), by key id: asked for by the moves, after the sends. */
  followers: Pick<Map<string, number>, 'get'>
  /** The tick decision's entries by key id (their verdicts set here): asked for only for an order left out or dropped. */
  decisionOf: Pick<Map<string, OrderDecision>, 'get'>
  at: number
}

type BatchCtx = Pick<ExecutorContext, 'store' | 'journal' | 'batchJournal' | 'orders'>

/**
 * The batch record as committed: each included order still as planned stays in, an order changed since planning is
 * dropped from the batch (fewer orders only lower the clearing price) and the committed bound is the lowest limit of
 * those left. Sets the tick decision's verdicts (left out: the exclusion reason; dropped: `in_flight`). Undefined when
 * none is left. Its put is the one write that must precede the batch's sends (docs/execution.md §8, "The commit record").
 */
export function batchRecordOf(input: BatchWriteInput): BatchRecord | undefined {
  const { planned, current, decisionOf, at } = input
  const buys = [...planned.buys.values()]
  // Left out by the clearing: the planner's `submitted` becomes the reason, the same name (verdicts.ts), so the tick
  // decision says who was left out of the block's batch and why (written even when nothing is left to send).
  for (const exclusion of planned.record.excluded) {
    const decision = decisionOf.get(exclusion.keyId)
    if (decision) decision.verdict = exclusion.reason
  }
  // The orders changed since planning (none at a launch: no set of the 5,000 kept ones is built).
  const changed = new Set<string>()
  for (const [i, buy] of buys.entries()) {
    const { order } = buy.candidate
    const now = current[i]
    if (now?.status !== 'active' || now.updatedAt !== order.updatedAt) {
      const decision = decisionOf.get(order.keyId)
      if (decision) decision.verdict = 'in_flight'
      changed.add(order.keyId)
    }
  }
  if (changed.size === buys.length) return undefined
  // Nothing changed since planning (the launch tick's case): the record as cleared, its bound the clearing's own
  // lowest included limit (the same orders), with no pass over 5,000 entries nor a parse of their limits.
  if (changed.size === 0) return { ...planned.record, at }
  const included = planned.record.included.filter((e) => !changed.has(e.keyId))
  if (included.length === 0) return undefined
  let lowest: bigint | null = null
  for (const e of included) {
    const limit = toExecutableOrder(planned.buys.get(e.keyId)!.candidate.order, e.wallet).limitFdv
    if (limit !== null && (lowest === null || limit < lowest)) lowest = limit
  }
  const dropped = planned.record.included.filter((e) => changed.has(e.keyId))
  return {
    ...planned.record,
    included,
    ...(dropped.length > 0 ? { dropped } : {}),
    // A split batch's chunks are ranges of `included`: planned again over those left.
    ...(planned.record.split && dropped.length > 0 ? { split: replanSplitBatch(planned.record.split, included.length) } : {}),
    lowestLimitFdv: lowest === null ? null : lowest.toString(),
    at,
  }
}

/**
 * The included orders' moves to `executing`, each with an in-flight entry naming the batch (its reservation against the
 * wallet, and what settling and a restart ask about). Written after the batch's sends, under the same order locks
 * (a restart rolls a committed batch forward to exactly these: roll-forward-batches.ts).
 */
export function batchMoveOps(ctx: BatchCtx, input: BatchWriteInput, record: BatchRecord): StoreOperation[] {
  const { tick, launch, planned, current, followers, at } = input
  const ops: StoreOperation[] = []
  // By keyId, not a find per order: 5,000 included orders made that 12.5 million comparisons in the launch tick.
  const rankOf = new Map(record.included.map((e) => [e.keyId, e.rank]))
  for (const [i, buy] of [...planned.buys.values()].entries()) {
    const { order } = buy.candidate
    const rank = rankOf.get(order.keyId)
    if (rank === undefined) continue
    const entry = inFlightEntry(ctx, launch, tick, buy, at, record.batchId)
    const event = { spendAtoms: entry.spendAtoms, reason: `batch ${record.batchId} rank ${rank}`, blockNumber: entry.fromBlock }
    ops.push(...transitionOps(ctx, current[i]!, 'executing', at, event, followers.get(order.keyId) ?? 0))
    ops.push(ctx.journal.putInFlight(entry))
  }
  return ops
}
