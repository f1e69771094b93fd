import { formatDecimal, parseDecimal } from './decimal.ts'
import { FDV_DECIMALS, USDC_DECIMALS } from './order-bounds.ts'
import type { OrderRecord } from './records.ts'
import { demandSlices } from './demand-slices.ts'

/** Orders that still count toward a project's book: placed and not withdrawn, expired or failed. */
export const isLiveOrder = (order: OrderRecord): boolean => order.status === 'active' || order.status === 'executing'

const usdc = (value: string): bigint => parseDecimal(value, USDC_DECIMALS) ?? 0n

/** Significant figures a public spend aggregate keeps. */
export const PUBLIC_AMOUNT_DIGITS = 2

/**
 * A spend aggregate as anyone may see it: whole USDC rounded down to PUBLIC_AMOUNT_DIGITS significant figures
 * (185.5 -> 180, 1,037.5 -> 1,000, 123,456.78 -> 120,000). A buyer's spend cap is owner-only, and an exact public sum
 * would give it away to anyone comparing the sum before and after the buyer appears in the public buyers list: rounded,
 * an order moves the figure only when the sum crosses a step, and the step grows with the sum (1% to 10% of it).
 */
export function publicAmount(decimal: string): string {
  const whole = (parseDecimal(decimal, USDC_DECIMALS) ?? 0n) / 10n ** BigInt(USDC_DECIMALS)
  const digits = whole.toString().length
  if (digits <= PUBLIC_AMOUNT_DIGITS) return whole.toString()
  const step = 10n ** BigInt(digits - PUBLIC_AMOUNT_DIGITS)
  return ((whole / step) * step).toString()
}

export interface CommittedStats {
  orderCount: number
  committedSpendUsdc: string
}

export function committedStats(orders: readonly OrderRecord[]): CommittedStats {
  const live = orders.filter(isLiveOrder)
  const total = live.reduce((sum, order) => sum + usdc(order.maxSpendUsdc), 0n)
  return { orderCount: live.length, committedSpendUsdc: formatDecimal(total, USDC_DECIMALS) }
}

export interface FilledStats {
  filledOrderCount: number
  filledSpendUsdc: string
}

/** What launch execution bought so far: filled orders and the stablecoin they actually spent. */
export function filledStats(orders: readonly OrderRecord[]): FilledStats {
  const filled = orders.filter((order) => order.status === 'filled')
  const total = filled.reduce((sum, order) => sum + usdc(order.execution?.spentUsdc ?? '0'), 0n)
  return { filledOrderCount: filled.length, filledSpendUsdc: formatDecimal(total, USDC_DECIMALS) }
}

/**
 * Funded spend: per order min(spend cap, the wallet's stablecoin balance on the project's chain), summed. A wallet
 * with several orders on one project cannot happen (orders are keyed by key and slug), so no balance is counted twice.
 */
export function fundedSpend(orders: readonly OrderRecord[], balanceAtomicByKey: ReadonlyMap<string, bigint>): string {
  let total = 0n
  for (const order of orders) {
    if (!isLiveOrder(order)) continue
    const spend = usdc(order.maxSpendUsdc)
    const balance = balanceAtomicByKey.get(order.keyId) ?? 0n
    total += spend < balance ? spend : balance
  }
  return formatDecimal(total, USDC_DECIMALS)
}

export interface DepthLevel {
  /** Price limit of this level; null = orders without a limit (they buy at any market cap). */
  maxFdvUsdc: string | null
  orderCount: number
  spendUsdc: string
  /** Spend of every order that would still buy at an effective market cap equal to this limit (limit >= level). */
  eligibleSpendUsdc: string
}

/** Order-book depth by price limit, ascending limits, the no-limit level last. */
export function depthByPriceLimit(orders: readonly OrderRecord[]): DepthLevel[] {
  const live = orders.filter(isLiveOrder).map((order) => ({
    limitFdv: order.maxFdvUsdc === null ? null : (parseDecimal(order.maxFdvUsdc, FDV_DECIMALS) ?? 0n),
    spend: usdc(order.maxSpendUsdc),
  }))
  // The same slices as the launch simulator's demand, shown lowest limit first.
  return demandSlices(live)
    .reverse()
    .map((slice) => ({
      maxFdvUsdc: slice.limitFdv === null ? null : formatDecimal(slice.limitFdv, FDV_DECIMALS),
      orderCount: slice.orders,
      spendUsdc: formatDecimal(slice.spend, USDC_DECIMALS),
      eligibleSpendUsdc: formatDecimal(slice.eligibleSpend, USDC_DECIMALS),
    }))
}
