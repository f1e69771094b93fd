import type { ExecutableOrder } from './executable-order.ts'
import { radixOrderDescending } from './radix-order.ts'

/**
 * How submissions on the open market are ordered. A named policy so it can be swapped (the spec says prioritisation
 * may change over time) and recorded in the execution journal.
 */
export interface PrioritisationPolicy {
  readonly name: string
  /** Exact order: negative when `a` goes first. */
  compare(a: ExecutableOrder, b: ExecutableOrder): number
  /**
   * Optional fast path for large ticks: two non-negative numbers (or +Infinity) per order, higher first, monotone
   * with `compare` (when they differ they must agree with it). Orders are then radix-sorted in linear time, and
   * `compare` only settles ties between keys too large to be exact doubles.
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

/** A new array in priority order; the input is left alone. Stable. */
export function prioritiseOrders<T extends ExecutableOrder>(orders: readonly T[], policy: PrioritisationPolicy = spendThenLimitPolicy): T[] {
  const order = priorityPermutation(orders, policy)
  const sorted: T[] = new Array(order.length)
  for (let i = 0; i < order.length; i++) sorted[i] = orders[order[i]!] as T
  return sorted
}

/** The input index at each priority position (what prioritiseOrders returns, as indices). Stable. */
export function priorityPermutation(orders: readonly ExecutableOrder[], policy: PrioritisationPolicy = spendThenLimitPolicy): Uint32Array {
  const n = orders.length
  const keys = policy.keys
  if (!keys) {
    const indices = Array.from({ length: n }, (_, i) => i)
    indices.sort((a, b) => policy.compare(orders[a]!, orders[b]!) || a - b)
    return Uint32Array.from(indices)
  }
  const primary = new Float64Array(n)
  const secondary = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const [p, s] = keys(orders[i]!)
    if (!(p >= 0) || !(s >= 0)) throw new RangeError(`policy ${policy.name} produced a negative or NaN key`)
    primary[i] = p
    secondary[i] = s
  }
  const order = radixOrderDescending(primary, secondary)

  // Keys above 2^53 are rounded doubles: equal keys may hide different exact values. Let `compare` settle such runs.
  for (let start = 0; start < n; ) {
    const first = order[start]!
    let end = start + 1
    while (end < n && primary[order[end]!] === primary[first] && secondary[order[end]!] === secondary[first]) end++
    if (end - start > 1 && !(exact(primary[first]!) && exact(secondary[first]!))) {
      const run = Array.from(order.subarray(start, end)).sort((a, b) => policy.compare(orders[a]!, orders[b]!) || a - b)
      for (let i = 0; i < run.length; i++) order[start + i] = run[i]!
    }
    start = end
  }
  return order
}

const exact = (key: number): boolean => key === Number.POSITIVE_INFINITY || Number.isSafeInteger(key)
