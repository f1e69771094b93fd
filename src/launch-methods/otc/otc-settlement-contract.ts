import type { Abi, Hex } from 'viem'
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
  closed: boolean
}
