import type { OrderMoveCause } from '../../src/domain/order-transitions.ts'
import type { OrderRecord, OrderStatus } from '../../src/domain/records.ts'
import type { Journal } from '../../src/journal/journal.ts'
import type { OrderEvent } from '../../src/journal/journal-records.ts'
import { orderWriteOps } from '../../src/store/order-writes.ts'
import type { Store, StoreOperation } from '../../src/store/open-store.ts'

/** What an order event records beyond the move itself. */
export type TransitionEvent = Omit<OrderEvent, 'keyId' | 'slug' | 'from' | 'to' | 'at'>

/**
 * Ops of one executor transition: the order written through orderWriteOps (the record, its indexes with the buyer's
 * follower count; refused if the executor may not make the move) and the move's journal event. `cause`: a move allowed
 * only for a cause (CAUSED_ORDER_MOVES).
 */
export function transitionOps(
  deps: { store: Store; journal: Journal },
  previous: OrderRecord,
  status: OrderStatus,
  at: number,
  event: TransitionEvent,
  followers: number,
  patch: Partial<OrderRecord> = {},
  cause?: OrderMoveCause,
): StoreOperation[] {
  const next: OrderRecord = { ...previous, ...patch, status, updatedAt: at }
  const ops = orderWriteOps(deps.store, previous, next, { writer: 'executor', followers, ...(cause ? { cause } : {}) })
  ops.push(deps.journal.putOrderEvent({ keyId: previous.keyId, slug: previous.slug, from: previous.status, to: status, at, ...event }))
  return ops
}
