import { type VestingView, vestingView } from '../launch-methods/vesting/domain/vesting-view.ts'
import { itemFailed, type BatchItemResult } from '../domain/order-codes.ts'
import type { OrderValues } from '../domain/order-input.ts'
import { decideCreate, decideDelete, decidePatch, markDuplicates, type Decision } from '../domain/order-transitions.ts'
import type { OrderExecution, OrderRecord, OrderStatus, ProjectRecord } from '../domain/records.ts'
import { orderKey, spendGroupPrefix, VISIBLE_GROUP } from '../store/order-index.ts'
import { orderWriteOps, orderWrittenBy } from '../store/order-writes.ts'
import type { Store, StoreOperation } from '../store/open-store.ts'
import { countPrefix, readAll, readIndexPage } from '../store/paginate.ts'
import type { Clock } from './clock.ts'
import { followerCountOf } from '../store/follower-count.ts'

export type CreateItem = { slug: string } & OrderValues
export type PatchItem = { slug: string } & Partial<OrderValues>
export type DeleteItem = { slug: string }

/** An order as GET /orders returns it. Times are ISO 8601. */
export interface OrderView {
  slug: string
  status: OrderStatus
  maxSpendUsdc: string
  maxFdvUsdc: string | null
  expiresInMs: number
  createdAt: string
  updatedAt: string
  /** vesting: the schedule only (state null) until VestingService.withVesting adds the state now. */
  execution?: Omit<OrderExecution, 'executedAt' | 'vesting'> & { executedAt: string; vesting?: VestingView }
}

export interface OrderPage {
  data: OrderView[]
  meta: { total: number; limit: number; nextCursor: string | null }
}

export interface OrderService {
  createOrders(keyId: string, items: readonly CreateItem[]): Promise<BatchItemResult[]>
  patchOrders(keyId: string, items: readonly PatchItem[]): Promise<BatchItemResult[]>
  deleteOrders(keyId: string, items: readonly DeleteItem[]): Promise<BatchItemResult[]>
  listOrders(keyId: string, options: { status?: OrderStatus | undefined; cursor?: string | undefined; limit: number }): Promise<OrderPage>
  getOrder(keyId: string, slug: string): Promise<OrderRecord | undefined>
  /**
   * Cancels every active order of a key (active -> deleted, as its owner's DELETE would) inside the caller's own
   * write: under the key's order lock (the executor takes it too, so none is marked executing in between) the writes
   * are handed to `commit`, which puts them in its batch (a key's revocation). An order already executing settles as
   * usual.
   */
  cancelActiveOrdersWith<T>(keyId: string, commit: (ops: readonly StoreOperation[]) => Promise<T>): Promise<{ result: T; cancelled: number }>
  /** What the GET /orders page cache holds now (for metrics and tests): pages and the orders in them. */
  pageCacheSize(): { pages: number; orders: number; bytes: number }
}

export interface OrderServiceDeps {
  store: Store
  now: Clock
}

/**
 * Every writer of one key's orders (this service, the executor) takes this lock, so a read-decide-write never works
 * on a stale record.
 */
export const orderLockName = (keyId: string): string => `orders:${keyId}`

export function toOrderView(order: OrderRecord): OrderView {
  const view: OrderView = {
    slug: order.slug,
    status: order.status,
    maxSpendUsdc: order.maxSpendUsdc,
    maxFdvUsdc: order.maxFdvUsdc,
    expiresInMs: order.expiresInMs,
    createdAt: new Date(order.createdAt).toISOString(),
    updatedAt: new Date(order.updatedAt).toISOString(),
  }
  if (order.execution) {
    const { vesting, ...execution } = order.execution
    view.execution = {
      ...execution,
      executedAt: new Date(order.execution.executedAt).toISOString(),
      ...(vesting ? { vesting: vestingView(vesting, null) } : {}),
    }
  }
  return view
}

type Decide<T> = (item: T, project: ProjectRecord | undefined, existing: OrderRecord | undefined, nowMs: number) => Decision

/** Orders held in cached pages at most (about 30 MB); the cache is dropped whole when full. */
export const PAGE_CACHE_MAX_ORDERS = 100_000
/**
 * Pages held at most, whatever they contain: a client can ask for any number of distinct cursors under its own prefix
 * (and statuses and limits), each an entry even when empty (~4 KB each before this bound).
 */
export const PAGE_CACHE_MAX_PAGES = 10_000
/**
 * Bytes held in cached pages at most (their cache keys and their JSON), whatever the pages and orders: counted by
 * entries alone, one key could still add ~285 MB with long cursors (issue "round 3").
 */
export const PAGE_CACHE_MAX_BYTES = 32 * 1024 * 1024

