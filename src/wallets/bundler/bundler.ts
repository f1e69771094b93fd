import type { Address, Hash, Hex } from 'viem'
import type { Landing } from './poll-receipt.ts'
import type { UserOperation } from 'viem/account-abstraction'
import type { LandingBlock, UserOperationResult } from '../wallet-service.ts'

/** A signed v0.7 UserOperation ready for handleOps, with the caller's correlation id. */
export interface BundleItem {
  id: string
  userOperation: UserOperation<'0.7'>
  userOpHash: Hash
}

/** A factory call that deploys one smart account, with the gas it may take. */
export interface AccountDeployment {
  factory: Address
  factoryData: Hex
  gas: bigint
}

/** What became of a bundle item: a UserOperationResult, which always names its userOpHash here. */
export type BundleOutcome = UserOperationResult & { userOpHash: Hash }

/** An outcome before the item's id is attached: the chain knows operations by userOpHash only. */
export type UserOperationOutcome = BundleOutcome extends infer Outcome ? (Outcome extends unknown ? Omit<Outcome, 'id'> : never) : never

/** What became of a deployment transaction: mined, or not mined but still held by the node (it may land later). */
export interface DeploymentOutcome {
  mined: boolean
  pending: boolean
}

/** A deployment transaction the node accepted; `landed` settles with its outcome (it never rejects). */
export interface SentDeployment {
  hash: Hash
  landed: Promise<DeploymentOutcome>
}

export interface Bundler {
  /**
   * Puts the items into as few handleOps transactions as the block gas limit allows, in the given order, and resolves
   * with one outcome per item (same order) once all are mined. An item the EntryPoint refuses during validation is
   * taken out of the bundle (the rest still go) and reported as `refused`. With `sendAfter`
   * the bundle is simulated at once but broadcast only after it resolves (rejects: nothing sent, the call rejects).
   * With `launchBlock` (a launch's buys) a bundle landing in the launch's first blocks offers the launch tip.
   */
  submit(
    items: readonly BundleItem[],
    options?: { sendAfter?: Promise<unknown> | undefined; landsIn?: LandingBlock | undefined; launchBlock?: bigint | undefined },
  ): Promise<BundleOutcome[]>
  /**
   * Optional, off the hot path: reads what a send needs from the chain (fees, current block) so that a submission in
   * the next few seconds does not wait for those reads (the pending-nonce check is still made, alongside simulation).
   */
  warm?(): Promise<void>
  /**
   * Optional: a reorg was seen on the chain; the sender accounts' last pending-nonce check no longer stands (the next
   * send checks them: a check made after our sends and before the reorg would miss the nonces it dropped).
   */
  forgetChecks?(): void
  /**
   * Optional: deploys smart accounts ahead of their first operation, in one transaction of the bundler EOA to
   * Multicall3 (each factory call may fail alone: an account deployed meanwhile does not sink the others). Resolves
   * once the transaction is sent (rejects: nothing was sent); its `landed` settles once it is mined, or with
   * `pending` when no receipt came but the node still holds the transaction (it may land later).
   */
  deployAccounts?(deployments: readonly AccountDeployment[]): Promise<SentDeployment>
  /**
   * Optional: one transaction of the bundler EOA to `to` (a contract of ours that runs operations itself, such as the
   * OTC settlement calling handleOps), through the same nonce manager as the bundles so the two never collide.
   * Resolves once sent (rejects: nothing was sent); `landed` settles with the receipt, or undefined when none came in
   * time (then `pending` says whether the node still holds the transaction).
   */
  sendCall?(call: { to: Address; data: Hex; gas: bigint }, logFields?: Record<string, unknown>): Promise<SentCall>
  /**
   * Optional: one plain transaction from the freest of the chain's sender accounts (wallet.senderAccounts), each
   * with its own nonces: transactions sent together go out from several accounts at once, none waiting for another's
   * nonce. For contracts that accept every sender account (the batch buyer's operators: `senderAddresses`). Resolves
   * once sent (rejects: nothing was sent), with the account that sent it; `landed` as for sendCall. A transaction not
   * mined for a block is replaced with higher fees, as every transaction of ours.
   */
  sendFromPool?(
    call: { to: Address; data: Hex; gas: bigint },
    logFields?: Record<string, unknown>,
    /** A launch's send (chain-now.ts SendMoment): in its first blocks it offers the launch tip. */
    moment?: { launchBlock?: bigint | undefined; landsIn?: bigint | undefined },
  ): Promise<SentCall>
  /** Optional: the chain's sender accounts, the bundler EOA first. */
  senderAddresses?(): Address[]
  /**
   * Optional: like sendFromPool, from one named sender account (its nonces in call order), its tip at most `tipAtMost`
   * per gas: a split batch's plan (plan-collect-chunks.ts) assigns each collect and the settle an account, and the
   * settle offers less than its collects so that the block orders it after them.
   */
  sendFromAccount?(
    account: Address,
    call: { to: Address; data: Hex; gas: bigint },
    logFields?: Record<string, unknown>,
    options?: AccountSendOptions,
  ): Promise<SentCall>
}

/** How sendFromAccount sends: a launch's moment (the launch tip), and a ceiling on the tip per gas. */
export interface AccountSendOptions {
  moment?: { launchBlock?: bigint | undefined; landsIn?: bigint | undefined }
  tipAtMost?: bigint
}

/** A transaction sent by Bundler.sendCall or sendFromPool; `landed` never rejects. */
export interface SentCall {
  hash: Hash
  /** The sender account that signed it. */
  from: Address
  nonce: number
  landed: Promise<Landing>
  /** The tip per gas it offered (sendFromPool, sendFromAccount): what a send ordered after it must stay under. */
  maxPriorityFeePerGas?: bigint
}
