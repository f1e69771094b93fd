/**
 * What an order may spend now: its cap, bounded by the wallet balance not already reserved by other in-flight orders
 * of the same wallet (all orders of a wallet draw on one balance). Never negative; 0 means do not attempt.
 */
export function sizeSpend(maxSpend: bigint, balance: bigint, reservedByOthers: bigint): bigint {
  const available = balance - reservedByOthers
  if (available <= 0n) return 0n
  return maxSpend < available ? maxSpend : available
}