export function createOrderService({ store, now }: OrderServiceDeps): OrderService {
  const { orders, projects, ordersBySpend } = store.sub

  /**
   * Pages of GET /orders, kept until the key's orders change. Every write goes through store.batch, whose listener
   * bumps the key's version, so a cached page is never served after a write to that key's orders (this service's or
   * the executor's). A page read while a write was in flight is stored under the old version and so never served.
   */
  const versions = new Map<string, number>()
  const pages = new Map<string, { version: number; page: OrderPage; bytes: number }>()
  let cachedOrders = 0
  let cachedBytes = 0
  const bytesOf = (cacheKey: string, page: OrderPage): number => 2 * cacheKey.length + JSON.stringify(page).length
  const versionOf = (keyId: string) => versions.get(keyId) ?? 0
  store.onBatch((operations) => {
    for (const op of operations) {
      const written = orderWrittenBy(store, op)
      if (written) versions.set(written.keyId, versionOf(written.keyId) + 1)
    }
  })

  /** Loads what every item needs in two multi-gets, decides each item, and writes all changes in one batch. */
  async function runBatch<T extends { slug: string }>(keyId: string, items: readonly T[], decide: Decide<T>) {
    return store.mutex.run(orderLockName(keyId), async () => {
      const duplicates = markDuplicates(items)
      const slugs = items.map((item) => item.slug)
      const [projectRecords, existingOrders, followerCount] = await Promise.all([
        projects.getMany(slugs),
        orders.getMany(slugs.map((slug) => orderKey(keyId, slug))),
        followerCountOf(store, keyId),
      ])
      const nowMs = now()
      const ops: StoreOperation[] = []
      const results = items.map((item, index): BatchItemResult => {
        if (duplicates[index]) return itemFailed(item.slug, 'duplicate_slug')
        const existing = existingOrders[index]
        const decision = decide(item, projectRecords[index], existing, nowMs)
        if (decision.next) ops.push(...orderWriteOps(store, existing, decision.next, { writer: 'api', followers: followerCount }))
        return decision.result
      })
      await store.batch(ops)
      return results
    })
  }

  return {
    createOrders: (keyId, items) =>
      runBatch(keyId, items, (item, project, existing, nowMs) =>
        decideCreate({
          keyId,
          slug: item.slug,
          project,
          existing,
          values: { maxSpendUsdc: item.maxSpendUsdc, maxFdvUsdc: item.maxFdvUsdc, expiresInMs: item.expiresInMs },
          now: nowMs,
        }),
      ),
    patchOrders: (keyId, items) =>
      runBatch(keyId, items, (item, project, existing, nowMs) => {
        const { slug, ...values } = item
        return decidePatch({ slug, project, existing, values, now: nowMs })
      }),
    deleteOrders: (keyId, items) =>
      runBatch(keyId, items, (item, project, existing, nowMs) => decideDelete({ slug: item.slug, project, existing, now: nowMs })),
    async listOrders(keyId, { status, cursor, limit }) {
      const cacheKey = `${keyId}|${status ?? ''}|${cursor ?? ''}|${limit}`
      const version = versionOf(keyId)
      const cached = pages.get(cacheKey)
      if (cached && cached.version === version) return cached.page
      const prefix = spendGroupPrefix(keyId, status ?? VISIBLE_GROUP)
      const page = await readIndexPage(ordersBySpend, prefix, { cursor, limit })
      // total: the key's orders under the same filter, as the other pages carry it (one key's orders: a small set,
      // counted by keys only, and cached with the page until the key's next order write).
      const total = await countPrefix(ordersBySpend, prefix)
      const result = { data: page.entries.map((entry) => toOrderView(entry.value)), meta: { total, limit, nextCursor: page.nextCursor } }
      const bytes = bytesOf(cacheKey, result)
      if (cachedOrders + result.data.length > PAGE_CACHE_MAX_ORDERS || pages.size >= PAGE_CACHE_MAX_PAGES || cachedBytes + bytes > PAGE_CACHE_MAX_BYTES) {
        pages.clear()
        cachedOrders = 0
        cachedBytes = 0
      }
      const replaced = pages.get(cacheKey)
      if (replaced) {
        cachedOrders -= replaced.page.data.length
        cachedBytes -= replaced.bytes
      }
      pages.set(cacheKey, { version, page: result, bytes })
      cachedOrders += result.data.length
      cachedBytes += bytes
      return result
    },
    getOrder: (keyId, slug) => orders.get(orderKey(keyId, slug)),
    pageCacheSize: () => ({ pages: pages.size, orders: cachedOrders, bytes: cachedBytes }),
    cancelActiveOrdersWith: (keyId, commit) =>
      store.mutex.run(orderLockName(keyId), async () => {
        const [all, followers] = await Promise.all([readAll(orders, orderKey(keyId, '')), followerCountOf(store, keyId)])
        const nowMs = now()
        const active = all.map((entry) => entry.value).filter((order) => order.status === 'active')
        const ops = active.flatMap((order) => orderWriteOps(store, order, { ...order, status: 'deleted', updatedAt: nowMs }, { writer: 'api', followers }))
        return { result: await commit(ops), cancelled: active.length }
      }),
  }
}
