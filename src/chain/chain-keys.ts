import type { EthUsdBand } from '../pricing/eth-usd-band.ts'
import type { Address } from 'viem'

/** The two chains the service runs on; every per-chain map in the code base is keyed by these. */
export const CHAIN_KEYS = ['base', 'second_chain'] as const
export type ChainKey = (typeof CHAIN_KEYS)[number]

export const isChainKey = (value: unknown): value is ChainKey => typeof value === 'string' && (CHAIN_KEYS as readonly string[]).includes(value)

/** Native ETH in balance listings and withdrawals. */
export const NATIVE_ETH_ADDRESS: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

/** Every contract the service talks to on one chain. On devnet they come from deployments.json. */
export interface ChainAddresses {
  /** The 6-decimal USD stablecoin orders spend. */
  stablecoin: Address
  weth: Address
  poolManager: Address
  stateView: Address
  v4Quoter: Address
  /** Only the devnet's fixtures use it (to add liquidity); optional on real chains. */
  positionManager?: Address
  universalRouter: Address
  permit2: Address
  /** ERC-4337 EntryPoint v0.7. */
  entryPoint: Address
  /** Smart account factory (SimpleAccountFactory v0.7 on devnet); only SimpleAccount wallets use it. */
  accountFactory?: Address
  multicall3: Address
  v3Factory: Address
  /** The v3 WETH/stablecoin 0.05% pool used for the USD price of ETH. */
  ethUsdPool: Address
}

export interface ChainConfig {
  key: ChainKey
  chainId: number
  rpcUrl: string
  wsUrl: string
  /**
   * HTTP URL of the API's reads (wallet balances, the order book's funding), kept apart from `rpcUrl` (the indexer's
   * and executor's) so API traffic never competes with launch buys for a provider's rate limit. Default: `rpcUrl`.
   */
  readRpcUrl?: string | undefined
  /** Widest `eth_getLogs` block range asked of this chain's provider (default DEFAULT_GET_LOGS_MAX_BLOCKS, 2,000). */
  getLogsMaxBlocks?: number | undefined
  addresses: ChainAddresses
  /** True only for the embedded anvil chains; devnet helpers (faucet, mining) refuse any other chain. */
  devnet?: boolean
  /**
   * A chain left out of the rpc-mode config (src/chain/enabled-chains.ts): nothing connects to it. Its URLs are
   * unroutable (`.invalid`, RFC 2606) so a stray read fails loudly, and its addresses are base's so per-chain
   * constructors (the one-wallet-address check) accept it.
   */
  disabled?: true
  /** Most gas one transaction may ask for (EIP-7825); absent: 2^24 (txGasCapOf, src/chain/tx-gas-cap.ts). */
  txGasCap?: bigint
  /** The ETH/USD sanity band (spot against the pool's TWAP); absent: DEFAULT_ETH_USD_BAND (src/pricing/eth-usd-band.ts). */
  ethUsdBand?: EthUsdBand | undefined
}
