import { concat, encodeAbiParameters, keccak256, type Abi, type Address, type Hex } from 'viem'
import type { OtcTerms } from '../domain/otc-terms.ts'
import artifact from '../../../chain/contracts/artifacts/PrebuyOtcSettlement.json' with { type: 'json' }

/** PrebuyOtcSettlement (src/chain/contracts/launch-methods/PrebuyOtcSettlement.sol), compiled and checked in. */
export const OTC_SETTLEMENT_ABI = artifact.abi as Abi
export const OTC_SETTLEMENT_BYTECODE = artifact.bytecode as Hex

/** The on-chain offer (`offers(key)`), as read back (project zero: no offer under that key). */
export interface OnChainOffer {
  project: `0x${string}`
  token: `0x${string}`
  offered: bigint
  fdv: bigint
  totalSupply: bigint
  settleAfter: bigint
  lockSeconds: bigint
  vestingSeconds: bigint
  closed: boolean
}

/**
 * CREATE2 salt of the settlement contract (bump the version when the contract changes: a new address). v3: offers
 * keyed by their depositor (`otcOfferKey`), `settle` checks the recorded terms (issue 19, offer squatting).
 */
export const OTC_SETTLEMENT_SALT: Hex = keccak256(new TextEncoder().encode('prebuy.PrebuyOtcSettlement.v3'))

/**
 * The key an offer is stored under on the contract: `offerKey(project, offerId)` = keccak256(abi.encode(project,
 * offerId)), `project` being the wallet that deposited it. The id alone is public and predictable; the key of the
 * owner's wallet can only hold that wallet's own deposit (PrebuyOtcSettlement.sol, v3).
 */
export const otcOfferKey = (project: Address, offerId: Hex): Hex =>
  keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [project, offerId]))

/** `settle`'s `expected` argument (struct Terms) from the recorded terms. */
export const settleTermsArg = (terms: OtcTerms) => ({
  project: terms.project as Address,
  token: terms.token as Address,
  offered: terms.offered,
  fdv: terms.fdv,
  totalSupply: terms.totalSupply,
  settleAfter: terms.settleAfter,
  lockSeconds: terms.lockSeconds,
  vestingSeconds: terms.vestingSeconds,
})

/**
 * Init code of the settlement contract for this service: its EntryPoint and stablecoin, its operator and fee
 * recipient, and the vesting contract locked offers put buyers' tokens in (v2: lock terms; v3: the same arguments).
 */
export const otcSettlementInitCode = (args: { entryPoint: Address; stablecoin: Address; operator: Address; feeRecipient: Address; vesting: Address }): Hex =>
  concat([
    OTC_SETTLEMENT_BYTECODE,
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'address' }],
      [args.entryPoint, args.stablecoin, args.operator, args.feeRecipient, args.vesting],
    ),
  ])
