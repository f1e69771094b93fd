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
  /** Every wallet's wanted approval over the given projects (slug -> active orders); the same map while unchanged. */
  over(projects: Iterable<readonly [string, readonly LoadedOrder[]]>): Map<number, WantedApproval>
} {
  const perProject = new Map<string, { orders: readonly LoadedOrder[]; caps: Map<number, WantedApproval> }>()
  /** The last merge: handed back as is while no project's orders changed (the common block: nothing written). */
  let last: Map<number, WantedApproval> | undefined
  return {
    over(projects) {
      const seen = new Set<string>()
      let changed = false
      for (const [slug, orders] of projects) {
        seen.add(slug)
        const cached = perProject.get(slug)
        if (cached?.orders === orders) continue
        perProject.set(slug, { orders, caps: capsByWallet(orders) })
        changed = true
      }
      for (const slug of perProject.keys()) {
        if (seen.has(slug)) continue
        perProject.delete(slug)
        changed = true
      }
      if (last && !changed) return last
      const out = new Map<number, WantedApproval>()
      for (const { caps } of perProject.values()) {
        for (const [userIndex, { wallet, amount }] of caps) {
          const entry = out.get(userIndex)
          if (entry) entry.amount += amount
          else out.set(userIndex, { wallet, amount })
        }
      }
      last = out
      return out
    },
  }
}
