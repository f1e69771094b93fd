import { CHAIN_KEYS, type ChainConfig, type ChainKey } from './chain-keys.ts'

/** The chains the daemon runs on: every chain except those left out of the rpc-mode config (disabled). */
export const enabledChainKeys = (chains: Record<ChainKey, ChainConfig>): ChainKey[] => CHAIN_KEYS.filter((key) => chains[key].disabled !== true)

/**
 * The stand-in for a chain left out of the config: the type system keeps a config per chain key, the daemon never uses
 * it (every per-chain loop goes through enabledChainKeys), and a stray read fails at once on the unroutable URL.
 */
export function disabledChainConfig(key: ChainKey, like: ChainConfig): ChainConfig {
  return { key, chainId: 0, rpcUrl: 'http://disabled-chain.invalid', wsUrl: 'ws://disabled-chain.invalid', addresses: like.addresses, disabled: true }
}
