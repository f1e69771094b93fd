import type { CandidateOrder } from '../../src/domain/execution/prepared-book.ts'
import { parseDecimal } from '../../src/domain/decimal.ts'
import { USDC_DECIMALS } from '../../src/domain/order-bounds.ts'

/**
 * The stablecoin total the batch clearing will ask the pool to price first, predicted before the tick's plan (issue 23
 * item 3): when no candidate has a limit, the clearing prices its run once, by the total of the included spends
 * (clear-batch.ts), and the planner sizes each wallet's orders within what the wallet has left after its in-flight
 * buys (size-spend.ts), so the total is Σ per wallet of min(Σ its active orders' max spends, balance − reserved). The
 * tick quotes it together with the spend buckets (tick-quotes.ts `quotedCaps`), one round trip for both; the clearing
 * then finds the answer in the block's quote cache. Undefined when a candidate has a limit (the clearing's first
 * question is then a prefix of the priority order, asked one after another as before) or nothing may buy. A wrong
 * prediction (an expiry, a back-off, a wallet not approved, a gas budget) costs only the round trip it was meant to
 * save: the clearing asks its own total, as it always did; nothing is decided on a predicted answer.
 */
export function predictBatchTotal(candidates: readonly CandidateOrder[], reservedByWallet: ReadonlyMap<string, bigint>): bigint | undefined {
  const perWallet = new Map<string, { wanted: bigint; balance: bigint }>()
  for (const c of candidates) {
    if (c.order.status !== 'active' || c.balanceAtoms <= 0n) continue
    if (c.order.maxFdvUsdc !== null) return undefined
    const maxSpend = parseDecimal(c.order.maxSpendUsdc, USDC_DECIMALS)
    if (maxSpend === undefined || maxSpend <= 0n) continue
    const key = c.wallet.toLowerCase()
    const entry = perWallet.get(key)
    if (entry) entry.wanted += maxSpend
    else perWallet.set(key, { wanted: maxSpend, balance: c.balanceAtoms })
  }
  let total = 0n
  for (const [wallet, { wanted, balance }] of perWallet) {
    const available = balance - (reservedByWallet.get(wallet) ?? 0n)
    if (available > 0n) total += wanted < available ? wanted : available
  }
  return total > 0n ? total : undefined
}
