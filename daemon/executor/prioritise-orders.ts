/**
 * Submission order on the open market is a named, swappable policy: the executor sorts a tick's eligible orders with
 * it and the bundle keeps that order. The spec's current rule is `largestSpendFirst`.
 */
export interface PrioritisableOrder {
  /** Spend sized for this tick, stablecoin atoms. */
  spendAtoms: bigint
  /** Price limit in stablecoin atoms; null = no limit (ranks highest among equal spends). */
  limitAtoms: bigint | null
  /** Tie-breaker so the order is total and deterministic: older order first, then key id. */
  createdAt: number
  keyId: string
}

export interface PrioritisationPolicy {
  readonly name: string
  compare(a: PrioritisableOrder, b: PrioritisableOrder): number
}

const byLimitDescending = (a: bigint | null, b: bigint | null): number => {
  if (a === b) return 0
  if (a === null) return -1
  if (b === null) return 1
  return a > b ? -1 : 1
}

/** (1) larger spend first; (2) equal spend: higher limit first, no limit highest; then older order, then key id. */
export const largestSpendFirst: PrioritisationPolicy = {
  name: 'largest-spend-first',
  compare(a, b) {
    if (a.spendAtoms !== b.spendAtoms) return a.spendAtoms > b.spendAtoms ? -1 : 1
    const limit = byLimitDescending(a.limitAtoms, b.limitAtoms)
    if (limit !== 0) return limit
    if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt
    return a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0
  },
}

export const prioritiseOrders = <T extends PrioritisableOrder>(orders: readonly T[], policy: PrioritisationPolicy): T[] =>
  [...orders].sort((a, b) => policy.compare(a, b))
