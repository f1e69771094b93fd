import { formatDecimal } from '../../../domain/decimal.ts'
import { USDC_DECIMALS } from '../../../domain/order-bounds.ts'
import type { OtcOffer } from '../../../domain/records.ts'

/** A project's OTC offer as the API shows it (GET /projects/{slug}, the owner endpoints): amounts in token units. */
export interface OtcOfferView {
  offerId: string
  fdvUsdc: string
  tokenAddress: string
  tokenSymbol: string
  tokenAmount: string
  settleAt: string
  /** Lock and vesting of the buyers' tokens after the settlement block, seconds (both 0: none). */
  lockSeconds: number
  vestingSeconds: number
  deposited: boolean
  depositTxHash: string | null
  settlement: OtcSettlementView | null
  /**
   * Ids the offer left for a fresh one, oldest first, and why (an on-chain offer under the id that differed from the
   * record: never counted, never settled). Empty: none.
   */
  supersededOffers: Array<{ offerId: string; reason: string; at: string }>
}

export interface OtcSettlementView {
  status: 'settling' | 'settled' | 'retrying' | 'cancelled'
  txHash: string | null
  soldTokens: string | null
  unsoldTokens: string | null
  proceedsUsdc: string | null
  filledOrders: number | null
  /** Why the last attempt failed (retrying only). */
  reason: string | null
  at: string
}

export function otcOfferView(offer: OtcOffer): OtcOfferView {
  const tokens = (atoms: string) => formatDecimal(BigInt(atoms), offer.tokenDecimals)
  const s = offer.settlement
  const settlement: OtcSettlementView | null =
    s === null
      ? null
      : s.status === 'settled'
        ? {
            status: 'settled',
            txHash: s.txHash,
            soldTokens: tokens(s.sold),
            unsoldTokens: tokens(s.unsold),
            proceedsUsdc: formatDecimal(BigInt(s.proceedsAtoms), USDC_DECIMALS),
            filledOrders: s.filledOrders,
            reason: null,
            at: new Date(s.at).toISOString(),
          }
        : {
            status: s.status,
            txHash: null,
            soldTokens: null,
            unsoldTokens: null,
            proceedsUsdc: null,
            filledOrders: null,
            reason: s.status === 'retrying' ? s.reason : null,
            at: new Date(s.status === 'cancelled' ? s.at : s.since).toISOString(),
          }
  return {
    offerId: offer.offerId,
    fdvUsdc: offer.fdvUsdc,
    tokenAddress: offer.tokenAddress,
    tokenSymbol: offer.tokenSymbol,
    tokenAmount: tokens(offer.tokenAmount),
    settleAt: new Date(offer.settleAt).toISOString(),
    lockSeconds: offer.lock?.lockSeconds ?? 0,
    vestingSeconds: offer.lock?.vestingSeconds ?? 0,
    deposited: offer.deposit !== null,
    depositTxHash: offer.deposit?.txHash ?? null,
    settlement,
    supersededOffers: (offer.superseded ?? []).map((s) => ({ offerId: s.offerId, reason: s.reason, at: new Date(s.at).toISOString() })),
  }
}
