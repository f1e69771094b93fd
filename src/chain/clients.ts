import { createPublicClient, createWalletClient, defineChain, type Account, type Chain, type HttpTransport, type PublicClient, type WalletClient } from 'viem'
import type { ChainConfig } from './chain-keys.ts'
import { type BatchFallback, withReadBatching } from './read-batching.ts'
import { type StateFallback, withLatestStateFallback } from './latest-state-fallback.ts'
import { rpcHttp } from './rpc-http.ts'

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
  /** Told once when the provider refused a batch whole: the reads go one request each from then on (read-batching.ts). */
  onBatchFallback?: (fallback: BatchFallback) => void
}

/**
 * The read client's JSON-RPC batching (issue 23 item 3): the requests asked within one timer turn travel in one HTTP
 * request. A launch block's reads are asked together (the receipt, the sender's code, the pool's state, the quotes:
 * 20-60 requests in the launch record's round) and each HTTP request costs a provider round trip and the node's
 * per-request overhead; in one batch they cost one. viem's `wait: 0` (createBatchScheduler) flushes on a 0 ms timer,
 * so a lone read waits no longer than before. At most 100 per batch (the round is 20-60; providers cap batches at 100 or
 * more, start-up checks RPC_BATCH_SIZE: verify-chain.ts), and a call larger than BATCH_CALL_MAX_CHARS goes alone, so a
 * batch's body stays under 1 MB (read-batching.ts); a provider that refuses a batch later on gets every read alone from
 * then on, the refused read asked again alone at once.
 */
export const READ_BATCH = { batchSize: 100, wait: 0 } as const

/**
 * The indexer's and executor's client: HTTP (batched: READ_BATCH), and a state read at a block whose state the node cannot serve (a full
 * node's pruned history, a devnet chain restarted from its dump) is answered from the latest state instead of failing
 * forever (see latest-state-fallback.ts).
 */
export function createReadClient(config: ChainConfig, options: ReadClientOptions = {}): PublicClient {
  return createPublicClient({
    chain: chainFromConfig(config),
    transport: withLatestStateFallback(
      withReadBatching(rpcHttp(config.rpcUrl, { batch: READ_BATCH }), rpcHttp(config.rpcUrl), options.onBatchFallback),
      options.onStateFallback,
    ),
    pollingInterval: options.pollingInterval ?? 250,
  }) as PublicClient
}

export function createChainClients(config: ChainConfig, options: ChainClientsOptions = {}): ChainClients {
  const chain = chainFromConfig(config)
  const pollingInterval = options.pollingInterval ?? 500
  const publicClient = createPublicClient({
    chain,
    transport: rpcHttp(config.rpcUrl),
    batch: { multicall: true },
    pollingInterval,
  })
  return {
    chain,
    publicClient,
    walletClient: (account) => createWalletClient({ chain, account, transport: rpcHttp(config.rpcUrl), pollingInterval }),
  }
}
