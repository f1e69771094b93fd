import { CHAIN_KEYS, type ChainConfig, type ChainKey } from '../chain/chain-keys.ts'
import { disabledChainConfig } from '../chain/enabled-chains.ts'
import type { RpcChainsConfig } from './config-schema.ts'

/** Real chains as the rest of the service sees them (the same shape the devnet produces); a chain left out is disabled. */
export function rpcChainConfigs(chains: RpcChainsConfig): Record<ChainKey, ChainConfig> {
  const base = configOf('base', chains.base)
  return Object.fromEntries(
    CHAIN_KEYS.map((key): [ChainKey, ChainConfig] => {
      const chain = chains[key]
      return [key, chain === undefined ? disabledChainConfig(key, base) : configOf(key, chain)]
    }),
  ) as Record<ChainKey, ChainConfig>
}

function configOf(key: ChainKey, chain: NonNullable<RpcChainsConfig[ChainKey]>): ChainConfig {
  return {
    key,
    chainId: chain.chainId,
    rpcUrl: chain.rpcUrl,
    wsUrl: chain.wsUrl,
    // The API's reads default to the executor's node; a separate URL keeps them off its rate limit.
    readRpcUrl: chain.readRpcUrl ?? chain.rpcUrl,
    ...(chain.getLogsMaxBlocks === undefined ? {} : { getLogsMaxBlocks: chain.getLogsMaxBlocks }),
    addresses: chain.addresses,
    ...(chain.ethUsdBand === undefined ? {} : { ethUsdBand: chain.ethUsdBand }),
    txGasCap: BigInt(chain.txGasCap),
  }
}

/** Per-chain external bundler URLs, for the chains that configure one (refused at config validation for now). */
export function externalBundlerUrls(chains: RpcChainsConfig): Partial<Record<ChainKey, string>> {
  const urls: Partial<Record<ChainKey, string>> = {}
  for (const key of CHAIN_KEYS) {
    const url = chains[key]?.bundlerUrl
    if (url !== undefined) urls[key] = url
  }
  return urls
}
