import { splitProRata } from '../../../domain/batch/pro-rata.ts'
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
 * `tokens_i = floor(net * contribution_i / total_contribution)` (splitProRata, the rule the batch's allocation is built
 * on: src/domain/batch/pro-rata.ts); the dust the floors leave (fewer atoms than buyers) goes to the largest
 * contributor. So the parts add up to exactly what was bought, the service takes exactly its rounded-down 3%, and no
 * buyer pays more per token than the buy itself did (a share is never below its floor).
 * Where it differs from the batch (allocateBatch), and why: PrebuyDevBuyCoordinator, deployed at a tested CREATE2
 * address, computes this split on chain (fee on the whole buy, dust to the first largest contribution), and this is its
 * reference; the batch takes the fee per share and gives the dust to the fee recipient because its limit proof is
 * stated on each buyer's rounded-down gross share (docs/execution.md §8, "One accounting").
 * Pure; contributions of zero receive nothing and are kept in the result.
 */
export function allocateDevBuy(bought: bigint, contributions: readonly Contribution[], feeBps: bigint = PLATFORM_FEE_BPS): DevBuyAllocation {
  if (bought < 0n) throw new RangeError('bought must not be negative')
  if (contributions.some((c) => c.amount < 0n)) throw new RangeError('a contribution must not be negative')
  const { fee, buyer: net } = splitPlatformFee(bought, feeBps)
  const { parts, totalWeight, remainder } = splitProRata(
    net,
    contributions.map((c) => c.amount),
  )
  const allocations = contributions.map((c, i) => ({ id: c.id, contribution: c.amount, tokens: parts[i]! }))
  // Nobody contributed: nothing to share (a buy without contributions is refused before it is made).
  if (totalWeight === 0n) return { fee, net, allocations, dust: net, dustTo: null }
  let largest = allocations[0]!
  for (const a of allocations) if (a.contribution > largest.contribution) largest = a
  largest.tokens += remainder
  return { fee, net, allocations, dust: remainder, dustTo: largest.id }
}
