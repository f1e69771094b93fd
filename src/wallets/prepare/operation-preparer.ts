import type { Address, Hash } from 'viem'
import type { AccountDeployment, BundleItem, SentDeployment } from '../bundler/bundler.ts'
import type { UserOperationRequest } from '../wallet-service.ts'

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

/** Sends the factory calls of accounts to deploy; resolves once sent, its `landed` once mined (or `pending`: it may still land). */
export type DeployAccounts = (deployments: AccountDeployment[]) => Promise<SentDeployment>
