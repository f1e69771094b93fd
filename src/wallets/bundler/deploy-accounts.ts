import { encodeFunctionData, multicall3Abi, type Address } from 'viem'
import type { AccountDeployment, DeploymentOutcome, SentDeployment } from './bundler.ts'
import type { BundlerContext } from './bundler-context.ts'
import type { ChainNowReader } from './chain-now.ts'
import { followLanding, type ReceiptPoller } from './poll-receipt.ts'
import type { TransactionSender } from './send-transaction.ts'

/** Gas of a deployment transaction outside the factory calls: the transaction, calldata and Multicall3's loop. */
export const DEPLOYMENT_TX_BASE_GAS = 100_000n

export interface AccountDeployer {
  /** See Bundler.deployAccounts: one Multicall3 transaction of the bundler EOA, each factory call allowed to fail. */
  deploy(deployments: readonly AccountDeployment[]): Promise<SentDeployment>
}

export function createAccountDeployer(
  ctx: Pick<BundlerContext, 'chain' | 'client' | 'log' | 'senders'>,
  parts: { sender: Pick<TransactionSender, 'send'>; chainNow: Pick<ChainNowReader, 'recent'>; receipts: ReceiptPoller },
): AccountDeployer {
  const { chain, client, log, senders } = ctx
  const { sender, chainNow, receipts } = parts
  async function landing(hash: SentDeployment['hash'], from: Address): Promise<DeploymentOutcome> {
    // Not known to be mined nor dropped counts as pending: whoever waits on it waits for the code instead.
    const resync = () => senders.of(from).nonces.resync()
    const { receipt, pending } = await followLanding({ client, receipts, resync, log }, hash, 'account deployment')
    if (receipt?.status === 'reverted') log.warn({ txHash: hash }, 'account deployment transaction reverted')
    return { mined: receipt !== undefined, pending }
  }

  return {
    async deploy(deployments) {
      const data = encodeFunctionData({
        abi: multicall3Abi,
        functionName: 'aggregate3',
        args: [deployments.map(({ factory, factoryData }) => ({ target: factory, allowFailure: true, callData: factoryData }))],
      })
      // A fixed limit from the account type, not eth_estimateGas: with failures allowed the transaction never reverts,
      // so an estimate would find the gas at which every deployment runs out of gas and is skipped.
      // The caller slices deployments to fit the per-transaction cap (deploy-ahead.ts); the sender refuses one over it.
      const gas = deployments.reduce((sum, deployment) => sum + deployment.gas, DEPLOYMENT_TX_BASE_GAS)
      const sent = await sender.send(chain.addresses.multicall3, data, gas, await chainNow.recent(), { deployments: deployments.length })
      return { hash: sent.hash, landed: landing(sent.hash, sent.from) }
    },
  }
}
