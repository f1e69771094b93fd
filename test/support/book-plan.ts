import type { ExecutableOrder } from '../../src/domain/execution/executable-order.ts'
import type { OrderBook } from '../../src/domain/execution/order-book.ts'
import { BookVerdict, SKIP_REASON, spendAt, type BookTickPlan } from '../../src/domain/execution/columnar-planner.ts'
import type { TickPlan } from '../../src/domain/execution/reference-planner.ts'

/** The input orders in the book's priority order. */
export const inBookOrder = <T>(book: OrderBook, orders: readonly T[]): T[] => Array.from(book.permutation, (i) => orders[i]!)

/** The book plan in planTick's shape, to compare with the reference decision by decision. */
export function asTickPlan(plan: BookTickPlan, orders: readonly ExecutableOrder[]): Omit<TickPlan, 'reserved'> {
  const skipped: TickPlan['skipped'] = []
  for (let p = 0; p < orders.length; p++) {
    const code = plan.verdict[p]!
    if (code !== BookVerdict.buy && code !== BookVerdict.expired) skipped.push({ order: orders[p]!, reason: SKIP_REASON[code]! })
  }
  return {
    buys: Array.from(plan.buys, (p) => ({ order: orders[p]!, spend: spendAt(plan, p) })),
    expired: Array.from(plan.expired, (p) => orders[p]!),
    skipped,
  }
}
