import type { OperationAccount } from '../accounts/operation-account.ts'
import type { DeploymentClaim } from './deployment-claims.ts'
import type { DeployAccounts } from './operation-preparer.ts'
import type { PreparerContext } from './preparer-context.ts'

/** Most account deployments per transaction (each allowed its account type's deployment gas: 20-30M in all). */
const DEPLOY_SLICE = 50

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
  const slices: (typeof claimed)[] = []
  for (let start = 0; start < claimed.length; start += DEPLOY_SLICE) slices.push(claimed.slice(start, start + DEPLOY_SLICE))
  await Promise.all(
    slices.map(async (slice) => {
      // A throw means nothing was sent; a transaction the node dropped will not land either.
      let pending = false
      try {
        const deployments = await Promise.all(slice.map(async ({ account }) => ({ ...(await account.factoryArgs()), gas: account.deploymentGas })))
        pending = (await deploy(deployments)).pending
      } finally {
        // A pending deployment keeps its claim until the code appears (or the wait gives up): a batch's initCode
        // for a wallet whose deployment lands first would revert that batch's whole bundle.
        for (const { account, claim } of slice) {
          if (pending) void reads.waitForCode(account.address).finally(claim.end)
          else claim.end()
        }
      }
    }),
  )
  return claimed.length
}
