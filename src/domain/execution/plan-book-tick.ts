import type { EligibilityContext } from './eligibility.ts'
import type { ExecutableOrder } from './executable-order.ts'
import { limitThreshold, toSafeNumber, type BookBalances, type OrderBook } from './order-book.ts'
import { planTick, type SkipReason } from './plan-tick.ts'

/** Per-order outcome codes of a book tick (a Uint8Array per tick instead of an object per order). */
export const BookVerdict = {
  buy: 0,
  notActive: 1,
  expired: 2,
  swapsNotAllowed: 3,
  aboveLimit: 4,
  emptyWallet: 5,
  balanceReserved: 6,
} as const
export type BookVerdictCode = (typeof BookVerdict)[keyof typeof BookVerdict]

/** The SkipReason of each non-buy, non-expired code, as planTick names it. */
export const SKIP_REASON: Readonly<Record<number, SkipReason>> = {
  [BookVerdict.notActive]: 'not_active',
  [BookVerdict.swapsNotAllowed]: 'swaps_not_allowed',
  [BookVerdict.aboveLimit]: 'above_limit',
  [BookVerdict.emptyWallet]: 'empty_wallet',
  [BookVerdict.balanceReserved]: 'balance_reserved',
}

export interface BookTickInput<T extends ExecutableOrder = ExecutableOrder> extends EligibilityContext {
  book: OrderBook<T>
  balances: BookBalances
  /** Already reserved per wallet by in-flight orders from earlier ticks (keys as the orders' `wallet`). */
  reserved?: ReadonlyMap<string, bigint>
}

export interface BookTickPlan {
  /** BookVerdictCode per priority position. */
  verdict: Uint8Array
  /** Spend per priority position (micro-USD, exact integer; 0 unless bought). */
  spend: Float64Array
  /** Priority positions that buy, in priority order. */
  buys: Uint32Array
  /** Priority positions past their expiry, in priority order. */
  expired: Uint32Array
  /** Exact spends per priority position, present only when the reference planner ran (amounts beyond 2^53). */
  exactSpend?: readonly bigint[]
}

/** The spend at a priority position as an exact bigint. */
export const spendAt = (plan: BookTickPlan, p: number): bigint => (plan.exactSpend ? plan.exactSpend[p]! : BigInt(plan.spend[p]!))

/**
 * planTick over a prepared book, with the same decisions (status, expiry, pool state, limit, funds, in that order;
 * spend sized in priority order against the wallet's unreserved balance) but one linear pass over typed arrays:
 * no decimal parsing, no sorting, no bigint arithmetic per order, no per-order allocation. Books outside the
 * exact-number bounds (see OrderBook) are planned by the bigint reference planTick.
 */
export function planBookTick<T extends ExecutableOrder>(input: BookTickInput<T>): BookTickPlan {
  const { book, balances } = input
  if (!book.exact) return referencePlan(input)
  const n = book.orders.length
  const verdict = new Uint8Array(n)
  const spendOut = new Float64Array(n)
  const buys = new Uint32Array(n)
  const expired = new Uint32Array(n)
  let buyCount = 0
  let expiredCount = 0

  const available = balances.value.slice()
  if (input.reserved) {
    for (const [wallet, held] of input.reserved) {
      const w = book.walletIndex.get(wallet)
      if (w !== undefined) available[w] = toSafeNumber(balances.exact(w) - held)
    }
  }
  const balance = balances.value
  const threshold = limitThreshold(book.limits, input.effectiveCap)
  const launched = input.launchedAtMs !== null
  const launchedAt = input.launchedAtMs ?? 0
  const now = input.nowMs
  const swaps = input.swapsAllowed
  const { active, expiresInMs, limitRank, walletOf, spend } = book

  for (let p = 0; p < n; p++) {
    if (active[p] === 0) {
      verdict[p] = BookVerdict.notActive
    } else if (launched && now >= launchedAt + expiresInMs[p]!) {
      verdict[p] = BookVerdict.expired
      expired[expiredCount++] = p
    } else if (!swaps) {
      verdict[p] = BookVerdict.swapsNotAllowed
    } else if (limitRank[p]! < threshold) {
      verdict[p] = BookVerdict.aboveLimit
    } else {
      const w = walletOf[p]!
      if (!(balance[w]! > 0)) {
        verdict[p] = BookVerdict.emptyWallet
      } else {
        const left = available[w]!
        if (left <= 0) {
          verdict[p] = BookVerdict.balanceReserved
        } else {
          const want = spend[p]!
          const s = want < left ? want : left
          available[w] = left - s
          spendOut[p] = s
          buys[buyCount++] = p
        }
      }
    }
  }
  return { verdict, spend: spendOut, buys: buys.subarray(0, buyCount), expired: expired.subarray(0, expiredCount) }
}

/** What each wallet has reserved after the tick: earlier reservations plus this tick's buys (as planTick reports). */
export function reservedAfter(book: OrderBook, plan: BookTickPlan, reserved: ReadonlyMap<string, bigint> = new Map()): Map<string, bigint> {
  const out = new Map(reserved)
  for (const p of plan.buys) {
    const wallet = book.wallets[book.walletOf[p]!]!
    out.set(wallet, (out.get(wallet) ?? 0n) + spendAt(plan, p))
  }
  return out
}

/** The bigint reference planner, its result laid out like a book tick (for books outside the number bounds). */
function referencePlan<T extends ExecutableOrder>(input: BookTickInput<T>): BookTickPlan {
  const { book } = input
  const n = book.orders.length
  const positionOf = new Map<T, number>()
  for (let p = 0; p < n; p++) positionOf.set(book.orders[p] as T, p)
  const balanceMap = new Map<string, bigint>()
  for (let w = 0; w < book.wallets.length; w++) balanceMap.set(book.wallets[w]!, input.balances.exact(w))
  const plan = planTick({ ...input, prioritisedOrders: book.orders, balances: balanceMap })
  const verdict = new Uint8Array(n)
  const spend = new Float64Array(n)
  const codeOf: Record<SkipReason, BookVerdictCode> = {
    not_active: BookVerdict.notActive,
    swaps_not_allowed: BookVerdict.swapsNotAllowed,
    above_limit: BookVerdict.aboveLimit,
    empty_wallet: BookVerdict.emptyWallet,
    balance_reserved: BookVerdict.balanceReserved,
  }
  for (const s of plan.skipped) verdict[positionOf.get(s.order)!] = codeOf[s.reason]
  const expired = Uint32Array.from(plan.expired, (o) => positionOf.get(o)!)
  for (const p of expired) verdict[p] = BookVerdict.expired
  const exactSpend: bigint[] = new Array<bigint>(n).fill(0n)
  const buys = Uint32Array.from(plan.buys, (b) => {
    const p = positionOf.get(b.order)!
    spend[p] = Number(b.spend)
    exactSpend[p] = b.spend
    return p
  })
  return { verdict, spend, buys, expired, exactSpend }
}
