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
 * One project's caps as columns: a wallet per entry (buyer index, address, summed cap in atoms). Held for every waiting
 * project between blocks, so kept without an object or a bigint per entry: 500 projects x 200 wallets as Maps of
 * `{wallet, amount}` objects were ~10 MB of the load suite's heap (objects, bigints, Map tables; docs/reliability.md
 * "Memory"), as columns ~2 MB.
 */
interface ProjectCaps {
  userIndex: Int32Array
  wallet: Address[]
  /** Summed caps, atoms (a cap is at most 1e13 atoms by the API, so a wallet's sum in one project stays far below 2^64). */
  amount: BigUint64Array
}

const MAX_U64 = (1n << 64n) - 1n

function projectCaps(orders: readonly LoadedOrder[]): ProjectCaps {
  const caps = capsByWallet(orders)
  const out: ProjectCaps = { userIndex: new Int32Array(caps.size), wallet: new Array(caps.size), amount: new BigUint64Array(caps.size) }
  let i = 0
  for (const [userIndex, { wallet, amount }] of caps) {
    out.userIndex[i] = userIndex
    out.wallet[i] = wallet
    // Beyond 2^64 (not reachable through the API): approve less rather than more.
    out.amount[i] = amount > MAX_U64 ? MAX_U64 : amount
    i++
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
  const perProject = new Map<string, { orders: readonly LoadedOrder[]; caps: ProjectCaps }>()
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
        perProject.set(slug, { orders, caps: projectCaps(orders) })
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
        for (let i = 0; i < caps.userIndex.length; i++) {
          const userIndex = caps.userIndex[i]!
          const amount = caps.amount[i]!
          const entry = out.get(userIndex)
          if (entry) entry.amount += amount
          else out.set(userIndex, { wallet: caps.wallet[i]!, amount })
        }
      }
      last = out
      return out
    },
  }
}
