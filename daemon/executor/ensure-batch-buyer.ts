import type { Account, Address, Chain, PublicClient, Transport, WalletClient } from 'viem'
import { ensureCreate2Contract } from '../chain/ensure-create2-contract.ts'
import { batchBuyerCreate2, serviceBatchBuyerArgs } from './batch-buyer-address.ts'

/**
 * Deploys the service's PrebuyBatchBuyer (serviceBatchBuyerArgs: the bundler EOA as admin and first operator) through
 * the CREATE2 deployer unless it is already there (idempotent: a restart finds it). The same address as `prebuy
 * contracts deploy` and the approvals ahead use (batch-buyer-address.ts); whoever sends the deployment does not matter.
 */
export const ensureBatchBuyer = (options: {
  publicClient: PublicClient
  walletClient: WalletClient<Transport, Chain, Account>
  router: Address
  bundler: Address
}): Promise<Address> =>
  ensureCreate2Contract({
    publicClient: options.publicClient,
    walletClient: options.walletClient,
    ...batchBuyerCreate2(serviceBatchBuyerArgs(options.router, options.bundler)),
    name: 'PrebuyBatchBuyer',
  })
