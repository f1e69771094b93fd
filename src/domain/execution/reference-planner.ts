import { checkOrderTerms, type EligibilityContext, type IneligibleReason } from './eligibility.ts'
import type { ExecutableOrder } from './executable-order.ts'
import { sizeSpend } from './size-spend.ts'
import type { OrderVerdict } from './verdicts.ts'

export interface PlanTickInput<T extends ExecutableOrder = ExecutableOrder> extends EligibilityContext {
  /**
   * The launch's orders IN PRIORITY ORDER (prioritiseOrders). Priority depends only on the orders, never on the price,
   * so the executor sorts when the order set changes and every tick is one linear pass.
   */
  prioritisedOrders: readonly T[]
  /** Spend-currency balance per wallet on the project's chain. */
  balances: ReadonlyMap<string, bigint>
  /** Already reserved per wallet by in-flight orders from earlier ticks (other launches included). */
  reserved?: ReadonlyMap<string, bigint>
}

/** An order that buys this tick, with its spend sized (the reference planner's buy; the executor's is BuyToSubmit). */
export interface SizedBuy<T extends ExecutableOrder = ExecutableOrder> {
  order: T
  /** Stablecoin to spend, smallest units. The on-chain minimum out comes from minTokensOut(spend, limit, supply). */
  spend: bigint
}

/** Why an order neither buys nor expires this tick, in the journal's words (see verdicts.ts). */
export type SkipReason = Exclude<IneligibleReason, 'expired'> | Extract<OrderVerdict, 'fully_reserved'>

export interface TickPlan<T extends ExecutableOrder = ExecutableOrder> {
  /** In priority order: submit in this order. */
  buys: SizedBuy<T>[]
  /** Past their expiry: move to `expired`, no more attempts. */
  expired: T[]
  /** Neither bought nor expired this tick: left as they are. */
  skipped: Array<{ order: T; reason: SkipReason }>
  /** What each wallet has reserved after this tick (earlier reservations plus this tick's buys). */
  reserved: Map<string, bigint>
}

/**
 * One price tick's decision, pure: which orders buy and how much. Spend is sized in priority order, so a wallet's
 * balance goes to its highest-priority orders first and two orders of one wallet never together spend more than it holds.
 */
export function planTick<T extends ExecutableOrder>(input: PlanTickInput<T>): TickPlan<T> {
  const reserved = new Map(input.reserved ?? [])
  const buys: SizedBuy<T>[] = []
  const expired: T[] = []
  const skipped: Array<{ order: T; reason: SkipReason }> = []

  for (const order of input.prioritisedOrders) {
    const verdict = checkOrderTerms(order, input)
    if (!verdict.eligible) {
      if (verdict.reason === 'expired') expired.push(order)
      else skipped.push({ order, reason: verdict.reason })
      continue
    }
    const balance = input.balances.get(order.wallet) ?? 0n
    if (balance <= 0n) {
      skipped.push({ order, reason: 'no_balance' })
      continue
    }
    const held = reserved.get(order.wallet) ?? 0n
    const spend = sizeSpend(order.maxSpend, balance, held)
    if (spend === 0n) {
      skipped.push({ order, reason: 'fully_reserved' })
      continue
    }
    reserved.set(order.wallet, held + spend)
    buys.push({ order, spend })
  }
  return { buys, expired, skipped, reserved }
}
