import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { OrderRecord } from '../../src/domain/records.ts'
import { put, type Store, type Sublevel } from '../../src/store/open-store.ts'
import { buyersPrefix, projectStatusPrefix, spendGroupPrefix } from '../../src/store/order-index.ts'
import { followerCountOps, orderWriteOps, orderWrittenBy } from '../../src/store/order-writes.ts'
import { readAll } from '../../src/store/paginate.ts'
import { openTempStore } from '../support/temp-store.ts'

const order = (status: OrderRecord['status'], patch: Partial<OrderRecord> = {}): OrderRecord => ({
  keyId: 'k1',
  slug: 'alpha',
  status,
  maxSpendUsdc: '10',
  maxFdvUsdc: null,
  expiresInMs: 1000,
  createdAt: 1,
  updatedAt: 1,
  ...patch,
})

describe('the order writer (order-writes.ts)', () => {
  let store: Store
  let remove: () => Promise<void>
  beforeEach(async () => {
    ;({ store, remove } = await openTempStore('order-writes'))
  })
  afterEach(() => remove())

  const keysOf = async <V>(sublevel: Sublevel<V>, prefix: string) => (await readAll(sublevel, prefix)).map((e) => e.key)

  it('moves an order through the executor’s states; every index follows the record in the same batch', async () => {
    await store.batch(orderWriteOps(store, undefined, order('active'), { writer: 'api', followers: 3 }))
    await store.batch(orderWriteOps(store, order('active'), order('executing'), { writer: 'executor', followers: 3 }))
    expect(await keysOf(store.sub.ordersByProject, projectStatusPrefix('alpha', 'executing'))).toEqual(['alpha!executing!k1'])
    expect(await keysOf(store.sub.ordersByProject, projectStatusPrefix('alpha', 'active'))).toEqual([])
    expect((await readAll(store.sub.ordersBySpend, spendGroupPrefix('k1', 'executing'))).map((e) => e.value.status)).toEqual(['executing'])
    await store.batch(orderWriteOps(store, order('executing'), order('filled'), { writer: 'executor', followers: 3 }))
    expect((await store.sub.orders.get('k1!alpha'))?.status).toBe('filled')
    expect(await keysOf(store.sub.ordersBySpend, spendGroupPrefix('k1', 'executing'))).toEqual([])
    expect(await keysOf(store.sub.buyersByProject, buyersPrefix('alpha'))).toHaveLength(1)
  })

  it('refuses a move its writer may not make, and any change of the order’s identity, before writing anything', async () => {
    const refused = (fn: () => unknown) => expect(fn).toThrow(expect.objectContaining({ kind: 'internal', code: 'invalid_order_transition' }))
    refused(() => orderWriteOps(store, order('active'), order('filled'), { writer: 'executor', followers: 0 }))
    refused(() => orderWriteOps(store, order('active'), order('executing'), { writer: 'api', followers: 0 }))
    refused(() => orderWriteOps(store, order('executing'), order('deleted'), { writer: 'api', followers: 0 }))
    refused(() => orderWriteOps(store, order('expired'), order('active'), { writer: 'executor', followers: 0 }))
    refused(() => orderWriteOps(store, undefined, order('executing'), { writer: 'executor', followers: 0 }))
    refused(() => orderWriteOps(store, order('active'), order('active', { slug: 'beta' }), { writer: 'api', followers: 0 }))
    // filled -> executing only for a batch a reorg undid, named as the cause (and then nothing else).
    refused(() => orderWriteOps(store, order('filled'), order('executing'), { writer: 'executor', followers: 0 }))
    refused(() => orderWriteOps(store, order('filled'), order('active'), { writer: 'executor', followers: 0, cause: 'batch_undone_by_reorg' }))
    refused(() => orderWriteOps(store, order('filled'), order('executing'), { writer: 'api', followers: 0, cause: 'batch_undone_by_reorg' }))
    expect(orderWriteOps(store, order('filled'), order('executing'), { writer: 'executor', followers: 0, cause: 'batch_undone_by_reorg' })).not.toEqual([])
    expect(await readAll(store.sub.orders, '')).toEqual([])
  })

  it('followerCountOps moves the key’s buyer index entries to the new count; nothing when it did not change', async () => {
    await store.batch(orderWriteOps(store, undefined, order('active'), { writer: 'api', followers: 3 }))
    await store.batch(orderWriteOps(store, undefined, order('active', { slug: 'beta' }), { writer: 'api', followers: 3 }))
    const before = [...(await keysOf(store.sub.buyersByProject, buyersPrefix('alpha'))), ...(await keysOf(store.sub.buyersByProject, buyersPrefix('beta')))]
    expect(followerCountOps(store, 'k1', ['alpha', 'beta'], 3, 3)).toEqual([])
    await store.batch(followerCountOps(store, 'k1', ['alpha', 'beta'], 3, 500))
    const after = [...(await keysOf(store.sub.buyersByProject, buyersPrefix('alpha'))), ...(await keysOf(store.sub.buyersByProject, buyersPrefix('beta')))]
    expect(after).toHaveLength(2)
    expect(after.some((key) => before.includes(key))).toBe(false)
  })

  it('orderWrittenBy names the order an operation writes (its record), and nothing for other operations', () => {
    const ops = orderWriteOps(store, undefined, order('active'), { writer: 'api', followers: 0 })
    expect(ops.map((op) => orderWrittenBy(store, op)).filter(Boolean)).toEqual([{ keyId: 'k1', slug: 'alpha' }])
    expect(orderWrittenBy(store, put(store.sub.users, 'k1', { keyId: 'k1', userIndex: 0 }))).toBeUndefined()
  })
})
