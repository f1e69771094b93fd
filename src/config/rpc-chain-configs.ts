import { CHAIN_KEYS, type ChainConfig, type ChainKey } from '../chain/chain-keys.ts'
import type { RpcChainsConfig } from './config-schema.ts'

/** Real chains as the rest of the service sees them (the same shape the devnet produces). */
export function rpcChainConfigs(chains: RpcChainsConfig): Record<ChainKey, ChainConfig> {
  return Object.fromEntries(
    CHAIN_KEYS.map((key): [ChainKey, ChainConfig] => {
      const chain = chains[key]
      return [key, { key, chainId: chain.chainId, rpcUrl: chain.rpcUrl, wsUrl: chain.wsUrl, addresses: chain.addresses }]
    }),
  ) as Record<ChainKey, ChainConfig>
}
