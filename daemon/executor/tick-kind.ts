import type { BookUse } from '../../src/domain/execution/book-cache.ts'
import type { TickReason } from '../../src/journal/journal-records.ts'

/**
 * What a tick did, for its time in the metrics (`prebuy_executor_tick_seconds{kind}`): issue 23 item 4's target is on
 * the ticks of a held book (`held`, and `orders_changed` for the tick after an order write), which a launch or a buy
 * would drown in one series.
 * - `launch`: a pool's launch tick, whatever it did.
 * - `no_orders`: the project has no active order (nothing planned).
 * - `buy`: the plan bought or expired orders (the executing batch or the batch commit written in the tick).
 * - `rebuilt`: a quiet tick whose book was built in the tick (the first tick after a start whose book was not prepared
 *   ahead, or more changes than a merge takes).
 * - `orders_changed`: a quiet tick whose book took in new, edited or removed orders (the tick after a PATCH, a POST or
 *   a DELETE of an order, or after orders left the book).
 * - `held`: a quiet tick over the same book (only the price or balances moved): a held book's tick every block.
 * - `failed`: the tick threw (run-tick.ts; its error is logged and the project's next tick runs).
 */
export type TickKind = 'launch' | 'no_orders' | 'buy' | 'rebuilt' | 'orders_changed' | 'held' | 'failed'

export function tickKind(tick: {
  reason: TickReason
  /** Active orders the tick planned over (0: none). */
  orders: number
  /** Whether the plan bought or expired orders (undefined: the tick ended before its plan, e.g. it threw). */
  acted: boolean | undefined
  /** How the book cache served the plan (book-cache.ts `lastUse`). */
  bookUse: BookUse | undefined
}): TickKind {
  if (tick.reason === 'launch') return 'launch'
  if (tick.orders === 0) return 'no_orders'
  if (tick.acted) return 'buy'
  switch (tick.bookUse) {
    case 'reused':
      return 'held'
    case 'filtered':
    case 'incremental':
      return 'orders_changed'
    default:
      return 'rebuilt'
  }
}

/** What a tick did as far as it got (decide-tick.ts fills it in): the inputs of its kind. */
export interface TickSeen {
  orders: number
  acted: boolean | undefined
  bookUse: BookUse | undefined
  /**
   * When the tick's reads had answered (its orders and balances, the reservations, the quote: performance.now()), so
   * what follows is its planning and recording; undefined if it never got there.
   */
  readAt: number | undefined
}

export const unseen = (): TickSeen => ({ orders: 0, acted: undefined, bookUse: undefined, readAt: undefined })
