import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOrderLoader } from '../../daemon/executor/load-orders.ts'
import type { LoadedOrder } from '../../daemon/executor/warm-books.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import { put, type Store } from '../../src/store/open-store.ts'
import { openTempStore } from '../support/temp-store.ts'

const wallet = (userIndex: number) => `0x${(userIndex + 1).toString(16).padStart(40, '0')}` as Address
const keyOf = (i: number) => `key_${String(i).padStart(5, '0')}`

const recordOf = (i: number, maxSpendUsdc = '10'): OrderRecord => ({
  keyId: keyOf(i),
  slug: 'held',
  status: 'active',
  maxSpendUsdc,
  maxFdvUsdc: '1000',
  expiresInMs: 3_600_000,
  createdAt: 1,
  updatedAt: 1,
})

/**
 * The loader's patch of a held list by a few writes (load-orders.ts): the written entries are found by their key id,
 * the rest of the list is copied without being looked at. A real LevelDB behind the loader (unused by a PATCH of held
 * orders: nothing is read for them).
 */
describe("the loader's patch of a held list (load-orders.ts)", () => {
  let temp: Awaited<ReturnType<typeof openTempStore>>
  let store: Store
  beforeAll(async () => {
    temp = await openTempStore('loader-patch')
    store = temp.store
  })
  afterAll(async () => {
    await temp?.remove()
  })

  /** 1,000 held orders in key id order, each entry's `order` read counted (per key id). */
  function heldList() {
    const reads = new Map<string, number>()
    const list: LoadedOrder[] = Array.from({ length: 1_000 }, (_, i) => {
      const order = recordOf(i)
      const entry = { userIndex: i, followers: 0, wallet: wallet(i) } as LoadedOrder
      Object.defineProperty(entry, 'order', {
        enumerable: true,
        get: () => {
          reads.set(order.keyId, (reads.get(order.keyId) ?? 0) + 1)
          return order
        },
      })
      return entry
    })
    return { list, reads }
  }

  it('a PATCH and a deletion look at their own entries and a binary search: the other entries are handed back unread, the same objects', async () => {
    const loader = createOrderLoader({ store, wallets: { walletAddress: async (userIndex: number) => wallet(userIndex) } })
    const { list, reads } = heldList()
    const patched = await loader.patch(
      list,
      new Map<string, OrderRecord | null>([
        [keyOf(500), { ...recordOf(500, '42'), updatedAt: 2 }],
        [keyOf(7), { ...recordOf(7), status: 'deleted', updatedAt: 2 }],
      ]),
    )
    const touched = [...reads.values()].reduce((a, b) => a + b, 0)
    expect(patched).toHaveLength(999)
    expect(patched.filter((entry, i) => entry !== list[i < 7 ? i : i + 1])).toHaveLength(1)
    expect(patched[499]!.order).toMatchObject({ keyId: keyOf(500), maxSpendUsdc: '42', updatedAt: 2 })
    expect(patched[499]!.userIndex).toBe(500)
    expect(patched.some((entry) => entry === list[7])).toBe(false)
    // Two binary searches of 1,000 (~10 entries each) and the written entries: the walk read all 1,000.
    expect(reads.size).toBeLessThan(40)
    expect(touched).toBeLessThan(60)
  })

  it('a placement (a key id the list does not hold) is merged in key id order by the walk', async () => {
    const loader = createOrderLoader({ store, wallets: { walletAddress: async (userIndex: number) => wallet(userIndex) } })
    await store.batch([put(store.sub.users, 'key_00500a', { keyId: 'key_00500a', userIndex: 2_000 })])
    const list = Array.from({ length: 1_000 }, (_, i): LoadedOrder => ({ order: recordOf(i), userIndex: i, followers: 0, wallet: wallet(i) }))
    const placed = await loader.patch(list, new Map([['key_00500a', { ...recordOf(0), keyId: 'key_00500a' }]]))
    expect(placed).toHaveLength(1_001)
    expect(placed[501]!.order.keyId).toBe('key_00500a')
    expect(placed[501]!.wallet).toBe(wallet(2_000))
    expect(placed.filter((entry) => entry.order.keyId !== 'key_00500a').every((entry, i) => entry === list[i])).toBe(true)
  })
})
