import type { QueueSizes } from '../../src/admin-api/contract.ts'
import { createJournal } from '../../src/journal/journal.ts'
import type { Store } from '../../src/store/open-store.ts'

/** How much work waits, for `prebuy daemon status`: read from the store at each call (a few range scans). */
export function createQueueSizes(store: Store): () => Promise<QueueSizes> {
  const journal = createJournal(store)
  const countKeys = async (sublevel: Store['sub']['ordersByProject'], match: (key: string) => boolean): Promise<number> => {
    let n = 0
    for await (const key of sublevel.keys()) if (match(key)) n++
    return n
  }
  return async () => {
    const [inFlight, reviews, candidates, quarantinedLogs, activeOrders] = await Promise.all([
      journal.inFlight(),
      (async () => {
        let n = 0
        for await (const item of store.sub.reviews.values()) if (item.status === 'pending') n++
        return n
      })(),
      journal.candidates(),
      journal.quarantinedLogs(),
      countKeys(store.sub.ordersByProject, (key) => key.includes('!active!')),
    ])
    return {
      inFlightBuys: inFlight.length,
      pendingReviews: reviews,
      activeOrders,
      candidatesAwaitingConfirmation: candidates.filter((c) => c.status === 'awaiting_confirmation').length,
      quarantinedLaunches: candidates.filter((c) => c.status === 'quarantined').length + quarantinedLogs.length,
    }
  }
}
