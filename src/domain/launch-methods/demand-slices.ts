/** An order as a launch simulation sees it: its cap, its limit and what its wallet holds now. */
export interface FundedOrder {
  id: string
  maxSpend: bigint
  /** Micro-USD FDV limit; null: no limit. */
  limitFdv: bigint | null
  balance: bigint
}

/** The orders sharing one price limit. */
export interface DemandSlice {
  limitFdv: bigint | null
  orders: number
  /** Sum of min(max spend, balance) of these orders. */
  fundedSpend: bigint
  /** Funded spend of every order still eligible at an effective cap equal to this limit (this slice and all above). */
  eligibleFundedSpend: bigint
}

/**
 * The order book as open-market demand: one slice per price limit, no limit first, then highest limit first; each
 * slice becomes eligible once the effective market cap (the pool's price with every fee counted) is at or below its
 * limit, and from then on `eligibleFundedSpend` is what would buy. Spend is funded spend: what wallets can pay now.
 */
export function demandSlices(orders: readonly FundedOrder[]): DemandSlice[] {
  const byLimit = new Map<string, DemandSlice>()
  for (const order of orders) {
    const key = order.limitFdv === null ? 'none' : order.limitFdv.toString()
    const slice = byLimit.get(key) ?? { limitFdv: order.limitFdv, orders: 0, fundedSpend: 0n, eligibleFundedSpend: 0n }
    slice.orders += 1
    slice.fundedSpend += order.maxSpend < order.balance ? order.maxSpend : order.balance
    byLimit.set(key, slice)
  }
  const sorted = [...byLimit.values()].sort((a, b) => {
    if (a.limitFdv === null) return -1
    if (b.limitFdv === null) return 1
    return a.limitFdv > b.limitFdv ? -1 : a.limitFdv < b.limitFdv ? 1 : 0
  })
  let running = 0n
  for (const slice of sorted) {
    running += slice.fundedSpend
    slice.eligibleFundedSpend = running
  }
  return sorted
}
