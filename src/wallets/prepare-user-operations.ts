import type { Address, Hash, PublicClient } from 'viem'
import { entryPoint07Abi, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import type { ChainConfig } from '../chain/chain-keys.ts'
import { PrebuyError } from '../common/errors.ts'
import type { OperationAccount, SmartAccountProvider, UnsignedUserOperation } from './accounts/operation-account.ts'
import { createAccountStateCache, type AccountState, type AccountStateCache } from './account-state-cache.ts'
import { readCodeSizes } from './bundler/code-sizes.ts'
import type { AccountDeployment, BundleItem } from './bundler/bundler.ts'
import type { GasPolicy, UserOperationDraft } from './gas-policy.ts'
import type { NonceStreams } from './nonce-streams.ts'
import type { UserOperationRequest } from './wallet-service.ts'

/** How long an unconfirmed deployment keeps other batches from deploying the same wallet. */
const DEPLOYMENT_WAIT_MS = 10 * 60_000

/**
 * Sizes of the signed chunks handed to the bundler as soon as each is ready (each becomes at least one handleOps; the
 * last size repeats): the first handleOps of a large batch goes out after 4 signatures (~3-6 ms of signing)
 * instead of after all of them (0.5-1.5 ms each). Later chunks stay at 64 because a block is filled transaction by
 * transaction: a big one that does not fit in what is left of the block waits for the next block with all its
 * operations (measured: a 256-operation handleOps of 90M gas missed a 150M block that still had 82M free).
 * A batch of at most SINGLE_CHUNK_MAX operations stays one chunk: splitting it would save little and cost transactions.
 */
export const DEFAULT_CHUNK_SIZES: readonly number[] = [4, 60, 64]
export const SINGLE_CHUNK_MAX = 64
/** Signatures between two yields to the event loop, so replies for chunks already sent are handled promptly. */
const SIGNATURES_PER_SLICE = 8

export interface PreparedOperations {
  /** One entry per request, in request order; undefined for a request that could not be prepared (see `unprepared`). */
  items: (BundleItem | undefined)[]
  /**
   * Requests that failed to prepare after earlier chunks were already handed to the bundler (those are in flight and
   * must not be abandoned, so prepare resolves instead of throwing): request index -> reason.
   */
  unprepared: Map<number, string>
  /**
   * Milliseconds from the start of prepare: chain reads done, first chunk handed on, last chunk signed; and how many
   * operations took their account's state from the warm cache instead of a read.
   */
  timings: { readsMs: number; firstChunkMs: number; signedMs: number; chunks: number; warmHits: number }
  /**
   * Returns the nonce streams and ends the deployments this batch started; call once the batch is settled. Streams of
   * operations in `stillPending` (sent but unconfirmed) stay held for good: reusing one would sign a second operation
   * with the same nonce, and whichever lands second would revert its whole bundle.
   */
  finish(stillPending?: ReadonlySet<Hash>): void
}

export interface PrepareOptions {
  /** Called with each signed chunk, in priority order, as soon as it is ready (before the next one is signed). */
  onChunk?: (chunk: BundleItem[]) => void
  /** Chunk sizes (the last repeats); default DEFAULT_CHUNK_SIZES. Without onChunk everything is one chunk. */
  chunkSizes?: readonly number[]
  /** Checked before each chunk after the first: true ends signing (the remaining requests are reported unprepared). */
  stop?: () => boolean
  /**
   * Signing of the chunks after the first waits for this to settle: while the caller's own work (the executor's
   * write before anything may be sent) runs, signing the rest would only take the thread from it and delay the first
   * send; the later chunks still go out long before the block closes.
   */
  holdAfterFirst?: Promise<unknown> | undefined
}

export interface OperationPreparer {
  prepare(requests: readonly UserOperationRequest[], options?: PrepareOptions): Promise<PreparedOperations>
  /**
   * Off the hot path: reads the deployment status and first-stream nonce of every account that has no exact state in
   * the cache yet (busy ones are skipped), so a later prepare of them needs no chain read. Returns the addresses, by
   * user index, of those known not to be deployed.
   */
  warm(userIndexes: readonly number[]): Promise<{ read: number; undeployed: Map<number, Address> }>
  /** Forgets every state read ahead (a reorg may have undone operations they counted). */
  forgetWarm(): void
  /**
   * Builds and signs one operation of the account without sending it, once per preparer: the first launch of a
   * process then does not pay the JIT warm-up of encoding, hashing and signing (~2-3 ms per operation at first).
   */
  rehearse(userIndex: number, calls: UserOperationRequest['calls']): Promise<void>
  /**
   * Deploys, through `deploy`, the accounts the warm cache knows are not deployed and no operation or other
   * deployment is busy with. They are claimed like an operation's initCode meanwhile: a batch that needs one of them
   * waits for the deployment instead of sending a second initCode (which would revert its whole bundle). Returns how
   * many deployments were sent.
   */
  deployAhead(userIndexes: readonly number[], deploy: DeployAccounts): Promise<number>
}

/** Sends the factory calls of accounts to deploy; resolves when mined, or with `pending` if it may still land. */
export type DeployAccounts = (deployments: AccountDeployment[]) => Promise<{ mined: boolean; pending: boolean }>

/** Most account deployments per transaction (each allowed its account type's deployment gas: 20-30M in all). */
const DEPLOY_SLICE = 50

export interface PreparerOptions {
  chain: ChainConfig
  client: PublicClient
  provider: SmartAccountProvider
  streams: NonceStreams
  /** Fills gas limits and fees: zero-fee for our own bundler, market prices for an external one. */
  gasPolicy: GasPolicy
  /** States read ahead by `warm` (default: a cache whose entries live 10 minutes). */
  accountStates?: AccountStateCache
}

/** Accounts per chain read of `warm` (one code-size call and one nonce multicall each). */
const WARM_SLICE = 2_000

const noop = () => undefined
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Turns call lists into signed v0.7 UserOperations: nonce (a 2D-nonce stream per operation in flight), initCode when
 * needed, callData, then gas and fees from the gas policy, then the owner's signature.
 *
 * Chain reads are batched: the deployment status of every account is one eth_call (a code-size reader placed by
 * state override) and every nonce is one Multicall3 of EntryPoint.getNonce; both travel
 * concurrently. Then operations are signed chunk by chunk and each chunk is handed on at once, so the first handleOps
 * goes out while later chunks are still being signed.
 *
 * Deployment: an account without code gets initCode on exactly one operation at a time. Within a batch that is its
 * first operation (validation runs in order, so the later ones find it deployed; they are kept in the same chunk,
 * whose simulation would otherwise not see the deployment); across concurrent batches the later batch waits for the
 * earlier one's deployment to settle, because two initCodes for one sender would make the second handleOps revert
 * (AA10) and take every other operation of its bundle down with it.
 */
export function createOperationPreparer(options: PreparerOptions): OperationPreparer {
  const { chain, client, provider, streams } = options
  const deploying = new Map<string, Promise<void>>()
  const states = options.accountStates ?? createAccountStateCache({ maxAgeMs: 10 * 60_000 })
  let rehearsed = false

  const readNonces = (accounts: readonly OperationAccount[], keys: readonly bigint[]): Promise<readonly bigint[]> =>
    accounts.length === 0
      ? Promise.resolve([])
      : client.multicall({
          contracts: accounts.map((account, index) => ({
            address: chain.addresses.entryPoint,
            abi: entryPoint07Abi,
            functionName: 'getNonce' as const,
            args: [account.address, keys[index] ?? 0n] as const,
          })),
          multicallAddress: chain.addresses.multicall3,
          allowFailure: false,
          batchSize: 0,
        })

  /**
   * Deployment status of many accounts in one eth_call. Only the states read ahead (`warm`) are kept, and only while
   * exact: a plain "deployed" memo would go stale when a reorg drops the deploying block, the operation would then
   * carry no initCode and the EntryPoint reject its whole bundle with empty revert data (the call to a codeless
   * sender). The warm cache is cleared on a reorg and voided by the account's own next operation.
   */
  async function deploymentStatus(addresses: readonly Address[]): Promise<boolean[]> {
    const sizes = await readCodeSizes(client, addresses)
    return sizes.map((size) => size > 0)
  }

  async function waitForCode(address: Address): Promise<void> {
    const deadline = Date.now() + DEPLOYMENT_WAIT_MS
    while (Date.now() < deadline) {
      const [has] = await deploymentStatus([address]).catch(() => [false])
      if (has) return
      // unref: a watcher must never keep a stopping daemon alive.
      await new Promise((resolve) => setTimeout(resolve, 1_000).unref())
    }
  }

  return {
    async warm(userIndexes) {
      const accounts = await Promise.all(
        [...new Set(userIndexes)].map(async (userIndex) => ({ userIndex, account: await provider.account(chain.key, userIndex) })),
      )
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
        const [sizes, nonces] = await Promise.all([
          readCodeSizes(
            client,
            slice.map(({ account }) => account.address),
          ),
          readNonces(
            slice.map(({ account }) => account),
            slice.map(({ account }) => account.nonceKey(0)),
          ),
        ])
        slice.forEach(({ userIndex, account }, index) => {
          const deployed = (sizes[index] ?? 0) > 0
          states.record(readSeq, account.address, { deployed, nonce: nonces[index] ?? 0n })
          if (!deployed) undeployed.set(userIndex, account.address)
        })
      }
      return { read: toRead.length, undeployed }
    },
    forgetWarm: () => states.clear(),
    async rehearse(userIndex, calls) {
      if (rehearsed) return
      rehearsed = true
      const account = await provider.account(chain.key, userIndex)
      // Nonce 0 and no deployment: nothing is sent, only the code paths of a real operation run.
      await signChunk([0], [{ userIndex, calls, id: 'rehearsal' }], [account], [0n], [false])
    },
    async deployAhead(userIndexes, deploy) {
      const accounts = await Promise.all([...new Set(userIndexes)].map((userIndex) => provider.account(chain.key, userIndex)))
      const claimed: { account: OperationAccount; end: () => void }[] = []
      for (const account of accounts) {
        const key = account.address.toLowerCase()
        if (states.get(account.address)?.deployed !== false || deploying.has(key) || streams.busy(account.address)) continue
        let end: () => void = () => undefined
        deploying.set(key, new Promise<void>((resolve) => (end = resolve)))
        states.touch(account.address)
        claimed.push({
          account,
          end: () => {
            deploying.delete(key)
            end()
          },
        })
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
            for (const { account, end } of slice) {
              if (pending) void waitForCode(account.address).finally(end)
              else end()
            }
          }
        }),
      )
      return claimed.length
    },
    async prepare(requests, prepareOptions = {}) {
      const started = performance.now()
      const timings = { readsMs: 0, firstChunkMs: 0, signedMs: 0, chunks: 0, warmHits: 0 }
      const accounts = await Promise.all(requests.map((request) => provider.account(chain.key, request.userIndex)))
      const held: { account: Address; stream: number }[] = []
      const ownDeployments: { key: string; end: () => void }[] = []
      const items: (BundleItem | undefined)[] = new Array(requests.length).fill(undefined)
      const unprepared = new Map<number, string>()
      let dispatched = false
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
          if (pendingSenders.has(key)) void waitForCode(key as Address).finally(end)
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
        for (const [index, state] of warmStates.entries())
          if (state) knownDeployed.set((accounts[index] as OperationAccount).address.toLowerCase(), state.deployed)
        timings.warmHits = warmStates.filter((state) => state !== undefined).length
        // Nonces do not depend on the deployment claims below (each stream is held by this batch alone): read them
        // concurrently with the code sizes, one round trip for both.
        const unread = accounts.map((_, index) => index).filter((index) => warmStates[index] === undefined)
        const nonceRead = readNonces(
          unread.map((index) => accounts[index] as OperationAccount),
          unread.map((index) => keys[index] ?? 0n),
        )
        nonceRead.catch(() => undefined)
        const senders = [...new Map(accounts.map((account) => [account.address.toLowerCase(), account])).values()]
        const deployers = new Set<string>()
        // All-or-nothing claims: a batch claims its undeployed senders only when none is being deployed by another
        // batch, and otherwise waits holding nothing. Claiming some and waiting for others could deadlock two batches
        // that each wait for a wallet the other claimed.
        for (;;) {
          const unknown = senders.filter((account) => !knownDeployed.has(account.address.toLowerCase()))
          const read = await deploymentStatus(unknown.map((account) => account.address))
          const readOf = new Map(unknown.map((account, index) => [account.address.toLowerCase(), read[index] === true]))
          const codes = senders.map((account) => knownDeployed.get(account.address.toLowerCase()) ?? readOf.get(account.address.toLowerCase()) === true)
          // A wait below means another batch was deploying: read everything again afterwards.
          knownDeployed.clear()
          const undeployed = senders.filter((_, index) => !codes[index]).map((account) => account.address.toLowerCase())
          const busy = undeployed.map((key) => deploying.get(key)).filter((other) => other !== undefined)
          if (busy.length > 0) {
            await Promise.all(busy)
            continue
          }
          // Nothing between the last await and here: the check-and-claim is atomic on the event loop.
          for (const key of undeployed) {
            let end: () => void = () => undefined
            deploying.set(key, new Promise<void>((resolve) => (end = resolve)))
            ownDeployments.push({
              key,
              end: () => {
                deploying.delete(key)
                end()
              },
            })
            deployers.add(key)
          }
          break
        }
        const readNoncesOf = await nonceRead
        const nonces = warmStates.map((state) => state?.nonce ?? 0n)
        for (const [position, requestIndex] of unread.entries()) nonces[requestIndex] = readNoncesOf[position] ?? 0n
        timings.readsMs = performance.now() - started

        // Chunks in request order; a wallet deployed by this batch keeps all its operations in the chunk of its first.
        const sizes =
          prepareOptions.onChunk && requests.length > SINGLE_CHUNK_MAX ? (prepareOptions.chunkSizes ?? DEFAULT_CHUNK_SIZES) : [Number.MAX_SAFE_INTEGER]
        const chunks: number[][] = []
        const deployChunk = new Map<string, number>()
        const deploys: boolean[] = []
        for (const [index, account] of accounts.entries()) {
          const key = account.address.toLowerCase()
          const first = deployers.delete(key)
          deploys.push(first)
          const joined = deployChunk.get(key)
          if (joined !== undefined) {
            chunks[joined]?.push(index)
            continue
          }
          const last = chunks[chunks.length - 1]
          const limit = sizes[Math.min(chunks.length - 1, sizes.length - 1)] ?? 1
          if (!last || last.length >= limit) chunks.push([index])
          else last.push(index)
          if (first) deployChunk.set(key, chunks.length - 1)
        }

        for (const chunk of chunks) {
          if (dispatched && prepareOptions.holdAfterFirst) {
            await prepareOptions.holdAfterFirst.then(noop, noop)
            // The held chunk's send continues on the same settlement: let it reach the wire before signing resumes.
            await yieldToEventLoop()
          }
          if (dispatched && prepareOptions.stop?.()) {
            for (const requestIndex of chunk) unprepared.set(requestIndex, 'not prepared (submission abandoned); the operation did not run')
            continue
          }
          try {
            const signed = await signChunk(chunk, requests, accounts, nonces, deploys)
            for (const [position, requestIndex] of chunk.entries()) items[requestIndex] = signed[position]
          } catch (error) {
            // Before anything was handed on, the whole batch fails as one; after, the chunks in flight must finish.
            if (!dispatched) throw error
            const reason = `not prepared (${error instanceof PrebuyError ? error.code : 'chain_unavailable'}); the operation did not run`
            for (const requestIndex of chunk) unprepared.set(requestIndex, reason)
            continue
          }
          if (prepareOptions.onChunk) {
            prepareOptions.onChunk(chunk.map((requestIndex) => items[requestIndex] as BundleItem))
            if (!dispatched) timings.firstChunkMs = performance.now() - started
            dispatched = true
            // Let the bundler issue this chunk's simulation before the next chunk's signatures occupy the thread.
            await yieldToEventLoop()
          }
        }
        timings.signedMs = performance.now() - started
        timings.chunks = chunks.length
        return { items, unprepared, timings, finish }
      } catch (error) {
        finish()
        if (error instanceof PrebuyError) throw error
        throw new PrebuyError('unavailable', 'chain_unavailable', `User operations on ${chain.key} could not be prepared.`, { cause: error })
      }
    },
  }

  async function signChunk(
    chunk: readonly number[],
    requests: readonly UserOperationRequest[],
    accounts: readonly OperationAccount[],
    nonces: readonly bigint[],
    deploys: readonly boolean[],
  ): Promise<BundleItem[]> {
    const drafts = await Promise.all(
      chunk.map(async (index): Promise<UserOperationDraft> => {
        const account = accounts[index] as OperationAccount
        const request = requests[index] as UserOperationRequest
        const deploying = deploys[index] === true
        const [factoryArgs, callData] = await Promise.all([deploying ? account.factoryArgs() : undefined, account.encodeCalls(request.calls)])
        return { account, deploys: deploying, fields: { sender: account.address, nonce: nonces[index] as bigint, ...(factoryArgs ?? {}), callData } }
      }),
    )
    const priced = await options.gasPolicy.price(drafts)
    // Signing is CPU-bound: a slice's signatures start together (none waits on another's await), and between slices
    // the event loop handles I/O (a simulation reply, a send) of chunks already handed on.
    const signed: BundleItem[] = []
    for (let start = 0; start < chunk.length; start += SIGNATURES_PER_SLICE) {
      if (start > 0) await yieldToEventLoop()
      const slice = chunk.slice(start, start + SIGNATURES_PER_SLICE)
      signed.push(
        ...(await Promise.all(
          slice.map(async (index, offset): Promise<BundleItem> => {
            const draft = drafts[start + offset] as UserOperationDraft
            const unsigned = priced[start + offset] as UnsignedUserOperation
            const userOperation = { ...unsigned, signature: '0x' } as UserOperation<'0.7'>
            const userOpHash: Hash = getUserOperationHash({
              userOperation,
              entryPointAddress: chain.addresses.entryPoint,
              entryPointVersion: '0.7',
              chainId: chain.chainId,
            })
            const signature = draft.account.signHash ? await draft.account.signHash(userOpHash) : await draft.account.sign(unsigned)
            return { id: (requests[index] as UserOperationRequest).id, userOperation: { ...unsigned, signature }, userOpHash }
          }),
        )),
      )
    }
    return signed
  }
}
