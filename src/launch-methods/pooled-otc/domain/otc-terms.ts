import { parseDecimal } from '../../../domain/decimal.ts'
import { FDV_DECIMALS } from '../../../domain/order-bounds.ts'
import type { OtcOffer } from '../../../domain/records.ts'
import { NO_LOCK } from '../../vesting/domain/lock-terms.ts'

/**
 * An OTC offer's terms as PrebuyOtcSettlement stores them (`offers(key)`, `settle`'s `expected`): the depositing
 * wallet (paid the proceeds), the token, the amount offered (atoms), the FDV (stablecoin atoms) over the total supply,
 * the earliest settlement (unix seconds) and the lock terms after the settlement block.
 */
export interface OtcTerms {
  project: string
  token: string
  offered: bigint
  fdv: bigint
  totalSupply: bigint
  settleAfter: bigint
  lockSeconds: bigint
  vestingSeconds: bigint
}

export const OTC_TERM_FIELDS = ['project', 'token', 'offered', 'fdv', 'totalSupply', 'settleAfter', 'lockSeconds', 'vestingSeconds'] as const
export type OtcTermField = (typeof OTC_TERM_FIELDS)[number]

/** The terms the service recorded for `offer`, deposited (or to be) by the wallet `project`. */
export function recordedOtcTerms(offer: OtcOffer, project: string): OtcTerms {
  const lock = offer.lock ?? NO_LOCK
  return {
    project,
    token: offer.tokenAddress,
    offered: BigInt(offer.tokenAmount),
    fdv: parseDecimal(offer.fdvUsdc, FDV_DECIMALS)!,
    totalSupply: BigInt(offer.totalSupply),
    // The contract counts in whole seconds; the record in ms: rounded up, so it never settles before settleAt.
    settleAfter: BigInt(Math.ceil(offer.settleAt / 1000)),
    lockSeconds: BigInt(lock.lockSeconds),
    vestingSeconds: BigInt(lock.vestingSeconds),
  }
}

/**
 * Which fields of the on-chain offer differ from the recorded terms (empty: the same offer). Addresses compare
 * case-insensitively (checksummed or not, the same account). Every field counts: a deposit or a settlement is only
 * ever of the offer the buyers were shown.
 */
export function otcTermsDifferences(recorded: OtcTerms, onChain: OtcTerms): OtcTermField[] {
  return OTC_TERM_FIELDS.filter((field) => {
    const a = recorded[field]
    const b = onChain[field]
    return typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() !== b.toLowerCase() : a !== b
  })
}

/** "the on-chain offer differs from the record: fdv (500000000000 recorded, 1000000000000 on chain)". */
export function describeOtcDifferences(recorded: OtcTerms, onChain: OtcTerms, fields: readonly OtcTermField[]): string {
  return `the on-chain offer differs from the record: ${fields.map((f) => `${f} (${String(recorded[f])} recorded, ${String(onChain[f])} on chain)`).join(', ')}`
}
