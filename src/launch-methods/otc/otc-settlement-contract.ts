import { concat, encodeAbiParameters, keccak256, type Abi, type Address, type Hex } from 'viem'
import artifact from '../../chain/contracts/artifacts/PrebuyOtcSettlement.json' with { type: 'json' }

/** PrebuyOtcSettlement (src/chain/contracts/launch-methods/PrebuyOtcSettlement.sol), compiled and checked in. */
export const OTC_SETTLEMENT_ABI = artifact.abi as Abi
export const OTC_SETTLEMENT_BYTECODE = artifact.bytecode as Hex

/** The on-chain offer (`offers(offerId)`), as read back. */
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

/** CREATE2 salt of the settlement contract (bump the version when the contract changes: a new address). */
export const OTC_SETTLEMENT_SALT: Hex = keccak256(new TextEncoder().encode('prebuy.PrebuyOtcSettlement.v2'))

/**
 * Init code of the settlement contract for this service: its EntryPoint and stablecoin, its operator and fee
 * recipient, and the vesting contract locked offers put buyers' tokens in (v2: lock terms).
 */
export const otcSettlementInitCode = (args: { entryPoint: Address; stablecoin: Address; operator: Address; feeRecipient: Address; vesting: Address }): Hex =>
  concat([
    OTC_SETTLEMENT_BYTECODE,
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'address' }],
      [args.entryPoint, args.stablecoin, args.operator, args.feeRecipient, args.vesting],
    ),
  ])
