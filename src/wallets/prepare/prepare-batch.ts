import type { Address, Hash } from 'viem'
import { PrebuyError } from '../../common/errors.ts'
import type { OperationAccount } from '../accounts/operation-account.ts'
import type { AccountState } from '../account-state-cache.ts'
import type { BundleItem } from '../bundler/bundler.ts'
import type { UserOperationRequest } from '../wallet-service.ts'
import { claimUndeployedSenders, type DeploymentClaim } from './deployment-claims.ts'
import type { PreparedOperations, PrepareOptions } from './operation-preparer.ts'
import { chunkSizesFor, planChunks } from './plan-chunks.ts'
import type { PreparerContext } from './preparer-context.ts'
import { signAndHandOn } from './sign-chunks.ts'

/** See OperationPreparer.prepare: one batch's reads, deployment claims, and chunked signing. */
export async function prepareBatch(
  ctx: PreparerContext,
  requests: readonly UserOperationRequest[],
  prepareOptions: PrepareOptions = {},
): Promise<PreparedOperations> {
  const { chain, provider, streams, states, reads, claims, signer } = ctx
  const started = performance.now()
  const timings = { readsMs: 0, firstChunkMs: 0, signedMs: 0, chunks: 0, warmHits: 0 }
  const accounts = await Promise.all(requests.map((request) => provider.account(chain.key, request.userIndex)))
  const held: { account: Address; stream: number }[] = []
  const ownDeployments: DeploymentClaim[] = []
  const items: (BundleItem | undefined)[] = new Array(requests.length).fill(undefined)
  const unprepared = new Map<number, string>()
  const finish = (stillPending?: ReadonlySet<Hash>) => {
    const pendingSenders = new Set<string>()
    held.forEach(({ account, stream }, index) => {
      const hash = items[index]?.userOpHash
      if (hash && stillPending?.has(hash)) pendingSenders.add(account.toLowerCase())
      else streams.release(account, stream)
    })
    for (const { key, end } of ownDeployments) {
      // A deployment still unconfirmed keeps its claim until the code appears (or a long timeout): a second
      // initCode for the same wallet would revert the bundle it lands in (AA10).
      if (pendingSenders.has(key)) void reads.waitForCode(key as Address).finally(end)
      else end()
    }
  }
  try {
    const keys = accounts.map((account) => {
      const stream = streams.acquire(account.address, account.maxStreams)
      held.push({ account: account.address, stream })
      return account.nonceKey(stream)
    })
    // States read ahead serve an account's first-stream operation; then every account is touched, because this
    // batch is about to change what was read.
    const warmStates: (AccountState | undefined)[] = accounts.map((account, index) => (held[index]?.stream === 0 ? states.get(account.address) : undefined))
    for (const account of accounts) states.touch(account.address)
    const knownDeployed = new Map<string, boolean>()
    for (const [index, state] of warmStates.entries()) if (state) knownDeployed.set((accounts[index] as OperationAccount).address.toLowerCase(), state.deployed)
    timings.warmHits = warmStates.filter((state) => state !== undefined).length
    // Nonces do not depend on the deployment claims below (each stream is held by this batch alone): read them
    // concurrently with the code sizes, one round trip for both.
    const unread = accounts.map((_, index) => index).filter((index) => warmStates[index] === undefined)
    const nonceRead = reads.readNonces(
      unread.map((index) => accounts[index] as OperationAccount),
      unread.map((index) => keys[index] ?? 0n),
    )
    nonceRead.catch(() => undefined)
    const senders = [...new Map(accounts.map((account) => [account.address.toLowerCase(), account])).values()]
    ownDeployments.push(...(await claimUndeployedSenders(claims, reads, senders, knownDeployed)))
    const readNoncesOf = await nonceRead
    const nonces = warmStates.map((state) => state?.nonce ?? 0n)
    for (const [position, requestIndex] of unread.entries()) nonces[requestIndex] = readNoncesOf[position] ?? 0n
    timings.readsMs = performance.now() - started

    // Chunks in request order; a wallet deployed by this batch keeps all its operations in the chunk of its first.
    const sizes = chunkSizesFor(requests.length, prepareOptions.onChunk !== undefined, prepareOptions.chunkSizes)
    const { chunks, deploys } = planChunks(
      accounts.map((account) => account.address.toLowerCase()),
      new Set(ownDeployments.map(({ key }) => key)),
      sizes,
    )
    const { firstChunkAt } = await signAndHandOn(signer, { requests, accounts, nonces, deploys }, chunks, prepareOptions, { items, unprepared })
    if (firstChunkAt !== undefined) timings.firstChunkMs = firstChunkAt - started
    timings.signedMs = performance.now() - started
    timings.chunks = chunks.length
    return { items, unprepared, timings, finish }
  } catch (error) {
    finish()
    if (error instanceof PrebuyError) throw error
    throw new PrebuyError('chain_unavailable', `User operations on ${chain.key} could not be prepared.`, { cause: error })
  }
}
