import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { put } from '../../src/store/open-store.ts'
import { createHarness, plainProject, type Harness } from './harness.ts'

let h: Harness
let keyId: string
beforeEach(async () => {
  h = await createHarness()
  keyId = (await h.services.keys.issueKey('buyer')).record.id
  await plainProject(h, 'alpha')
  await h.services.orders.createOrders(keyId, [{ slug: 'alpha', maxSpendUsdc: '10', maxFdvUsdc: null, expiresInMs: 1000 }])
})
afterEach(async () => {
  await h.destroy()
})

describe('orders.updateOrder (the executor entry point)', () => {
  it('moves an order and writes extra journal operations in the same batch', async () => {
    const journal = h.store.sublevel<{ note: string }>('executions')
    const updated = await h.services.orders.updateOrder(keyId, 'alpha', (current) => ({
      next: { ...current, status: 'executing', updatedAt: current.updatedAt + 1 },
      extraOps: [put(journal, 'alpha!1', { note: 'submitted' })],
    }))
    expect(updated.status).toBe('executing')
    expect(await journal.get('alpha!1')).toEqual({ note: 'submitted' })
    expect((await h.services.projects.ordersOfProject('alpha', ['executing'])).map((o) => o.keyId)).toEqual([keyId])
    expect(await h.services.projects.ordersOfProject('alpha', ['active'])).toEqual([])
    const page = await h.services.orders.listOrders(keyId, { status: 'executing', limit: 5 })
    expect(page.data.map((o) => o.slug)).toEqual(['alpha'])
  })

  it('refuses a move out of a final state and writes nothing', async () => {
    await h.services.orders.updateOrder(keyId, 'alpha', (current) => ({ next: { ...current, status: 'filled' } }))
    const journal = h.store.sublevel<string>('executions')
    await expect(
      h.services.orders.updateOrder(keyId, 'alpha', (current) => ({ next: { ...current, status: 'active' }, extraOps: [put(journal, 'x', 'y')] })),
    ).rejects.toMatchObject({ code: 'invalid_order_transition' })
    expect(await journal.get('x')).toBeUndefined()
    expect((await h.services.orders.getOrder(keyId, 'alpha'))?.status).toBe('filled')
  })

  it('no change when decide returns undefined; 404-kind error for a missing order', async () => {
    const before = await h.services.orders.getOrder(keyId, 'alpha')
    expect(await h.services.orders.updateOrder(keyId, 'alpha', () => undefined)).toEqual(before)
    await expect(h.services.orders.updateOrder(keyId, 'nope', () => undefined)).rejects.toMatchObject({ kind: 'not_found' })
  })
})
