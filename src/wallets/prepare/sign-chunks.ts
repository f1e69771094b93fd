import type { Hash } from 'viem'
import { getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import type { ChainConfig } from '../../chain/chain-keys.ts'
import { PrebuyError } from '../../common/errors.ts'
import type { OperationAccount, UnsignedUserOperation } from '../accounts/operation-account.ts'
import type { BundleItem } from '../bundler/bundler.ts'
import type { GasPolicy, UserOperationDraft } from '../gas-policy.ts'
import type { UserOperationRequest } from '../wallet-service.ts'
import type { PrepareOptions } from './operation-preparer.ts'

/** Signatures between two yields to the event loop, so replies for chunks already sent are handled promptly. */
const SIGNATURES_PER_SLICE = 8

const noop = () => undefined
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

/** What a batch's operations are built from, by request index. */
export interface SigningBatch {
  requests: readonly UserOperationRequest[]
  accounts: readonly OperationAccount[]
  nonces: readonly bigint[]
  /** Whether the request's operation carries its account's initCode. */
  deploys: readonly boolean[]
}

export interface ChunkSigner {
  /** Builds, prices and signs the operations of these request indexes, in that order. */
  sign(chunk: readonly number[], batch: SigningBatch): Promise<BundleItem[]>
}

export function createChunkSigner(options: { chain: ChainConfig; gasPolicy: GasPolicy }): ChunkSigner {
  const { chain, gasPolicy } = options
  return {
    async sign(chunk, { requests, accounts, nonces, deploys }) {
      const drafts = await Promise.all(
        chunk.map(async (index): Promise<UserOperationDraft> => {
          const account = accounts[index] as OperationAccount
          const request = requests[index] as UserOperationRequest
          const deploying = deploys[index] === true
          const [factoryArgs, callData] = await Promise.all([deploying ? account.factoryArgs() : undefined, account.encodeCalls(request.calls)])
          return {
            account,
            deploys: deploying,
            callGasLimit: request.callGasLimit,
            fields: { sender: account.address, nonce: nonces[index] as bigint, ...(factoryArgs ?? {}), callData },
          }
        }),
      )
      const priced = await gasPolicy.price(drafts)
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
    },
  }
}

/**
 * Signs the chunks in order and hands each on (`onChunk`) as soon as it is signed, filling `items` (by request index)
 * and, for requests left unsigned after a chunk was handed on, `unprepared`. Throws only while nothing was handed on.
 * Resolves with when the first chunk was handed on (performance.now()), if one was.
 */
export async function signAndHandOn(
  signer: ChunkSigner,
  batch: SigningBatch,
  chunks: readonly number[][],
  options: Pick<PrepareOptions, 'onChunk' | 'stop' | 'holdAfterFirst'>,
  into: { items: (BundleItem | undefined)[]; unprepared: Map<number, string> },
): Promise<{ firstChunkAt: number | undefined }> {
  const { items, unprepared } = into
  let firstChunkAt: number | undefined
  let dispatched = false
  for (const chunk of chunks) {
    if (dispatched && options.holdAfterFirst) {
      await options.holdAfterFirst.then(noop, noop)
      // The held chunk's send continues on the same settlement: let it reach the wire before signing resumes.
      await yieldToEventLoop()
    }
    if (dispatched && options.stop?.()) {
      for (const requestIndex of chunk) unprepared.set(requestIndex, 'not prepared (submission abandoned); the operation did not run')
      continue
    }
    try {
      const signed = await signer.sign(chunk, batch)
      for (const [position, requestIndex] of chunk.entries()) items[requestIndex] = signed[position]
    } catch (error) {
      // Before anything was handed on, the whole batch fails as one; after, the chunks in flight must finish.
      if (!dispatched) throw error
      const reason = `not prepared (${error instanceof PrebuyError ? error.code : 'chain_unavailable'}); the operation did not run`
      for (const requestIndex of chunk) unprepared.set(requestIndex, reason)
      continue
    }
    if (options.onChunk) {
      options.onChunk(chunk.map((requestIndex) => items[requestIndex] as BundleItem))
      if (!dispatched) firstChunkAt = performance.now()
      dispatched = true
      // Let the bundler issue this chunk's simulation before the next chunk's signatures occupy the thread.
      await yieldToEventLoop()
    }
  }
  return { firstChunkAt }
}
