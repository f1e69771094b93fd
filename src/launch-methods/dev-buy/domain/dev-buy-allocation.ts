import { PLATFORM_FEE_BPS, splitPlatformFee } from '../../../domain/execution/platform-fee.ts'

/** One buyer's part of a pooled buy: what they put in (stablecoin atoms). */
export interface Contribution {
  id: string
  amount: bigint
}

export interface Allocation {
  id: string
  contribution: bigint
  /** Tokens credited to the buyer, atomic units, after the platform fee. */
  tokens: bigint
}

export interface DevBuyAllocation {
  /** The platform fee, taken once on the whole buy: floor(bought * 3%), never more. */
  fee: bigint
  /** bought - fee: what the buyers share. */
  net: bigint
  allocations: Allocation[]
  /** Atoms the floors left over (fewer than the number of contributors): credited to `dustTo`. */
  dust: bigint
  /** The largest contribution (the first of equal ones): the dust stays with the buyers, never with the service. */
  dustTo: string | null
}

/**
 * The dev-buy split (one buy for every eligible order, block zero, one price): the platform fee on the whole buy, then
 * `tokens_i = floor(net * contribution_i / total_contribution)`; the dust the floors leave (fewer atoms than buyers)
 * goes to the largest contributor. So the parts add up to exactly what was bought, the service takes exactly its
 * rounded-down 3%, and no buyer pays more per token than the buy itself did (a share is never below its floor).
 * Pure; contributions of zero receive nothing and are kept in the result.
 */
export function allocateDevBuy(bought: bigint, contributions: readonly Contribution[], feeBps: bigint = PLATFORM_FEE_BPS): DevBuyAllocation {
  if (bought < 0n) throw new RangeError('bought must not be negative')
  if (contributions.some((c) => c.amount < 0n)) throw new RangeError('a contribution must not be negative')
  const { fee, buyer: net } = splitPlatformFee(bought, feeBps)
  const total = contributions.reduce((sum, c) => sum + c.amount, 0n)
  if (total === 0n) {
    // Nobody contributed: nothing to share (a buy without contributions is refused before it is made).
    return { fee, net, allocations: contributions.map((c) => ({ id: c.id, contribution: c.amount, tokens: 0n })), dust: net, dustTo: null }
  }
  const allocations = contributions.map((c) => ({ id: c.id, contribution: c.amount, tokens: (net * c.amount) / total }))
  const dust = net - allocations.reduce((sum, a) => sum + a.tokens, 0n)
  let largest = allocations[0]!
  for (const a of allocations) if (a.contribution > largest.contribution) largest = a
  largest.tokens += dust
  return { fee, net, allocations, dust, dustTo: largest.id }
}
