import type { Hash } from 'viem'
import type { OrderRecord, ProjectRecord } from '../../domain/records.ts'
import type { Journal } from '../../journal/journal.ts'
import { pooledBuyers } from '../pooled-buyers.ts'
import { orderLockName } from '../../services/order-service.ts'
import { PROJECT_LOCK } from '../../services/project-service.ts'
import { orderKey } from '../../store/order-index.ts'
import type { Store, StoreOperation } from '../../store/open-store.ts'
import { projectWriteOps } from '../../store/project-writes.ts'
import { transitionOps } from '../../../daemon/executor/order-transition-ops.ts'
import { followerCountOf } from '../../store/follower-count.ts'

/** One order's move in a pooled buy's bookkeeping (to executing before the buy, to filled or back to active after). */
export interface PooledOrderMove {
  order: OrderRecord
  to: OrderRecord['status']
  patch?: Partial<OrderRecord>
  reason: string
  txHash?: Hash
}

/**
 * The bookkeeping both pooled launch methods (OTC settlement, dev buy) share: the project's launch-method state and the
 * orders' moves written in one batch, under the project lock and the orders' locks, each order re-read under its lock
 * (an order an API call changed since, only possible before `executing`, is left alone); and the buyers of orders.
 */
export function createPooledOrders(deps: { store: Store; journal: Journal; now: () => number }) {
  const { store, journal, now } = deps

  return {
    async record(slug: string, next: (project: ProjectRecord, at: number) => ProjectRecord, moves: readonly PooledOrderMove[]): Promise<void> {
      await store.mutex.runAll([PROJECT_LOCK, ...moves.map((m) => orderLockName(m.order.keyId))], async () => {
        const project = (await store.sub.projects.get(slug))!
        const ops: StoreOperation[] = []
        const at = now()
        for (const move of moves) {
          const current = await store.sub.orders.get(orderKey(move.order.keyId, move.order.slug))
          if (!current || current.status !== move.order.status) continue
          const event = { reason: move.reason, ...(move.txHash ? { txHash: move.txHash } : {}) }
          ops.push(...transitionOps({ store, journal }, current, move.to, at, event, await followerCountOf(store, current.keyId), move.patch))
        }
        ops.push(...projectWriteOps(store, project, { ...next(project, at), updatedAt: at }))
        await store.batch(ops)
      })
    },

    /** The buyers behind orders, skipping orders whose key is gone or revoked. */
    buyersOf: (orders: readonly OrderRecord[]) => pooledBuyers(store, orders),
  }
}

export type PooledOrders = ReturnType<typeof createPooledOrders>
