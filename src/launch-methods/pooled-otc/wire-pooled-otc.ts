import type { WiredVesting } from '../vesting/wire-vesting.ts'
import type { LaunchMethodSetup, WiredLaunchMethod } from '../worker/wired-launch-method.ts'
import { createOtcChain, type OtcChain } from './chain/otc-chain.ts'
import { createOtcSettlementWorker } from './worker/otc-settlement-worker.ts'
import { type LaunchMethodContracts, resolveOtcSettlements } from './worker/resolve-otc-settlements.ts'

/** Pooled OTC: its chain side for the services, its settlement contract (beside the vesting contract), its worker. */
export function wirePooledOtc(setup: LaunchMethodSetup, vesting: WiredVesting): WiredLaunchMethod & { otcChain: OtcChain } {
  // Filled by resolve: until then every chain answers "no settlement" (offers refused with otc_unavailable).
  const contracts: LaunchMethodContracts = { settlements: {}, vesting: {} }
  const otcChain = createOtcChain({ clients: setup.clients, settlements: contracts.settlements, vesting: contracts.vesting })
  return {
    name: 'pooled_otc',
    otcChain,
    resolve: async () => {
      const found = await resolveOtcSettlements({
        chains: setup.chains,
        clients: setup.clients,
        operator: setup.operator,
        feeRecipient: setup.feeRecipient,
        vesting: await vesting.resolved(),
        ...(setup.devnet ? { deployer: setup.devnet.contractsDeployer } : {}),
        logger: setup.logger,
      })
      Object.assign(contracts.settlements, found.settlements)
      Object.assign(contracts.vesting, found.vesting)
    },
    workers: ({ store, services, wallets, chains, logger }) => [createOtcSettlementWorker({ store, services, wallets, chains, otcChain, logger })],
  }
}
