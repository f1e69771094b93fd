import { describe, expect, it } from 'vitest'
import { executionOrderId } from '../../../daemon/executor/build-buy-calls.ts'
import { createOrderIdCache } from '../../../daemon/executor/order-id-cache.ts'

describe('createOrderIdCache (order ids held as bytes)', () => {
  it('hands back the id executionOrderId computes, computing each order once while it is held', () => {
    let computed = 0
    const idOf = createOrderIdCache((order) => {
      computed++
      return executionOrderId(order)
    }, 3_000)
    const orders = Array.from({ length: 2_500 }, (_, i) => ({ keyId: `key_${i % 200}`, slug: `load-${Math.floor(i / 200)}`, createdAt: 1_000 + i }))
    for (const order of orders) expect(idOf(order)).toBe(executionOrderId(order))
    expect(computed).toBe(orders.length)
    // Held: the same ids again (from a copy of each record), no keccak.
    for (const order of orders) expect(idOf({ ...order })).toBe(executionOrderId(order))
    expect(computed).toBe(orders.length)
    // Another createdAt is another id (the id hashes it).
    const again = { ...orders[7]!, createdAt: 5 }
    expect(idOf(again)).toBe(executionOrderId(again))
    expect(computed).toBe(orders.length + 1)
  })

  it('starts afresh past its bound, still right', () => {
    const idOf = createOrderIdCache(executionOrderId, 10)
    const orders = Array.from({ length: 25 }, (_, i) => ({ keyId: `k${i}`, slug: 's', createdAt: i }))
    for (const order of orders) idOf(order)
    for (const order of orders) expect(idOf(order)).toBe(executionOrderId(order))
  })
})
