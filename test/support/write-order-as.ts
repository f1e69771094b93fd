import { type OrderOrigin, ORDER_TRANSITIONS, type OrderWriter } from '../../src/domain/order-transitions.ts'
import type { OrderRecord, OrderStatus } from '../../src/domain/records.ts'
import type { Store } from '../../src/store/open-store.ts'
import { orderKey } from '../../src/store/order-index.ts'
import { orderWriteOps } from '../../src/store/order-writes.ts'

/** The shortest sequence of moves (at least one) the API and the executor can make from `from` to `to`. */
function movesTo(from: OrderOrigin, to: OrderStatus): Array<{ writer: OrderWriter; status: OrderStatus }> {
  const queue: Array<{ at: OrderOrigin; path: Array<{ writer: OrderWriter; status: OrderStatus }> }> = [{ at: from, path: [] }]
  const seen = new Set<string>()
  while (queue.length > 0) {
    const { at, path } = queue.shift()!
    for (const writer of ['api', 'executor'] as const) {
      for (const status of ORDER_TRANSITIONS[writer][at]) {
        const next = [...path, { writer, status }]
        if (status === to) return next
        if (!seen.has(status)) {
          seen.add(status)
          queue.push({ at: status, path: next })
        }
      }
    }
  }
  throw new Error(`no moves lead from ${from} to ${to}`)
}

/**
 * Test setup: writes `target` through the one order writer, along moves the API and the executor really make from
 * the order's stored state (an executing order reaches `filled` in one move, a new one via active and executing),
 * all in one batch. The intermediate records are `target` with the intermediate status.
 */
export async function writeOrderAs(store: Store, target: OrderRecord, followers = 0): Promise<void> {
  let previous = (await store.sub.orders.get(orderKey(target.keyId, target.slug))) as OrderRecord | undefined
  const ops = []
  for (const { writer, status } of movesTo(previous?.status ?? 'none', target.status)) {
    const next: OrderRecord = { ...target, status }
    ops.push(...orderWriteOps(store, previous, next, { writer, followers }))
    previous = next
  }
  await store.batch(ops)
}
