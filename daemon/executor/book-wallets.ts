import type { Address } from 'viem'
import { lowerWallet } from '../../src/domain/execution/wallet-index.ts'

/** What this needs of a held order (warm-books.ts LoadedOrder): its buyer and wallet. */
interface WalletOrder {
  order: { keyId: string }
  wallet: Address
}

/*
 * The wallets of the warm books' held order lists (warm-books.ts), computed once per list, and which of them a block
 * must read again.
 */

/** A book's wallets, once each, as given and lower-cased (the balance maps' keys), and each as given by its lower-cased form. */
export interface BookWallets {
  wallets: Address[]
  lower: string[]
  byLower: ReadonlyMap<string, Address>
  /** The buyers (key ids) whose wallets these are. */
  keyIds: ReadonlySet<string>
}
const bookWalletsMemo = new WeakMap<readonly WalletOrder[], BookWallets>()

/**
 * The wallets of a project's held orders, computed once per held list (a list is never changed in place: a write
 * patches a new one). Every block's refresh and a tick without one used to build them again, with two `toLowerCase`
 * per wallet: at 17,000 orders, with the balances map copied each block, ~35 ms of the event loop per 200 ms block (a
 * CPU profile of the held-ticks bench, 2026-11-27), which the book's own ticks then waited behind.
 */
export function bookWallets(orders: readonly WalletOrder[]): BookWallets {
  let memo = bookWalletsMemo.get(orders)
  if (!memo) {
    const wallets: Address[] = []
    const lower: string[] = []
    const byLower = new Map<string, Address>()
    const keyIds = new Set<string>()
    for (const o of orders) {
      keyIds.add(o.order.keyId)
      const key = lowerWallet(o.wallet)
      if (byLower.has(key)) continue
      byLower.set(key, o.wallet)
      wallets.push(o.wallet)
      lower.push(key)
    }
    memo = { wallets, lower, byLower, keyIds }
    bookWalletsMemo.set(orders, memo)
  }
  return memo
}

/**
 * A list patched from `before` by writes of these buyers' orders keeps `before`'s wallets when every buyer was in it
 * already (a PATCH, a cancellation, an order moved on): a buyer's wallet is fixed by the buyer (its user index), so no
 * wallet is new. The wallets may then be a superset of the list's (a cancelled order's buyer): every use of them only
 * reads a balance or an allowance, and one read too many costs nothing else. The refresh and the tick after a PATCH
 * then look only at the Transfer logs' wallets instead of checking all 17,000 again (~22 ms a PATCH, the profile).
 */
export function inheritBookWallets<T extends WalletOrder>(before: readonly T[], after: T[], writtenKeyIds: Iterable<string>): T[] {
  const memo = bookWalletsMemo.get(before)
  if (!memo || bookWalletsMemo.has(after)) return after
  for (const keyId of writtenKeyIds) if (!memo.keyIds.has(keyId)) return after
  bookWalletsMemo.set(after, memo)
  return after
}

/** Whether every wallet of `list` is one of `base`'s (the same wallets object, computed or inherited). */
export const sameWallets = (list: readonly WalletOrder[], base: readonly WalletOrder[] | undefined): boolean =>
  base !== undefined && (list === base || bookWallets(list) === bookWallets(base))

/**
 * The wallets of `books` to read again at a block, from balances `known` at an earlier block and the lower-cased
 * wallets whose balance `changed` since (Transfer logs): the changed ones and those `known` lacks. When every list is
 * the one `known` was read for (`sameAsKnown`), no wallet can be missing from it, so only `changed` is looked at.
 */
export function staleWallets(
  books: readonly (readonly WalletOrder[])[],
  known: ReadonlyMap<string, bigint>,
  changed: ReadonlySet<string>,
  sameAsKnown: boolean,
): Address[] {
  const stale: Address[] = []
  if (sameAsKnown) {
    if (changed.size === 0) return stale
    const seen = new Set<string>()
    for (const book of books) {
      const { byLower } = bookWallets(book)
      for (const key of changed) {
        const wallet = byLower.get(key)
        if (wallet === undefined || seen.has(key)) continue
        seen.add(key)
        stale.push(wallet)
      }
    }
    return stale
  }
  const seen = books.length > 1 ? new Set<string>() : undefined
  for (const book of books) {
    const { wallets, lower } = bookWallets(book)
    for (let i = 0; i < lower.length; i++) {
      const key = lower[i]!
      if (seen) {
        if (seen.has(key)) continue
        seen.add(key)
      }
      if (changed.has(key) || !known.has(key)) stale.push(wallets[i]!)
    }
  }
  return stale
}
