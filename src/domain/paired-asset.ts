import type { Address } from 'viem'

/** A Uniswap v4 pool key, JSON-safe (fee and tickSpacing fit in a number). */
export interface PoolKey {
  currency0: Address
  currency1: Address
  fee: number
  tickSpacing: number
  hooks: Address
}

/**
 * What a launched token trades against in its pool: `weth`, native `eth` (address(0) in the pool key), Zora's `zora`,
 * or a Zora creator `coin`. The kind and the bridge pick the buy route and the USD price source.
 */
export interface PairedAsset {
  kind: 'weth' | 'eth' | 'zora' | 'coin'
  address: Address
  /**
   * v4 pools from WETH or native ETH to this asset, in swap order, for an asset bought and priced through them (ZORA:
   * the configured ETH/ZORA pool). Absent for WETH and ETH.
   */
  bridge?: PoolKey[]
  /**
   * The fee priced for each bridge pool, pips, where its key's fee is the dynamic-fee flag (a Zora creator coin's pool:
   * its hook's 1% once its launch fee is over); absent: each key's static fee.
   */
  bridgeFeePips?: number[]
  /**
   * Each bridge pool's v4 protocol fee for a buy's direction, pips (slot0's `protocolFee`, read at launch and updated
   * from the PoolManager's ProtocolFeeUpdated; src/pricing/bridge-fee.ts); absent: none.
   */
  bridgeProtocolFeePips?: number[]
}
