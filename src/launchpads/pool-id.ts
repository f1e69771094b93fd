import { encodeAbiParameters, keccak256, type Hex } from 'viem'
import type { PoolKey } from './launchpad-adapter.ts'

const POOL_KEY_PARAMS = [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }] as const

/** A v4 pool's id: keccak256 of its ABI-encoded key (v4-core PoolIdLibrary.toId). */
export const poolIdOf = (key: PoolKey): Hex =>
  keccak256(encodeAbiParameters(POOL_KEY_PARAMS, [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks]))
