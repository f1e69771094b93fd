import { keccak256, type Abi, type Hex } from 'viem'
import artifact from '../../../chain/contracts/artifacts/PrebuyVesting.json' with { type: 'json' }

/** PrebuyVesting (src/chain/contracts/launch-methods/PrebuyVesting.sol), compiled and checked in. */
export const VESTING_ABI = artifact.abi as Abi
export const VESTING_BYTECODE = artifact.bytecode as Hex

/**
 * CREATE2 salt of the vesting contract (bump the version when the contract changes: a new address). It has no
 * constructor arguments, so its init code is its bytecode and its address is the same on every chain.
 */
export const VESTING_SALT: Hex = keccak256(new TextEncoder().encode('prebuy.PrebuyVesting.v1'))

export const vestingInitCode = (): Hex => VESTING_BYTECODE

/** A position as `positions(id)` returns it. */
export interface OnChainPosition {
  beneficiary: `0x${string}`
  token: `0x${string}`
  total: bigint
  released: bigint
  start: bigint
  lockupEnd: bigint
  vestingSeconds: bigint
}
