import type { Address, PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../chain/chain-keys.ts'
import type { Logger } from '../../common/logger.ts'
import type { BackgroundWorker, WorkerContext } from '../../../daemon/workers/background-worker.ts'
import type { DevnetSetup } from '../../../daemon/embedded-devnet.ts'

/** What every launch method's wiring entry (`<method>/wire-<method>.ts`) is given by the composition root. */
export interface LaunchMethodSetup {
  chains: Record<ChainKey, ChainConfig>
  /** One read client per enabled chain. */
  clients: Record<ChainKey, PublicClient>
  /** The bundler EOA: the only account our launch-method contracts let settle or launch (part of their CREATE2 address). */
  operator: Address
  feeRecipient: Address
  /** On the embedded devnet: its Clanker modules and the account that deploys our contracts; absent on real chains. */
  devnet?: Pick<DevnetSetup, 'devBuy' | 'contractsDeployer'>
  logger: Logger
}

/**
 * One launch method as the daemon runs it, in three steps the composition root (daemon/start-daemon.ts) calls in this
 * order: the wiring entry itself (before the services: it hands them the method's chain side), `resolve` (when the
 * workers start: finds its contracts on a real chain, deploys them on the devnet; a method that needs another's
 * contract awaits that method's `resolve` itself, so the order of calls carries no hidden dependency), `workers`.
 */
export interface WiredLaunchMethod {
  name: string
  resolve(): Promise<void>
  workers(context: WorkerContext): BackgroundWorker[]
}
