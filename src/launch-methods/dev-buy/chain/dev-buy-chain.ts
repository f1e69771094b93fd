import type { Address, Hex, PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../../chain/chain-keys.ts'
import type { DevBuyParams, DevBuyPoolShape } from '../../../domain/records.ts'
import { type ClankerDevBuySetup, clankerDevBuyDeployment, poolShapeProblem } from './clanker-dev-buy-deployment.ts'
import type { DevBuyDeployment } from './dev-buy-deployment.ts'

/**
 * What the dev-buy method needs from each chain: the port the daemon fills with its clients, its coordinator contracts
 * and each chain's Clanker setup. A chain without both has no dev buy (refused with dev_buy_unavailable).
 */
export interface DevBuyChain {
  /** The coordinator contract on a chain; null when this deployment has no dev buy there. */
  coordinator(chain: ChainKey): Address | null
  /** The deployment a launch with these parameters and this secret salt (newLaunchSalt) makes on a chain; null: no dev buy there. */
  deployment(chain: ChainKey, params: DevBuyParams, coordinator: Address, salt: Hex): DevBuyDeployment | null
  client(chain: ChainKey): PublicClient
  chainConfig(chain: ChainKey): ChainConfig
  /** The vesting contract the chain's coordinator locks shares in; null: no dev buy there. */
  vesting(chain: ChainKey): Address | null
  /** Why an owner's pool shape cannot launch on the chain (null: it can). */
  poolShapeProblem(chain: ChainKey, shape: DevBuyPoolShape): string | null
}

export interface DevBuyChainSetup {
  coordinators: Partial<Record<ChainKey, Address>>
  /** The vesting contract each coordinator was built with. */
  vesting: Partial<Record<ChainKey, Address>>
  setups: Partial<Record<ChainKey, ClankerDevBuySetup>>
}

/**
 * The daemon's DevBuyChain. Its setup is installed once the chains' launchpads are known (on devnet they are deployed by
 * the launch workers, after the services exist); until then, and on chains it leaves out, there is no dev buy.
 */
export function createDevBuyChain(
  clients: Record<ChainKey, PublicClient>,
  chains: Record<ChainKey, ChainConfig>,
): DevBuyChain & { install(setup: DevBuyChainSetup): void } {
  let installed: DevBuyChainSetup = { coordinators: {}, vesting: {}, setups: {} }
  const available = (chain: ChainKey) => installed.coordinators[chain] !== undefined && installed.setups[chain] !== undefined
  return {
    install(setup) {
      installed = setup
    },
    coordinator: (chain) => (available(chain) ? installed.coordinators[chain]! : null),
    deployment: (chain, params, coordinator, salt) => (available(chain) ? clankerDevBuyDeployment(installed.setups[chain]!, params, coordinator, salt) : null),
    client: (chain) => clients[chain],
    chainConfig: (chain) => chains[chain],
    vesting: (chain) => (available(chain) ? (installed.vesting[chain] ?? null) : null),
    poolShapeProblem: (chain, shape) => (available(chain) ? poolShapeProblem(installed.setups[chain]!, shape) : `no dev buy on ${chain}`),
  }
}
