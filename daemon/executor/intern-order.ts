import type { OrderRecord } from '../../src/domain/records.ts'

/**
 * A stored order record as the loader hands it out (load-orders.ts): the record the store decoded (`JSON.parse`, the
 * store's json value encoding) with its repeated strings replaced, in place, by the interner's shared copies (one copy
 * per key id, slug and amount instead of one per record). Returns the same record.
 *
 * The executor's start-up warm-up (warm-held-ticks.ts) and the planning bench decode their records through this too:
 * these assignments write a new string into fields `JSON.parse` initialised (the interner's first copy of a value is a
 * fresh flat string), which turns those fields of the records' hidden class from constant to mutable in V8. Code
 * compiled while they were constant depends on it ("FieldConstnessDependency") and is dropped the first time they
 * are written: on a warm-up with records of its own, that was the daemon's first load, and in the bench the first
 * PATCH tick (docs/execution.md §3 "A book's first PATCH tick: the records' fields written after the warm-up").
 */
export function internOrder(order: OrderRecord, intern: (value: string) => string): OrderRecord {
  order.keyId = intern(order.keyId)
  order.slug = intern(order.slug)
  order.status = 'active'
  order.maxSpendUsdc = intern(order.maxSpendUsdc)
  if (order.maxFdvUsdc !== null) order.maxFdvUsdc = intern(order.maxFdvUsdc)
  return order
}
