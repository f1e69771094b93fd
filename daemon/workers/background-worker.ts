import type { PriceQuoteTally } from '../health/metrics/price-quote-tally.ts'
import type { ExecutorTickTimes } from '../health/metrics/executor-tick-times.ts'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import type { Logger } from '../../src/common/logger.ts'
import type { ChainHeads } from '../../src/chain/chain-heads.ts'
import type { SocketState } from '../../src/sync/realtime-sync.ts'
import type { PrebuyConfig } from '../../src/config/config.ts'
import type { Services } from '../../src/services/services.ts'
import type { Store } from '../../src/store/open-store.ts'
import type { PrebuyWalletService } from '../../src/wallets/create-wallet-service.ts'
import type { DevnetSetup } from '../embedded-devnet.ts'

/** Everything a long-running part of the daemon may use; the daemon owns all of it and outlives the workers. */
export interface WorkerContext {
  config: PrebuyConfig
  chains: Record<ChainKey, ChainConfig>
  store: Store
  services: Services
  wallets: PrebuyWalletService
  logger: Logger
  /** On the embedded devnet: its launchpads and the account that deploys this service's contracts (absent on real chains). */
  devnet?: DevnetSetup
  /** A worker that cannot go on calls this; the daemon stops with the message. */
  fail(error: Error): void
  /** The chains' heads, fed by the indexer's sync and read by the readiness probe (one head fetch per tick). */
  heads?: ChainHeads
  /** Told when a chain's new-head websocket comes up, goes down or never connects (metrics). */
  onSocket?: (chain: ChainKey, state: SocketState) => void
  /** Counts the executor's formula-vs-quote disagreements and unanswered quotes (metrics). */
  priceQuotes?: PriceQuoteTally
  /** Times the executor's ticks (metrics: prebuy_executor_tick_seconds). */
  tickTimes?: ExecutorTickTimes
}

/** A part of the daemon that runs beside the HTTP servers: started after the store opens, stopped before it closes. */
export interface BackgroundWorker {
  name: string
  start(): Promise<void>
  /** Finish or abandon in-flight work safely; called once during shutdown. */
  stop(): Promise<void>
}
