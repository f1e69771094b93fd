import type { CandidateOrder } from '../../src/domain/execution/prepared-book.ts'
import { parseDecimal } from '../../src/domain/decimal.ts'
import { USDC_DECIMALS } from '../../src/domain/order-bounds.ts'
import type { ExecutableOrder } from '../../src/domain/execution/executable-order.ts'
import { type PrioritisationPolicy, priorityPermutation } from '../../src/domain/execution/prioritisation.ts'
import { sizeSpend } from '../../src/domain/execution/size-spend.ts'

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

/**
 * The buys the tick's plan is predicted to make, in its order, with their spends (issue 23 item 3: the batch clearing's
 * price-independent walk runs on them while the quote is out, plan-batch.ts `clearAhead`). The planner's rules for an
 * order without a limit, which the quote cannot turn away: an active order, not expired when its buy lands (`now`),
 * in the policy's priority order over the candidates as given (the planner's tie-break), each sized against its
 * wallet's balance less the in-flight reservations and the wallet's orders ranked before it (sizeSpend), none of 0,
 * the first `maxBuys`. An order with a limit, a back-off, a bucket the quote did not cover or swaps not allowed make the
 * plan differ: the split then finds other inputs than these and clears as always (nothing is decided on a prediction).
 */
export function predictBatchBuys(input: {
  candidates: readonly CandidateOrder[]
  /** Each candidate's order parsed (its batch entry form's, so that the split's inputs are the very same objects). */
  executableOf: (candidate: CandidateOrder) => ExecutableOrder
  reservedByWallet: ReadonlyMap<string, bigint>
  policy: PrioritisationPolicy
  launchedAt: number | null
  now: number
  maxBuys: number
}): { candidate: CandidateOrder; spendAtoms: bigint }[] {
  const { candidates } = input
  const executables = candidates.map(input.executableOf)
  const permutation = priorityPermutation(executables, input.policy)
  // The wallet's balance as the planner takes it: the last candidate of the wallet stands for it (prepared-book.ts).
  const available = new Map<string, bigint>()
  for (const c of candidates) available.set(c.wallet.toLowerCase(), c.balanceAtoms)
  for (const [wallet, balance] of available) available.set(wallet, balance - (input.reservedByWallet.get(wallet) ?? 0n))
  const buys: { candidate: CandidateOrder; spendAtoms: bigint }[] = []
  for (let p = 0; p < permutation.length && buys.length < input.maxBuys; p++) {
    const i = permutation[p]!
    const order = executables[i]!
    if (order.status !== 'active') continue
    if (input.launchedAt !== null && input.now >= input.launchedAt + order.expiresInMs) continue
    const wallet = candidates[i]!.wallet.toLowerCase()
    const spend = sizeSpend(order.maxSpend, available.get(wallet) ?? 0n, 0n)
    if (spend <= 0n) continue
    available.set(wallet, available.get(wallet)! - spend)
    buys.push({ candidate: candidates[i]!, spendAtoms: spend })
  }
  return buys
}
