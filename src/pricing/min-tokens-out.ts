export interface MinTokensOutInput {
  /** Stablecoin spent, smallest units. */
  spend: bigint
  /** The order's FDV limit in the same stablecoin smallest units; null means no limit. */
  limitFdv: bigint | null
  /** Token total supply, smallest units. */
  totalSupply: bigint
}

/**
 * The fewest tokens (smallest units, before the platform fee) a buy may return so the buyer never pays above the limit:
 * spend / (limitFdv / totalSupply), rounded up. Working in smallest units on both sides makes the token's decimals
 * cancel. No limit: 0 (any price is accepted).
 */
export function minTokensOut({ spend, limitFdv, totalSupply }: MinTokensOutInput): bigint {
  if (limitFdv === null) return 0n
  if (limitFdv <= 0n) throw new RangeError('limitFdv must be positive')
  const product = spend * totalSupply
  return (product + limitFdv - 1n) / limitFdv
}
