import type { Address } from 'viem'
import type { PreparerContext } from './preparer-context.ts'

/** Accounts per chain read of `warm` (one code-size call and one nonce multicall each). */
const WARM_SLICE = 2_000

/** See OperationPreparer.warm: reads ahead the state of every account not known exactly and not busy. */
export async function warmAccounts(
  ctx: Pick<PreparerContext, 'chain' | 'provider' | 'streams' | 'states' | 'reads'>,
  userIndexes: readonly number[],
): Promise<{ read: number; undeployed: Map<number, Address> }> {
  const { chain, provider, streams, states, reads } = ctx
  const accounts = await Promise.all([...new Set(userIndexes)].map(async (userIndex) => ({ userIndex, account: await provider.account(chain.key, userIndex) })))
  const undeployed = new Map<number, Address>()
  const toRead: typeof accounts = []
  for (const entry of accounts) {
    const known = states.get(entry.account.address)
    if (known) {
      if (!known.deployed) undeployed.set(entry.userIndex, entry.account.address)
    } else if (!streams.busy(entry.account.address)) toRead.push(entry)
  }
  for (let start = 0; start < toRead.length; start += WARM_SLICE) {
    const slice = toRead.slice(start, start + WARM_SLICE)
    const readSeq = states.beginRead()
    const [deployed, nonces] = await Promise.all([
      reads.deploymentStatus(slice.map(({ account }) => account.address)),
      reads.readNonces(
        slice.map(({ account }) => account),
        slice.map(({ account }) => account.nonceKey(0)),
      ),
    ])
    slice.forEach(({ userIndex, account }, index) => {
      const isDeployed = deployed[index] === true
      states.record(readSeq, account.address, { deployed: isDeployed, nonce: nonces[index] ?? 0n })
      if (!isDeployed) undeployed.set(userIndex, account.address)
    })
  }
  return { read: toRead.length, undeployed }
}
