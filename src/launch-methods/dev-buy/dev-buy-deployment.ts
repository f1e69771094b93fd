import type { Abi, Address, Hex } from 'viem'
import type { ClankerPositionConfig } from '../../launchpads/clanker/clanker-launch-pool.ts'

/**
 * The Clanker factory's `DeploymentConfig`, as viem encodes it: the real struct layout (clanker-devco/v4-contracts
 * `src/interfaces/IClanker.sol`; ours: src/chain/contracts/launch-methods/IClankerDeployToken.sol).
 */
export interface ClankerDeploymentConfig {
  tokenConfig: {
    tokenAdmin: Address
    name: string
    symbol: string
    salt: Hex
    image: string
    metadata: string
    context: string
    originatingChainId: bigint
  }
  poolConfig: { hook: Address; pairedToken: Address; tickIfToken0IsClanker: number; tickSpacing: number; poolData: Hex }
  lockerConfig: {
    locker: Address
    rewardAdmins: readonly Address[]
    rewardRecipients: readonly Address[]
    rewardBps: readonly number[]
    tickLower: readonly number[]
    tickUpper: readonly number[]
    positionBps: readonly number[]
    lockerData: Hex
  }
  mevModuleConfig: { mevModule: Address; mevModuleData: Hex }
  extensionConfigs: readonly { extension: Address; msgValue: bigint; extensionBps: number; extensionData: Hex }[]
}

/** Everything a dev-buy launch needs about the deployment it makes, and how to price its buy before making it. */
export interface DevBuyDeployment {
  factory: Address
  factoryAbi: Abi
  /** With the ETH dev-buy extension at `devBuyIndex`, its recipient the coordinator (its msgValue is set on chain). */
  config: ClankerDeploymentConfig
  devBuyIndex: number
  /** The pool the locker places, in the "token is currency0" convention (`clankerLaunchPool`). */
  pool: { tickIfToken0IsClanker: number; tickSpacing: number; positions: readonly ClankerPositionConfig[] }
  /** The LP fee a deployment-time buy pays (the hook's fee for the pool; MEV modules start after extensions). */
  lpFeePips: number
  /** The token's total supply, all of it in the pool (a dev buy takes no extension supply). */
  totalSupply: bigint
}
