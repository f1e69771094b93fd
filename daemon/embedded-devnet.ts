import type { FastifyInstance } from 'fastify'
import type { Account, Address, Chain, Transport, WalletClient } from 'viem'
import type { ChainConfig, ChainKey } from '../src/chain/chain-keys.ts'
import type { Logger } from '../src/common/logger.ts'
import type { DevnetChainsConfig } from '../src/config/config-schema.ts'
import type { ClankerDevBuySetup } from '../src/launch-methods/dev-buy/chain/clanker-dev-buy-deployment.ts'
import type { KnownLaunchPools } from '../src/domain/launches/known-launch-pools.ts'
import type { CreateLaunchpadAdaptersOptions } from '../src/launchpads/create-adapters.ts'

/**
 * What the daemon needs from the embedded devnet (`chains.mode: devnet`), in the daemon's own words. The devnet wing
 * (devnet/start-devnet-wing.ts) implements it; the daemon reaches the wing only through start-embedded-devnet.ts, so
 * no product file imports the devnet and a daemon on real chains never loads it (docs/devnet.md).
 */
export interface EmbeddedDevnet {
  /** The running chains, their fixtures deployed. */
  chains: Record<ChainKey, ChainConfig>
  /**
   * Everything the daemon's parts need on the devnet, done before any of them starts: the bundler EOAs funded, the
   * devnet launchpads deployed (or found again), and what the daemon needs to know of them handed back.
   */
  /** `senders`: every sender account per chain (wallet.senderAccounts, the bundler first), each funded like the bundler. */
  prepare(options: { bundlers: Record<ChainKey, Address>; senders?: Record<ChainKey, readonly Address[]> }): Promise<DevnetSetup>
  /**
   * Switches the chains from automine, on which everything the daemon deploys at start-up lands one transaction per
   * block without waiting on a block clock, to the configured block time. Called once, after the last deployment and
   * before any worker subscribes to blocks (a sub-second block time restarts anvil on its port: docs/devnet.md).
   */
  startBlocks(): Promise<void>
  /** The devnet admin routes (`prebuy devnet ...`), registered inside the admin app (behind the operator token). */
  adminRoutes(app: FastifyInstance): void
  /** Stops the chains (their state is dumped first). Idempotent. */
  stop(): Promise<void>
}

/** What the devnet hands the daemon once prepared: explicit values, no file the daemon has to know to read. */
export interface DevnetSetup {
  /** Each chain's launchpad adapter options: the devnet imitations of Clanker, Doppler and ZORA at their addresses. */
  launchpads: Record<ChainKey, CreateLaunchpadAdaptersOptions>
  /**
   * Each chain's launchpad pool configurations (every hook and module the devnet launchpads deployed): a launch at a
   * project's expected address with another pool is rejected (src/domain/launches/known-launch-pools.ts). Absent: none.
   */
  knownPools?: Partial<Record<ChainKey, KnownLaunchPools>>
  /** Each chain's Clanker dev-buy modules (the devnet Clanker's, with the devnet launch defaults). */
  devBuy: Partial<Record<ChainKey, ClankerDevBuySetup>>
  /**
   * A funded account that deploys this service's own contracts (buy router, vesting, OTC settlement, dev-buy
   * coordinator) where they are missing; all go through CREATE2, so their addresses do not depend on it.
   */
  contractsDeployer(chain: ChainKey): WalletClient<Transport, Chain, Account>
}

export interface StartEmbeddedDevnetOptions {
  /** The daemon's data dir; the devnet keeps its chains' state and its records in `<dataDir>/devnet/`. */
  dataDir: string
  blockTime: DevnetChainsConfig['blockTime']
  /** Seconds between the chains' periodic state dumps, or 'on_stop' (config `chains.stateDumpSeconds`). */
  stateDumpSeconds: DevnetChainsConfig['stateDumpSeconds']
  logger: Logger
  /** Told once when a chain is down for good (crashed more often than its supervisor restarts it). */
  onFatal: (error: Error) => void
}
