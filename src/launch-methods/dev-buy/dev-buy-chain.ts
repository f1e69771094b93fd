import type { Address, PublicClient } from 'viem'
import type { ChainKey } from '../../chain/chain-keys.ts'
import type { DevBuyParams } from '../../domain/records.ts'
import type { DevBuyDeployment } from './dev-buy-deployment.ts'

/**
 * What the dev-buy method needs from each chain: the port the daemon fills with its clients, its coordinator contracts
 * and each chain's Clanker deployment setup. A chain without a coordinator or a Clanker setup has no dev buy (refused).
 */
export interface DevBuyChain {
  /** The coordinator contract on a chain; null when this deployment has none there. */
  coordinator(chain: ChainKey): Address | null
  /** The deployment a launch with these parameters makes on a chain; null: no Clanker dev-buy setup there. */
  deployment(chain: ChainKey, params: DevBuyParams, coordinator: Address): DevBuyDeployment | null
  client(chain: ChainKey): PublicClient
}

export function createDevBuyChain(deps: {
  clients: Record<ChainKey, PublicClient>
  coordinators: Partial<Record<ChainKey, Address>>
  deployments: Partial<Record<ChainKey, (params: DevBuyParams, coordinator: Address) => DevBuyDeployment>>
}): DevBuyChain {
  return {
    coordinator: (chain) => deps.coordinators[chain] ?? null,
    deployment: (chain, params, coordinator) => deps.deployments[chain]?.(params, coordinator) ?? null,
    client: (chain) => deps.clients[chain],
  }
}
