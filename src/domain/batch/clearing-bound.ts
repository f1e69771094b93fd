/**
 * Whether one swap of `totalIn` stablecoin atoms returning `tokensOut` token atoms (before the platform fee) meets the
 * lowest FDV limit of the orders paying into it, for every one of them, after rounding. `lowestLimit`: stablecoin atoms
 * of FDV, null when no paying order has a limit; `minSpend`: the smallest amount one of them paid; `totalSupply`: the
 * token's, atoms.
 *
 * The clearing price is totalIn / tokensOut; its FDV totalIn * totalSupply / tokensOut must not exceed the limit. Each
 * buyer is credited floor(tokensOut * spend / totalIn) (batch-allocation.ts), which is up to one atom short of the
 * exact share, so the test is on that floor: every buyer's rounded gross share g must satisfy g * L >= spend * supply,
 * which is PrebuyBuyRouter's own per-buy check (received >= minTokensOut(spend, limit, supply)). Since
 * g > tokensOut * spend / totalIn - 1, it suffices that
 *     spend * (tokensOut * L - totalIn * supply) >= totalIn * L,
 * and the left side grows with spend, so checking it for the smallest spend proves it for all (and for every order
 * whose own limit is above L). One comparison per batch, no per-buyer limit in calldata: PrebuyBatchBuyer checks the
 * same inequality on chain against the lowest limit committed with the batch.
 */
export function meetsLowestLimit(input: { totalIn: bigint; tokensOut: bigint; lowestLimit: bigint | null; minSpend: bigint; totalSupply: bigint }): boolean {
  const { totalIn, tokensOut, lowestLimit, minSpend, totalSupply } = input
  if (tokensOut <= 0n || totalIn <= 0n) return false
  if (lowestLimit === null) return true
  if (lowestLimit <= 0n) throw new RangeError('a limit must be positive')
  const headroom = tokensOut * lowestLimit - totalIn * totalSupply
  return headroom >= 0n && minSpend * headroom >= totalIn * lowestLimit
}
