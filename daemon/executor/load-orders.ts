import type { Hash } from 'viem'
import type { OrderRecord, UserRecord } from '../../src/domain/records.ts'
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
import { indexOfKey } from './index-of-key.ts'

export interface OrderLoader {
  /**
   * A project's active orders with their buyers (user index, follower count, wallet), from the store. With `previous`
   * (the project's last load), an order unchanged since is handed back as the very same entry: the executor's tick then
   * recognises 100,000 unchanged orders by identity after a PATCH instead of comparing fresh records (held-candidates.ts).
   */
  load(slug: string, previous?: readonly LoadedOrder[]): Promise<LoadedOrder[]>
  /**
   * `list` (a load of the project, or a patch of one) with the written orders set to what `changes` says, by key id:
   * an active record replaces or adds its order, anything else (another status; null: the record was deleted) removes
   * it. `users` are written user records by key id: their orders take the record's buyer (follower count, user
   * index); null (deleted) removes them, as a load leaves out an order without its user. Idempotent, so exact over a
   * load that read the store after some of these writes. An edited order keeps its entry's buyer unless `users` has
   * its key; an added one's buyer is read from the store. Unchanged entries are handed back as the very same objects.
   * The records of `changes` become the patch's own (interned in place): copies decoded from their JSON, as the warm
   * books take them when written (so they have the hidden class of the loaded records: intern-order.ts).
   */
  patch(list: readonly LoadedOrder[], changes: ReadonlyMap<string, OrderRecord | null>, users?: ReadonlyMap<string, UserRecord | null>): Promise<LoadedOrder[]>
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

  // A written record as a load would hand it out: interned in place (the patch's own copy), its router id computed.
  const decoded = (record: OrderRecord): OrderRecord => {
    const order = internOrder(record, intern)
    idOf(order)
    return order
  }

  // An entry with its buyer taken from a written user record (the wallet read again only if the index differs).
  const withBuyer = async (entry: LoadedOrder, user: UserRecord): Promise<LoadedOrder> => ({
    order: entry.order,
    userIndex: user.userIndex,
    followers: user.social?.followerCount ?? 0,
    wallet: user.userIndex === entry.userIndex ? entry.wallet : await deps.wallets.walletAddress(user.userIndex),
  })

  async function patch(
    list: readonly LoadedOrder[],
    changes: ReadonlyMap<string, OrderRecord | null>,
    users: ReadonlyMap<string, UserRecord | null> = new Map(),
  ): Promise<LoadedOrder[]> {
    const inPlace = await patchFound(list, changes, users)
    if (inPlace) return inPlace
    const pending = new Map(changes)
    const out: LoadedOrder[] = []
    for (const entry of list) {
      const keyId = entry.order.keyId
      const user = users.get(keyId)
      if (user === null) {
        pending.delete(keyId)
        continue
      }
      if (!pending.has(keyId) && user === undefined) {
        out.push(entry)
        continue
      }
      const record = pending.has(keyId) ? pending.get(keyId) : entry.order
      pending.delete(keyId)
      if (record?.status !== 'active') continue
      const edited = record === entry.order ? entry : { order: decoded(record), userIndex: entry.userIndex, followers: entry.followers, wallet: entry.wallet }
      const next = user ? await withBuyer(edited, user) : edited
      out.push(sameHeldOrder(entry, next) ? entry : next)
    }
    const added = [...pending].filter((change): change is [string, OrderRecord] => change[1]?.status === 'active')
    if (added.length === 0) return out
    const buyers = await store.sub.users.getMany(added.map(([keyId]) => keyId))
    const fresh = await Promise.all(
      added.map(async ([, record], i) => {
        const user = buyers[i]
        if (!user) return undefined
        return {
          order: decoded(record),
          userIndex: user.userIndex,
          followers: user.social?.followerCount ?? 0,
          wallet: await deps.wallets.walletAddress(user.userIndex),
        }
      }),
    )
    return mergeByKeyId(
      out,
      fresh.filter((c): c is NonNullable<typeof c> => c !== undefined).sort((a, b) => (a.order.keyId < b.order.keyId ? -1 : 1)),
    )
  }

  /**
   * `patch` when every written key id is found in `list` by a binary search on key id (the list is in keyId order): a
   * copy of the list with only those entries looked at, the same rule for each as the walk below. A PATCH of one order
   * of 17,000 walked every entry (its key id read, two map lookups, a push: ~8 ms of the event loop in the held-ticks
   * bench, where the tick after the PATCH waits for this reload). Undefined when a key is not found (an added order, a
   * write to an order the list does not hold, a list out of order): the walk, which handles every case.
   */
  async function patchFound(
    list: readonly LoadedOrder[],
    changes: ReadonlyMap<string, OrderRecord | null>,
    users: ReadonlyMap<string, UserRecord | null>,
  ): Promise<LoadedOrder[] | undefined> {
    const found = new Map<number, string>()
    for (const keyId of [...changes.keys(), ...users.keys()]) {
      const i = indexOfKey(list, keyId)
      if (i < 0) return undefined
      found.set(i, keyId)
    }
    const out = list.slice()
    // From the last index down: removing an entry does not move the ones still to edit.
    for (const i of [...found.keys()].sort((a, b) => b - a)) {
      const keyId = found.get(i)!
      const entry = list[i]!
      const user = users.get(keyId)
      const record = changes.has(keyId) ? changes.get(keyId) : entry.order
      if (user === null || record?.status !== 'active') {
        out.splice(i, 1)
        continue
      }
      const edited = record === entry.order ? entry : { order: decoded(record), userIndex: entry.userIndex, followers: entry.followers, wallet: entry.wallet }
      const next = user ? await withBuyer(edited, user) : edited
      out[i] = sameHeldOrder(entry, next) ? entry : next
    }
    return out
  }

  return { load, patch, idOf }
}

/** Two lists in keyId order (the project index's, as a load lists them) merged into one in that order. */
function mergeByKeyId(a: readonly LoadedOrder[], b: readonly LoadedOrder[]): LoadedOrder[] {
  const out: LoadedOrder[] = []
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) out.push(a[i]!.order.keyId < b[j]!.order.keyId ? a[i++]! : b[j++]!)
  while (i < a.length) out.push(a[i++]!)
  while (j < b.length) out.push(b[j++]!)
  return out
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
