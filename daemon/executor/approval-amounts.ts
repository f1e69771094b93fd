import type { Address } from 'viem'
import { parseDecimal } from '../../src/domain/decimal.ts'
import { USDC_DECIMALS } from '../../src/domain/order-bounds.ts'
import type { LoadedOrder } from './warm-books.ts'

/** What one wallet should allow the batch buyer to take: the caps of its active orders in waiting projects, in atoms. */
export interface WantedApproval {
  wallet: Address
  amount: bigint
}

/**
 * The sum of the caps (`maxSpendUsdc`, atoms) of each wallet's active orders in one project. The batch pulls at most an
 * order's cap from its wallet (sizeSpend never exceeds it), so the sum over the wallet's waiting projects is all the
 * batch buyer may ever need to take before the next readying pass re-approves.
 */
export function capsByWallet(orders: readonly LoadedOrder[]): Map<number, WantedApproval> {
  const out = new Map<number, WantedApproval>()
  for (const { order, userIndex, wallet } of orders) {
    const cap = parseDecimal(order.maxSpendUsdc, USDC_DECIMALS)
    if (cap === undefined || cap <= 0n) continue
    const entry = out.get(userIndex)
    if (entry) entry.amount += cap
    else out.set(userIndex, { wallet, amount: cap })
  }
  return out
}

/**
 * Caps summed over projects, each project's sums kept while its orders array is the same one (the warm snapshot hands
 * back the same array until an order write): with hundreds of waiting projects and 100,000 orders, a block re-parses
 * only the projects written since the last one.
 */
export function createApprovalAmounts(): {
  /** Every wallet's wanted approval over the given projects (slug -> active orders). */
  over(projects: Iterable<readonly [string, readonly LoadedOrder[]]>): Map<number, WantedApproval>
} {
  const perProject = new Map<string, { orders: readonly LoadedOrder[]; caps: Map<number, WantedApproval> }>()
  return {
    over(projects) {
      const out = new Map<number, WantedApproval>()
      const seen = new Set<string>()
      for (const [slug, orders] of projects) {
        seen.add(slug)
        let cached = perProject.get(slug)
        if (cached?.orders !== orders) {
          cached = { orders, caps: capsByWallet(orders) }
          perProject.set(slug, cached)
        }
        for (const [userIndex, { wallet, amount }] of cached.caps) {
          const entry = out.get(userIndex)
          if (entry) entry.amount += amount
          else out.set(userIndex, { wallet, amount })
        }
      }
      for (const slug of perProject.keys()) if (!seen.has(slug)) perProject.delete(slug)
      return out
    },
  }
}
