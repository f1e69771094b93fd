import type { Address, PublicClient } from 'viem'
import type { ChainConfig } from '../src/chain/chain-keys.ts'
import { buyRouterAddress } from './executor/ensure-buy-router.ts'

/**
 * Our own contracts a real chain may not have yet (the operator deploys them): reported at start-up, never a reason to
 * refuse it. The OTC settlement, vesting and dev-buy coordinator are reported by their own resolvers
 * (daemon/launch-methods/), which also switch those launch methods off where they are missing.
 */
export async function missingOwnContracts(chain: ChainConfig, client: Pick<PublicClient, 'getCode'>): Promise<Array<{ name: string; address: Address }>> {
  const own = [{ name: 'PrebuyBuyRouter', address: buyRouterAddress(chain.addresses.poolManager) }]
  const present = await Promise.all(own.map(async ({ address }) => ((await client.getCode({ address })) ?? '0x') !== '0x'))
  return own.filter((_, index) => !present[index])
}
