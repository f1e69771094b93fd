import { ceilOf, fraction } from '../fraction.ts'

/**
 * What a launched pool's buys are decided on: quotes of the real swap (src/launchpads/quote-buy.ts) for a few spend
 * sizes, each turned into the market cap a buyer of that size effectively pays. A bucket's spend is the largest it
 * covers: a smaller buy gets at least as many tokens per stablecoin unit (a swap's average price only rises with its
 * size), so deciding it on its bucket's cap never admits a buy above its limit.
 */
export interface QuotedCaps {
  /** False when the quoted swap reverted: a buy in the next block would revert too (gating, a restrictor, no liquidity). */
  swapsAllowed: boolean
  /** By ascending spend. */
  buckets: QuotedBucket[]
}

export interface QuotedBucket {
  /** Stablecoin atoms quoted. */
  spendAtoms: bigint
  /** spend x totalSupply / tokensOut, rounded up (null: the quote returned no token, an infinite cap). */
  capAtoms: bigint | null
}

/**
 * The market cap a buy of `spendAtoms` returning `tokensOut` (gross: the router checks the order's minimum on what the
 * pool returns, before the platform fee) effectively pays, stablecoin atoms: spend / (tokensOut / totalSupply),
 * rounded UP so `limit >= cap` holds exactly when `tokensOut >= minTokensOut(spend, limit)` (min-tokens-out.ts).
 */
export function capFromQuote(spendAtoms: bigint, tokensOut: bigint, totalSupply: bigint): bigint | null {
  if (tokensOut <= 0n) return null
  return ceilOf(fraction(spendAtoms * totalSupply, tokensOut))
}

/**
 * The bucket spend that covers `spendAtoms`: the next power of two (in stablecoin atoms). A launch's orders fall into a
 * few dozen buckets at most (1 USDC is 2^20 atoms, 1M USDC 2^40), so quoting one swap per bucket keeps a block's RPC cost
 * bounded whatever the book's size.
 */
export function spendBucket(spendAtoms: bigint): bigint {
  if (spendAtoms <= 1n) return 1n
  return 1n << BigInt((spendAtoms - 1n).toString(2).length)
}

/** Most buckets quoted per launch per block; beyond it the smallest merge into the next quoted one (conservative). */
export const MAX_QUOTED_BUCKETS = 12

/** The distinct buckets of some spends, ascending, at most `max` (the largest ones: see capForSpend). */
export function bucketsOf(spends: Iterable<bigint>, max: number = MAX_QUOTED_BUCKETS): bigint[] {
  const set = new Set<bigint>()
  for (const spend of spends) if (spend > 0n) set.add(spendBucket(spend))
  const sorted = [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return sorted.slice(Math.max(0, sorted.length - max))
}

/**
 * The cap a buy of `spendAtoms` is decided on: that of the smallest quoted bucket at least as large. Undefined when
 * no quoted bucket covers it (the buy was not planned for: it must not go).
 */
export function capForSpend(quoted: QuotedCaps, spendAtoms: bigint): { capAtoms: bigint | null } | undefined {
  for (const bucket of quoted.buckets) if (bucket.spendAtoms >= spendAtoms) return { capAtoms: bucket.capAtoms }
  return undefined
}

/** The lowest cap of any bucket (null: every bucket's is infinite): no order below it can buy at any size. */
export function lowestCap(quoted: QuotedCaps): bigint | null {
  let lowest: bigint | null = null
  for (const { capAtoms } of quoted.buckets) if (capAtoms !== null && (lowest === null || capAtoms < lowest)) lowest = capAtoms
  return lowest
}
