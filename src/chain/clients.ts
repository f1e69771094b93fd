import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Account,
  type Chain,
  type HttpTransport,
  type PublicClient,
  type WalletClient,
} from 'viem'
import type { ChainConfig } from './chain-keys.ts'
import { type StateFallback, withLatestStateFallback } from './latest-state-fallback.ts'

export interface ChainClientsOptions {
  /** How often block and receipt watchers poll. Default 500 ms (a quarter of a Base block). */
  pollingInterval?: number
}

export interface ChainClients {
  chain: Chain
  /** HTTP, with concurrent reads folded into Multicall3 aggregate3 calls. */
  publicClient: PublicClient<HttpTransport, Chain>
  walletClient(account: Account): WalletClient<HttpTransport, Chain, Account>
}

/** viem chain definition from our config: the multicall address makes viem's `batch.multicall` work on any chain. */
export function chainFromConfig(config: ChainConfig): Chain {
  return defineChain({
    id: config.chainId,
    name: config.devnet ? `prebuy devnet (${config.key})` : config.key,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl], webSocket: [config.wsUrl] } },
    contracts: { multicall3: { address: config.addresses.multicall3 } },
    testnet: config.devnet === true,
  })
}

export interface ReadClientOptions {
  pollingInterval?: number
  /** Told when a read at a block the node cannot serve was answered from the latest state. */
  onStateFallback?: (fallback: StateFallback) => void
}

/**
 * The indexer's and executor's client: HTTP, and a state read at a block whose state the node cannot serve (a full
 * node's pruned history, a devnet chain restarted from its dump) is answered from the latest state instead of failing
 * forever (see latest-state-fallback.ts).
 */
export function createReadClient(config: ChainConfig, options: ReadClientOptions = {}): PublicClient {
  return createPublicClient({
    chain: chainFromConfig(config),
    transport: withLatestStateFallback(http(config.rpcUrl), options.onStateFallback),
    pollingInterval: options.pollingInterval ?? 250,
  }) as PublicClient
}

export function createChainClients(config: ChainConfig, options: ChainClientsOptions = {}): ChainClients {
  const chain = chainFromConfig(config)
  const pollingInterval = options.pollingInterval ?? 500
  const publicClient = createPublicClient({
    chain,
    transport: http(config.rpcUrl),
    batch: { multicall: true },
    pollingInterval,
  })
  return {
    chain,
    publicClient,
    walletClient: (account) => createWalletClient({ chain, account, transport: http(config.rpcUrl), pollingInterval }),
  }
}
