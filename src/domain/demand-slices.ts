/** Spend behind one price limit: what a slice of the order book is made of. */
export interface LimitedSpend {
  /** Micro-USD FDV limit; null: no limit. */
  limitFdv: bigint | null
  spend: bigint
}

/** The orders sharing one price limit. */
export interface DemandSlice {
  limitFdv: bigint | null
  orders: number
  spend: bigint
  /** Spend of every order still eligible at an effective cap equal to this limit (this slice and all above it). */
  eligibleSpend: bigint
}

/**
 * The order book as demand by price limit: one slice per limit, no limit first, then highest limit first; a slice
 * becomes eligible once the effective market cap (the pool's price with every fee counted) is at or below its limit,
 * and from then on `eligibleSpend` is what would buy. The spend is the caller's: committed caps for the owner's depth
 * (project-stats.ts), funded spend for the launch simulator.
 */
export function demandSlices(items: readonly LimitedSpend[]): DemandSlice[] {
  const byLimit = new Map<string, DemandSlice>()
  for (const item of items) {
    const key = item.limitFdv === null ? 'none' : item.limitFdv.toString()
    const slice = byLimit.get(key) ?? { limitFdv: item.limitFdv, orders: 0, spend: 0n, eligibleSpend: 0n }
    slice.orders += 1
    slice.spend += item.spend
    byLimit.set(key, slice)
  }
  const sorted = [...byLimit.values()].sort((a, b) => {
    if (a.limitFdv === null) return -1
    if (b.limitFdv === null) return 1
    return a.limitFdv > b.limitFdv ? -1 : a.limitFdv < b.limitFdv ? 1 : 0
  })
  let running = 0n
  for (const slice of sorted) {
    running += slice.spend
    slice.eligibleSpend = running
  }
  return sorted
}
