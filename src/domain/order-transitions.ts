import type { OrderRecord, ProjectRecord } from './records.ts'
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

/**
 * Moves the executor may make (API moves are decided above). executing -> active is the retry after a reverted
 * buy; a launch that a reorg removed may also send an executing order back to active.
 */
export const EXECUTOR_TRANSITIONS: Readonly<Record<OrderRecord['status'], readonly OrderRecord['status'][]>> = {
  active: ['executing', 'expired', 'filled', 'failed'],
  executing: ['active', 'filled', 'failed', 'expired'],
  filled: [],
  expired: [],
  failed: [],
  deleted: [],
}

export const canExecutorMove = (from: OrderRecord['status'], to: OrderRecord['status']): boolean => from === to || EXECUTOR_TRANSITIONS[from].includes(to)
