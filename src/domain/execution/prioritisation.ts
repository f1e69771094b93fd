import type { ExecutableOrder } from './executable-order.ts'

/**
 * How submissions on the open market are ordered. A named policy so it can be swapped (the spec says prioritisation
 * may change over time) and recorded in the execution journal.
 */
export interface PrioritisationPolicy {
  readonly name: string
  /** Exact order: negative when `a` goes first. */
  compare(a: ExecutableOrder, b: ExecutableOrder): number
  /**
   * Optional fast path for large ticks: two numbers per order, higher first, monotone with `compare` (when they
   * differ they must agree with it); `compare` decides only when both tie. Number comparisons are an order of
   * magnitude cheaper than bigint ones, which matters at 100,000 orders per tick.
   */
  keys?(order: ExecutableOrder): readonly [primary: number, secondary: number]
}

const compareBigintDesc = (a: bigint, b: bigint): number => (a > b ? -1 : a < b ? 1 : 0)

/**
 * The spec's policy: larger spend first; equal spend: higher FDV limit first, no limit highest. Ties keep their input
 * order (the sort is stable), so callers feed orders in creation order for first-come-first-served.
 */
export const spendThenLimitPolicy: PrioritisationPolicy = {
  name: 'spend-desc-then-limit-desc',
  compare(a, b) {
    const bySpend = compareBigintDesc(a.maxSpend, b.maxSpend)
    if (bySpend !== 0) return bySpend
    if (a.limitFdv === b.limitFdv) return 0
    if (a.limitFdv === null) return -1
    if (b.limitFdv === null) return 1
    return compareBigintDesc(a.limitFdv, b.limitFdv)
  },
  // Number(bigint) rounds monotonically, so unequal keys never contradict compare; equal keys fall back to it.
  keys: (o) => [Number(o.maxSpend), o.limitFdv === null ? Number.POSITIVE_INFINITY : Number(o.limitFdv)],
}

interface Decorated<T> {
  primary: number
  secondary: number
  order: T
}

/** A new array in priority order; the input is left alone. Stable. */
export function prioritiseOrders<T extends ExecutableOrder>(
  orders: readonly T[],
  policy: PrioritisationPolicy = spendThenLimitPolicy,
): T[] {
  const keys = policy.keys
  if (!keys) return [...orders].sort((a, b) => policy.compare(a, b))
  const decorated: Decorated<T>[] = new Array(orders.length)
  for (let i = 0; i < orders.length; i++) {
    const order = orders[i] as T
    const [primary, secondary] = keys(order)
    decorated[i] = { primary, secondary, order }
  }
  decorated.sort((a, b) =>
    a.primary !== b.primary
      ? b.primary - a.primary
      : a.secondary !== b.secondary
        ? b.secondary > a.secondary ? 1 : -1
        : policy.compare(a.order, b.order),
  )
  const sorted: T[] = new Array(decorated.length)
  for (let i = 0; i < decorated.length; i++) sorted[i] = (decorated[i] as Decorated<T>).order
  return sorted
}
