import { type Address, type Hash, type PublicClient } from 'viem'
import { entryPoint07Abi, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import type { ChainConfig } from '../chain/chain-keys.ts'
import { PrebuyError } from '../common/errors.ts'
import type { OperationAccount, SmartAccountProvider, UnsignedUserOperation } from './accounts/operation-account.ts'
import type { BundleItem } from './bundler/create-bundler.ts'
import type { GasPolicy, UserOperationDraft } from './gas-policy.ts'
import type { NonceStreams } from './nonce-streams.ts'
import type { UserOperationRequest } from './wallet-service.ts'

/** How long an unconfirmed deployment keeps other batches from deploying the same wallet. */
const DEPLOYMENT_WAIT_MS = 10 * 60_000

export interface PreparedOperations {
  items: BundleItem[]
  /**
   * Returns the nonce streams and ends the deployments this batch started; call once the batch is settled. Streams of
   * operations in `stillPending` (sent but unconfirmed) stay held for good: reusing one would sign a second operation
   * with the same nonce, and whichever lands second would revert its whole bundle.
   */
  finish(stillPending?: ReadonlySet<Hash>): void
}

export interface OperationPreparer {
  prepare(requests: readonly UserOperationRequest[]): Promise<PreparedOperations>
}

export interface PreparerOptions {
  chain: ChainConfig
  client: PublicClient
  provider: SmartAccountProvider
  streams: NonceStreams
  /** Fills gas limits and fees: zero-fee for our own bundler, market prices for an external one. */
  gasPolicy: GasPolicy
}

/**
 * Turns call lists into signed v0.7 UserOperations: nonce (a 2D-nonce stream per operation in flight), initCode when
 * needed, callData, then gas and fees from the gas policy, then the owner's signature.
 *
 * Deployment: an account without code gets initCode on exactly one operation at a time. Within a batch that is its
 * first operation (validation runs in order, so the later ones find it deployed); across concurrent batches the later
 * batch waits for the earlier one's deployment to settle, because two initCodes for one sender would make the second
 * handleOps revert (AA10) and take every other operation of its bundle down with it.
 */
export function createOperationPreparer(options: PreparerOptions): OperationPreparer {
  const { chain, client, provider, streams } = options
  const deploying = new Map<string, Promise<void>>()
  // Code never disappears from an account, so a sender seen deployed is never asked about again.
  const deployed = new Set<string>()

  async function hasCode(address: Address): Promise<boolean> {
    const key = address.toLowerCase()
    if (deployed.has(key)) return true
    const code = await client.getCode({ address })
    const has = code !== undefined && code !== '0x'
    if (has) deployed.add(key)
    return has
  }

  async function waitForCode(address: Address): Promise<void> {
    const deadline = Date.now() + DEPLOYMENT_WAIT_MS
    while (Date.now() < deadline) {
      if (await hasCode(address).catch(() => false)) return
      // unref: a watcher must never keep a stopping daemon alive.
      await new Promise((resolve) => setTimeout(resolve, 1_000).unref())
    }
  }

  return {
    async prepare(requests) {
      const accounts = await Promise.all(requests.map((request) => provider.account(chain.key, request.userIndex)))
      const held: { account: Address; stream: number }[] = []
      const ownDeployments: { key: string; end: () => void }[] = []
      const items: BundleItem[] = []
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
        const senders = [...new Map(accounts.map((account) => [account.address.toLowerCase(), account])).values()]
        const deployers = new Set<string>()
        // All-or-nothing claims: a batch claims its undeployed senders only when none is being deployed by another
        // batch, and otherwise waits holding nothing. Claiming some and waiting for others could deadlock two batches
        // that each wait for a wallet the other claimed.
        for (;;) {
          const codes = await Promise.all(senders.map((account) => hasCode(account.address)))
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

        const nonceResults = await client.multicall({
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

        const drafts: UserOperationDraft[] = []
        for (const [index, request] of requests.entries()) {
          const account = accounts[index] as OperationAccount
          const deploys = deployers.delete(account.address.toLowerCase())
          const factoryArgs = deploys ? await account.factoryArgs() : undefined
          drafts.push({
            account,
            deploys,
            fields: {
              sender: account.address,
              nonce: nonceResults[index] as bigint,
              ...(factoryArgs ?? {}),
              callData: await account.encodeCalls(request.calls),
            },
          })
        }
        const priced = await options.gasPolicy.price(drafts)
        for (const [index, request] of requests.entries()) {
          const draft = drafts[index] as UserOperationDraft
          const unsigned = priced[index] as UnsignedUserOperation
          const signature = await draft.account.sign(unsigned)
          const userOperation: UserOperation<'0.7'> = { ...unsigned, signature }
          const userOpHash: Hash = getUserOperationHash({
            userOperation,
            entryPointAddress: chain.addresses.entryPoint,
            entryPointVersion: '0.7',
            chainId: chain.chainId,
          })
          items.push({ id: request.id, userOperation, userOpHash })
        }
        return { items, finish }
      } catch (error) {
        finish()
        if (error instanceof PrebuyError) throw error
        throw new PrebuyError('unavailable', 'chain_unavailable', `User operations on ${chain.key} could not be prepared.`, { cause: error })
      }
    },
  }
}
