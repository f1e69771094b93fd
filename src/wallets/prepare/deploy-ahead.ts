import type { OperationAccount } from '../accounts/operation-account.ts'
import { txGasCapOf } from '../../chain/tx-gas-cap.ts'
import type { SentDeployment } from '../bundler/bundler.ts'
import { DEPLOYMENT_TX_BASE_GAS } from '../bundler/deploy-accounts.ts'
import { packBundles } from '../bundler/pack-bundles.ts'
import type { DeploymentClaim } from './deployment-claims.ts'
import type { DeployAccounts } from './operation-preparer.ts'
import type { PreparerContext } from './preparer-context.ts'

/** See OperationPreparer.deployAhead: deploys the idle accounts the warm cache knows are undeployed; returns how many. */
export async function deployAhead(
  ctx: Pick<PreparerContext, 'chain' | 'provider' | 'streams' | 'states' | 'reads' | 'claims'>,
  userIndexes: readonly number[],
  deploy: DeployAccounts,
): Promise<number> {
  const { chain, provider, streams, states, reads, claims } = ctx
  const accounts = await Promise.all([...new Set(userIndexes)].map((userIndex) => provider.account(chain.key, userIndex)))
  const claimed: { account: OperationAccount; claim: DeploymentClaim }[] = []
  for (const account of accounts) {
    const key = account.address.toLowerCase()
    if (states.get(account.address)?.deployed !== false || claims.has(key) || streams.busy(account.address)) continue
    const claim = claims.claim(key)
    states.touch(account.address)
    claimed.push({ account, claim })
  }
  // As many deployments per transaction as their gas allowances fit in the per-transaction cap (EIP-7825: 2^24 on
  // Base): 41 SimpleAccounts (400k each) or 27 Kernels (600k); fixed slices of 50 asked for 20-30M gas.
  const slices = packBundles(claimed, ({ account }) => account.deploymentGas, txGasCapOf(chain), DEPLOYMENT_TX_BASE_GAS)
  await Promise.all(
    slices.map(async (slice) => {
      // Returns once sent (a throw: nothing was sent, the claims end). The claims are held until the transaction
      // lands, and a pending one's until the code appears (or the wait gives up): a batch's initCode for a wallet
      // whose deployment lands first would revert that batch's whole bundle. A dropped one will not land.
      let sent: SentDeployment
      try {
        const deployments = await Promise.all(slice.map(async ({ account }) => ({ ...(await account.factoryArgs()), gas: account.deploymentGas })))
        sent = await deploy(deployments)
      } catch (error) {
        for (const { claim } of slice) claim.end()
        throw error
      }
      void sent.landed.then(({ pending }) => {
        for (const { account, claim } of slice) {
          // A warm read made while the deployment was pending (not deployed yet) must not give the next batch
          // initCode for a wallet that now has code (AA10, the whole bundle refused); one that saw the code stays.
          const end = () => {
            states.deploymentEnded(account.address)
            claim.end()
          }
          if (pending) void reads.waitForCode(account.address).finally(end)
          else end()
        }
      })
    }),
  )
  return claimed.length
}
