import type { Abi, Address } from 'viem'
import type { ClankerDeploymentConfig } from '../../../launchpads/clanker/clanker-deployment-config.ts'
import type { ClankerPositionConfig } from '../../../launchpads/clanker/clanker-launch-pool.ts'

/** Everything a dev-buy launch needs about the deployment it makes, and how to price its buy before making it. */
export interface DevBuyDeployment {
  factory: Address
  factoryAbi: Abi
  /** The real DeploymentConfig, with the ETH dev-buy extension at `devBuyIndex` buying for the coordinator (its msgValue is set on chain). */
  config: ClankerDeploymentConfig
  devBuyIndex: number
  /** The pool the locker places, in the "token is currency0" convention (`clankerLaunchPool`). */
  pool: { tickIfToken0IsClanker: number; tickSpacing: number; positions: readonly ClankerPositionConfig[] }
  /** The LP fee a deployment-time buy pays (the hook's fee on buys; MEV modules start after extensions). */
  lpFeePips: number
  /** The token's total supply, all of it in the pool (a dev buy takes no extension supply). */
  totalSupply: bigint
}
