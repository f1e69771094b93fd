import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { executionOrderId } from '../../../daemon/executor/build-buy-calls.ts'
import { createOrderLoader } from '../../../daemon/executor/load-orders.ts'
import { del } from '../../../src/store/open-store.ts'
import { type ExecutorFixture, keyIdOf, SLUG, startExecutorFixture, walletOf } from './executor-fixture.ts'

describe('loading a project’s orders (load-orders.ts)', () => {
  let f: ExecutorFixture
  beforeEach(async () => {
    f = await startExecutorFixture()
  })
  afterEach(() => f.close())

  it('lists the active orders with their buyer’s index, followers and wallet; skips other states and orders without a user', async () => {
    const wanted = await f.addOrder(1, 10, null)
    await f.addOrder(2, 10, null, { status: 'deleted' })
    await f.addOrder(3, 10, null)
    await f.store.batch([del(f.store.sub.users, keyIdOf(3))])
    const loaded = await createOrderLoader({ store: f.store, wallets: f.ctx.wallets }).load(SLUG)
    expect(loaded).toEqual([{ order: wanted, userIndex: 1, followers: 0, wallet: walletOf(1) }])
  })

  it('hands back an order unchanged since the previous load as the very same entry, a changed one afresh', async () => {
    const loader = createOrderLoader({ store: f.store, wallets: f.ctx.wallets })
    await f.addOrder(1, 10, null)
    await f.addOrder(2, 10, null)
    await f.addOrder(3, 10, null)
    const first = await loader.load(SLUG)
    // A PATCH of the second order (its terms and updatedAt), and one order deleted.
    await f.addOrder(2, 25, 500_000, { updatedAt: 10 })
    await f.addOrder(3, 10, null, { status: 'deleted' })
    const second = await loader.load(SLUG, first)
    expect(second.map((l) => l.order.keyId)).toEqual([keyIdOf(1), keyIdOf(2)])
    expect(second[0]).toBe(first[0])
    expect(second[1]).not.toBe(first[1])
    expect(second[1]!.order).toMatchObject({ maxSpendUsdc: '25', maxFdvUsdc: '500000', updatedAt: 10 })
    // Without a previous load every entry is new.
    expect((await loader.load(SLUG))[0]).not.toBe(first[0])
  })

  it('gives each order its router id, the same for the same order and new for an order placed again', async () => {
    const loader = createOrderLoader({ store: f.store, wallets: f.ctx.wallets })
    const order = await f.addOrder(1, 10, null)
    expect(loader.idOf(order)).toBe(executionOrderId(order))
    expect(loader.idOf({ ...order })).toBe(loader.idOf(order))
    expect(loader.idOf({ ...order, createdAt: order.createdAt + 1 })).not.toBe(loader.idOf(order))
  })
})
