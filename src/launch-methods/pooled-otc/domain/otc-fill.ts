import { splitProRata } from '../../../domain/batch/pro-rata.ts'
import { withinLimit } from '../../../domain/execution/eligibility.ts'
import { PLATFORM_FEE_BPS, splitPlatformFee } from '../../../domain/execution/platform-fee.ts'

/** An order at an OTC settlement: its FDV limit and what it may spend (stablecoin atoms). */
export interface OtcOrder {
  id: string
  /** FDV limit in stablecoin atoms; null: no limit. */
  limitFdv: bigint | null
  maxSpend: bigint
  /** The buyer's wallet balance at settlement. */
  balance: bigint
}

export interface OtcPrice {
  /** The OTC price as an FDV, stablecoin atoms. */
  fdv: bigint
  /** The token's total supply, atomic units: price per token atom = fdv / totalSupply. */
  totalSupply: bigint
  /** Tokens the project deposited for sale, atomic units. */
  offered: bigint
}

export interface OtcFill {
  id: string
  /** Stablecoin moved from the buyer to the project: exactly what its tokens cost, rounded up by less than one atom. */
  spend: bigint
  /** Tokens bought, before the fee. */
  tokens: bigint
  fee: bigint
  /** Tokens credited to the buyer (tokens - fee). */
  credited: bigint
}

export interface OtcSettlement {
  fills: OtcFill[]
  /** Orders left out: limit below the OTC FDV, or nothing to spend. They stay active. */
  skipped: Array<{ id: string; reason: 'limit_below_otc' | 'no_balance' }>
  /** Stablecoin the eligible orders could spend in all. */
  demand: bigint
  /** Whether demand exceeded what the offered tokens cost (then every contribution was scaled down pro rata). */
  oversubscribed: boolean
  /** Tokens not sold (rounding included): returned to the project. */
  unsold: bigint
  /** Tokens sold / tokens offered, for display. */
  fillRatio: number
}

/**
 * A pooled OTC settlement, pure. Orders whose limit is at or above the OTC FDV contribute min(max spend, balance).
 * When the offered tokens cover the demand, each buys what its contribution pays for; otherwise every contribution is
 * scaled down pro rata (`tokens_i = floor(offered * contribution_i / demand)`) and the unspent part stays in the
 * wallet. Each buyer pays what its tokens cost rounded up by less than one stablecoin atom (never more than it
 * contributed); tokens the floors leave go back to the project with the unsold ones. 3% of each buyer's tokens is the
 * platform fee.
 * The scaling is the pro-rata rule the batch's allocation is built on (splitProRata); the remainder differs from the
 * batch's (fee recipient) on purpose: here the tokens are the project's, sold at a fixed price and paid for one by one
 * (each buyer pays exactly what its tokens cost), so a token nobody paid for stays the project's; in the batch every
 * token was bought with the buyers' money by one swap, so the remainder cannot go back to a seller.
 */
export function settleOtc(terms: OtcPrice, orders: readonly OtcOrder[], feeBps: bigint = PLATFORM_FEE_BPS): OtcSettlement {
  if (terms.fdv <= 0n || terms.totalSupply <= 0n || terms.offered < 0n) throw new RangeError('OTC terms need a positive FDV and supply')
  const skipped: OtcSettlement['skipped'] = []
  const contributing: Array<{ id: string; amount: bigint }> = []
  for (const order of orders) {
    if (!withinLimit(order.limitFdv, terms.fdv)) skipped.push({ id: order.id, reason: 'limit_below_otc' })
    else {
      const amount = order.maxSpend < order.balance ? order.maxSpend : order.balance
      if (amount <= 0n) skipped.push({ id: order.id, reason: 'no_balance' })
      else contributing.push({ id: order.id, amount })
    }
  }
  const demand = contributing.reduce((sum, c) => sum + c.amount, 0n)
  // Demand exceeds supply when the tokens it would buy exceed those offered: demand * supply / fdv > offered.
  const oversubscribed = demand * terms.totalSupply > terms.offered * terms.fdv
  // Oversubscribed: the offer is split by contribution with the pooled purchases' one pro-rata rule (the batch's
  // allocation is built on it: src/domain/batch/pro-rata.ts); the remainder goes back to the project with the unsold.
  const scaled = oversubscribed
    ? splitProRata(
        terms.offered,
        contributing.map((c) => c.amount),
      ).parts
    : null
  const fills = contributing.map(({ id, amount }, i) => {
    const tokens = scaled ? scaled[i]! : (amount * terms.totalSupply) / terms.fdv
    const spend = ceilDiv(tokens * terms.fdv, terms.totalSupply)
    const { fee, buyer } = splitPlatformFee(tokens, feeBps)
    return { id, spend, tokens, fee, credited: buyer }
  })
  const sold = fills.reduce((sum, f) => sum + f.tokens, 0n)
  return {
    fills,
    skipped,
    demand,
    oversubscribed,
    unsold: terms.offered - sold,
    fillRatio: terms.offered === 0n ? 0 : Number((sold * 1_000_000n) / terms.offered) / 1_000_000,
  }
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b
