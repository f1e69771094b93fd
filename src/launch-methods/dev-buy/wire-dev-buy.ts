import type { WiredVesting } from '../vesting/wire-vesting.ts'
import type { LaunchMethodSetup, WiredLaunchMethod } from '../worker/wired-launch-method.ts'
import { createDevBuyChain, type DevBuyChain } from './chain/dev-buy-chain.ts'
import { createDevBuyWorker } from './worker/dev-buy-worker.ts'
import { resolveDevBuySetups } from './worker/resolve-dev-buy-setups.ts'

/**
 * Dev buy: its chain side for the services, its coordinator contract (built around the vesting contract, which it
 * awaits), its worker. On the devnet the Clanker modules it launches through are handed over as values
 * (`setup.devnet.devBuy`, from the devnet's prepare step before the store opens): no file written by another worker.
 */
export function wireDevBuy(setup: LaunchMethodSetup, vesting: WiredVesting): WiredLaunchMethod & { devBuyChain: DevBuyChain } {
  // Installed by resolve: until then every chain answers "no coordinator" (launches refused with dev_buy_unavailable).
  const devBuyChain = createDevBuyChain(setup.clients, setup.chains)
  return {
    name: 'dev_buy',
    devBuyChain,
    resolve: async () => {
      devBuyChain.install(
        await resolveDevBuySetups({
          chains: setup.chains,
          clients: setup.clients,
          operator: setup.operator,
          feeRecipient: setup.feeRecipient,
          vesting: await vesting.resolved(),
          ...(setup.devnet ? { devnet: setup.devnet } : {}),
          logger: setup.logger,
        }),
      )
    },
    workers: ({ store, services, wallets, chains, logger }) => [createDevBuyWorker({ store, services, wallets, chains, devBuyChain, logger })],
  }
}
