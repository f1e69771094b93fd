import type { OrderRecord, OrderStatus, ProjectRecord } from './records.ts'
import { itemFailed, itemOk, type BatchItemResult } from './order-codes.ts'
import { checkCreateValues, checkPatchValues, type OrderValues } from './order-input.ts'

/**
 * What one batch item does to one order: the result for the caller and, when something changes, the next record.
 * Pure: the service loads `existing` and `project`, calls these, and writes `next` in one batch.
 *
 * Choices the spec leaves open (published in docs/api.md):
 * - POST on an active order: unchanged, values are NOT modified (PATCH changes values).
 * - POST after the order was deleted, expired or failed: a new active order (status created) replaces it.
 * - POST once the project has launched: project_launched (an existing active order still answers unchanged).
 * - PATCH on a non-active order: no_active_order when none/deleted, order_not_active when executing/filled/expired/failed.
 * - PATCH after launch on a still active order is allowed: the executor reads the latest values on its next tick.
 * - DELETE on an executing order: order_executing; on filled/expired/failed: already_deleted, the record keeps its state.
 */
export interface Decision {
  result: BatchItemResult
  next?: OrderRecord
}

export interface CreateArgs {
  keyId: string
  slug: string
  project: ProjectRecord | undefined
  existing: OrderRecord | undefined
  values: OrderValues
  now: number
}

export function decideCreate({ keyId, slug, project, existing, values, now }: CreateArgs): Decision {
  if (!project) return { result: itemFailed(slug, 'unknown_project') }
  // Values are checked before the idempotency rule so a malformed retry is reported, not silently accepted.
  const checked = checkCreateValues(values)
  if (!checked.ok) return { result: itemFailed(slug, checked.code) }
  if (existing?.status === 'active') return { result: itemOk(slug, 'unchanged') }
  if (project.launch) return { result: itemFailed(slug, 'project_launched') }
  if (existing?.status === 'executing') return { result: itemFailed(slug, 'order_executing') }
  const next: OrderRecord = { keyId, slug, status: 'active', ...checked.value, createdAt: now, updatedAt: now }
  return { result: itemOk(slug, 'created'), next }
}

export interface PatchArgs {
  slug: string
  project: ProjectRecord | undefined
  existing: OrderRecord | undefined
  values: Partial<OrderValues>
  now: number
}

export function decidePatch({ slug, project, existing, values, now }: PatchArgs): Decision {
  if (!project) return { result: itemFailed(slug, 'unknown_project') }
  const checked = checkPatchValues(values)
  if (!checked.ok) return { result: itemFailed(slug, checked.code) }
  if (!existing || existing.status === 'deleted') return { result: itemFailed(slug, 'no_active_order') }
  if (existing.status !== 'active') return { result: itemFailed(slug, 'order_not_active') }
  const merged: OrderRecord = { ...existing, ...checked.value }
  const same = merged.maxSpendUsdc === existing.maxSpendUsdc && merged.maxFdvUsdc === existing.maxFdvUsdc && merged.expiresInMs === existing.expiresInMs
  if (same) return { result: itemOk(slug, 'unchanged') }
  return { result: itemOk(slug, 'updated'), next: { ...merged, updatedAt: now } }
}

export interface DeleteArgs {
  slug: string
  project: ProjectRecord | undefined
  existing: OrderRecord | undefined
  now: number
}

export function decideDelete({ slug, project, existing, now }: DeleteArgs): Decision {
  if (!project) return { result: itemFailed(slug, 'unknown_project') }
  if (existing?.status === 'executing') return { result: itemFailed(slug, 'order_executing') }
  if (existing?.status !== 'active') return { result: itemOk(slug, 'already_deleted') }
  return { result: itemOk(slug, 'deleted'), next: { ...existing, status: 'deleted', updatedAt: now } }
}

/** Slugs seen earlier in the batch get duplicate_slug; only the first occurrence is processed. */
export function markDuplicates<T extends { slug: string }>(items: readonly T[]): boolean[] {
  const seen = new Set<string>()
  return items.map((item) => {
    if (seen.has(item.slug)) return true
    seen.add(item.slug)
    return false
  })
}

/** Who writes an order: the public API (through the order service) or the executor. */
export type OrderWriter = 'api' | 'executor'

/** An order's state before its first write. */
export type OrderOrigin = OrderStatus | 'none'

/**
 * Every move an order makes, by who makes it; orderWriteOps (src/store/order-writes.ts) refuses any other.
 * - The API places an order, edits it (active -> active), cancels it, and places it again once it is over: a new
 *   active order replaces a deleted, expired, failed or filled one (decideCreate; a filled one only while the project
 *   is not launched, which after a launch happens only when a reorg removed the launch).
 * - The executor buys (active -> executing), expires an order past its validity, settles a buy (executing -> filled,
 *   back to active to retry, or failed after repeated non-price failures), and after a reorg undoes a fill
 *   (filled -> active) or re-points it to the transaction that mined it again (filled -> filled). A fill of a batch
 *   the reorg undid goes back to executing under its batch instead: only with that cause (CAUSED_ORDER_MOVES).
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderWriter, Readonly<Record<OrderOrigin, readonly OrderStatus[]>>>> = {
  api: {
    none: ['active'],
    active: ['active', 'deleted'],
    deleted: ['active'],
    expired: ['active'],
    failed: ['active'],
    filled: ['active'],
    executing: [],
  },
  executor: {
    none: [],
    active: ['executing', 'expired'],
    executing: ['active', 'filled', 'failed'],
    filled: ['active', 'filled'],
    expired: [],
    failed: [],
    deleted: [],
  },
}

/**
 * Why a writer makes a move that ORDER_TRANSITIONS does not give it for every reason: each such move is allowed only
 * with its cause, named by the caller (orderWriteOps' `cause`).
 * - `batch_undone_by_reorg`: a reorg undid the batch that filled the order (revalidate-fills.ts). The order goes back
 *   to `executing` under that batch (filled -> executing), not to `active`: the batch's signed transaction may still be
 *   re-included at or before its last block and pull the wallet, so the order may buy again only once the batch runner
 *   knows its fate (docs/execution.md §8, "A reorg that undoes a batch").
 */
export type OrderMoveCause = 'batch_undone_by_reorg'

/** The move each cause allows, and to whom (nothing else may make it, and it makes nothing else). */
export const CAUSED_ORDER_MOVES: Readonly<Record<OrderMoveCause, { writer: OrderWriter; from: OrderOrigin; to: OrderStatus }>> = {
  batch_undone_by_reorg: { writer: 'executor', from: 'filled', to: 'executing' },
}

export const canMoveOrder = (by: OrderWriter, from: OrderOrigin, to: OrderStatus, cause?: OrderMoveCause): boolean => {
  if (cause === undefined) return ORDER_TRANSITIONS[by][from].includes(to)
  const move = CAUSED_ORDER_MOVES[cause]
  return move.writer === by && move.from === from && move.to === to
}
