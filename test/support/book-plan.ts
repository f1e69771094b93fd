import type { ExecutableOrder } from '../../src/domain/execution/executable-order.ts'
import type { OrderBook } from '../../src/domain/execution/order-book.ts'
import { spendAt, type BookTickPlan } from '../../src/domain/execution/columnar-planner.ts'
import type { SkipReason, TickPlan } from '../../src/domain/execution/reference-planner.ts'
import { ORDER_VERDICTS, VerdictCode } from '../../src/domain/execution/verdicts.ts'

/** The input orders in the book's priority order. */
export const inBookOrder = <T>(book: OrderBook, orders: readonly T[]): T[] => Array.from(book.permutation, (i) => orders[i]!)

/** The book plan in planTick's shape, to compare with the reference decision by decision. */
export function asTickPlan(plan: BookTickPlan, orders: readonly ExecutableOrder[]): Omit<TickPlan, 'reserved'> {
  const skipped: TickPlan['skipped'] = []
  for (let p = 0; p < orders.length; p++) {
    const code = plan.verdict[p]!
    // The code's name as is: a code the reference never skips with (submitted, deferred) makes the comparison fail.
    if (code !== VerdictCode.submitted && code !== VerdictCode.expired) skipped.push({ order: orders[p]!, reason: ORDER_VERDICTS[code] as SkipReason })
  }
  return {
    buys: Array.from(plan.buys, (p) => ({ order: orders[p]!, spend: spendAt(plan, p) })),
    expired: Array.from(plan.expired, (p) => orders[p]!),
    skipped,
  }
}
