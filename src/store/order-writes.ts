import { PrebuyError } from '../common/errors.ts'
import { canMoveOrder, type OrderMoveCause, type OrderWriter } from '../domain/order-transitions.ts'
import type { OrderRecord } from '../domain/records.ts'
import { buyerIndexKey, orderKey, projectOrderKey, spendIndexKeys } from './order-index.ts'
import { del, put, type Store, type StoreOperation } from './open-store.ts'

/**
 * The one way an order is written: every operation that moves an order from `previous` to `next` (the record and all
 * its index entries), for the writer's own atomic batch, so indexes can never drift from records. Refuses, with an
 * internal error, a move ORDER_TRANSITIONS does not give this writer, and any change of the order's identity.
 * `followers` is the buyer's current follower count (0 without a linked social profile); `cause` names why a move
 * allowed only for a cause is made (CAUSED_ORDER_MOVES: then only that move is allowed).
 */
export function orderWriteOps(
  store: Store,
  previous: OrderRecord | undefined,
  next: OrderRecord,
  by: { writer: OrderWriter; followers: number; cause?: OrderMoveCause },
): StoreOperation[] {
  if (previous && (previous.keyId !== next.keyId || previous.slug !== next.slug)) {
    throw new PrebuyError('invalid_order_transition', `An order's key and project never change (${previous.keyId}/${previous.slug}).`)
  }
  const from = previous?.status ?? 'none'
  if (!canMoveOrder(by.writer, from, next.status, by.cause)) {
    const why = by.cause === undefined ? '' : ` (${by.cause})`
    throw new PrebuyError('invalid_order_transition', `The ${by.writer} may not move an order from ${from} to ${next.status}${why}.`)
  }
  const { orders, ordersBySpend, ordersByProject, buyersByProject } = store.sub
  const ops: StoreOperation[] = [put(orders, orderKey(next.keyId, next.slug), next)]
  const nextSpendKeys = new Set(spendIndexKeys(next))
  if (previous) {
    for (const key of spendIndexKeys(previous)) if (!nextSpendKeys.has(key)) ops.push(del(ordersBySpend, key))
    if (projectOrderKey(previous) !== projectOrderKey(next)) ops.push(del(ordersByProject, projectOrderKey(previous)))
  }
  for (const key of nextSpendKeys) ops.push(put(ordersBySpend, key, next))
  ops.push(put(ordersByProject, projectOrderKey(next), next.keyId))
  const buyerKey = buyerIndexKey(next.slug, by.followers, next.keyId)
  if (next.status === 'deleted') ops.push(del(buyersByProject, buyerKey))
  else ops.push(put(buyersByProject, buyerKey, next.keyId))
  return ops
}

/**
 * The buyer index entries of a key's orders when its follower count changes (the index orders buyers by it): the
 * only other write to an order's indexes. Run under the key's order lock, with the slugs of its non-deleted orders.
 */
export function followerCountOps(store: Store, keyId: string, slugs: readonly string[], before: number, after: number): StoreOperation[] {
  if (before === after) return []
  const { buyersByProject } = store.sub
  return slugs.flatMap((slug) => [del(buyersByProject, buyerIndexKey(slug, before, keyId)), put(buyersByProject, buyerIndexKey(slug, after, keyId), keyId)])
}

/**
 * The order a store operation writes, for caches invalidated from store.onBatch; undefined for any other operation.
 * Every order write (orderWriteOps) holds its record's put, so the record's key is the one to look for.
 */
export function orderWrittenBy(store: Store, op: StoreOperation): { keyId: string; slug: string } | undefined {
  if (op.sublevel !== store.sub.orders) return undefined
  const bang = op.key.indexOf('!')
  return { keyId: op.key.slice(0, bang), slug: op.key.slice(bang + 1) }
}
