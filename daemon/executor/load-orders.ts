import type { Hash } from 'viem'
import type { OrderRecord } from '../../src/domain/records.ts'
import { orderKey, projectStatusPrefix } from '../../src/store/order-index.ts'
import type { Store } from '../../src/store/open-store.ts'
import { readAll } from '../../src/store/paginate.ts'
import { createInterner } from '../../src/common/compact-strings.ts'
import { createOrderIdCache } from './order-id-cache.ts'
import { internOrder } from './intern-order.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'
import { executionOrderId } from './build-buy-calls.ts'
import type { LoadedOrder } from './warm-books.ts'
import { sameHeldOrder } from '../../src/domain/execution/held-candidates.ts'

export interface OrderLoader {
  /**
   * A project's active orders with their buyers (user index, follower count, wallet), from the store. With `previous`
   * (the project's last load), an order unchanged since is handed back as the very same entry: the executor's tick then
   * recognises 100,000 unchanged orders by identity after a PATCH instead of comparing fresh records (held-candidates.ts).
   */
  load(slug: string, previous?: readonly LoadedOrder[]): Promise<LoadedOrder[]>
  /** The order's router id (executionOrderId), computed once: when the order was loaded, mostly ahead of the launch. */
  idOf(order: Pick<OrderRecord, 'keyId' | 'slug' | 'createdAt'>): Hash
}

/** Most order ids kept: a bound, not an eviction policy (an id is recomputed on demand). */
const MAX_CACHED_IDS = 500_000

export function createOrderLoader(deps: { store: Store; wallets: Pick<WalletService, 'walletAddress'> }): OrderLoader {
  const { store } = deps
  // Order ids (a keccak each) computed when orders are loaded, mostly by the warm refresh before launch, so the launch
  // tick's executing batch does not hash hundreds of them. Held as bytes (order-id-cache.ts), keyed by everything the
  // id hashes.
  const idOf = createOrderIdCache(executionOrderId, MAX_CACHED_IDS)
  // The warm snapshot holds every active order of every waiting project: one copy of each repeated string (key ids,
  // slugs, statuses, amounts) instead of one per record as JSON.parse makes them.
  const intern = createInterner()

  async function load(slug: string, previous?: readonly LoadedOrder[]): Promise<LoadedOrder[]> {
    const keyIds = (await readAll(store.sub.ordersByProject, projectStatusPrefix(slug, 'active'))).map((e) => e.value)
    // Two multi-gets instead of two reads per order: the launch tick is latency-critical.
    const [orders, users] = await Promise.all([
      store.sub.orders.getMany(keyIds.map((keyId) => orderKey(keyId, slug))) as Promise<Array<OrderRecord | undefined>>,
      store.sub.users.getMany(keyIds),
    ])
    const loaded = await Promise.all(
      keyIds.map(async (_keyId, i) => {
        const order = orders[i]
        const user = users[i]
        if (order?.status !== 'active' || !user) return undefined
        internOrder(order, intern)
        idOf(order)
        return { order, userIndex: user.userIndex, followers: user.social?.followerCount ?? 0, wallet: await deps.wallets.walletAddress(user.userIndex) }
      }),
    )
    const out = loaded.filter((c): c is NonNullable<typeof c> => c !== undefined)
    return previous ? reuseUnchanged(out, previous) : out
  }

  return { load, idOf }
}

/**
 * `loaded` with each entry equal to one of `previous` (same keyId, same content) replaced by that one. Both lists are
 * in keyId order (the project index's), so one walk pairs them; an entry out of order is only not reused.
 */
function reuseUnchanged(loaded: LoadedOrder[], previous: readonly LoadedOrder[]): LoadedOrder[] {
  let j = 0
  for (let i = 0; i < loaded.length; i++) {
    const entry = loaded[i]!
    const key = entry.order.keyId
    while (j < previous.length && previous[j]!.order.keyId < key) j++
    if (j < previous.length && sameHeldOrder(previous[j]!, entry)) loaded[i] = previous[j]!
  }
  return loaded
}
