import type { LaunchRule } from '../domain/launches/judge-launch.ts'
import type { Address, Hash } from 'viem'
import type { ChainKey } from '../chain/chain-keys.ts'
import type { Launchpad, OrderStatus } from '../domain/records.ts'
import type { OrderDecision, OrderVerdict } from '../domain/execution/verdicts.ts'
import type { LaunchCandidate } from '../launchpads/launchpad-adapter.ts'
import type { StoredBlockRef } from '../sync/sync-types.ts'

/** Per chain: where the indexer resumes (written in the same batch as the effects of the block it names). */
export interface IndexerCheckpoint {
  chain: ChainKey
  finalized: StoredBlockRef
  unfinalized: StoredBlockRef[]
  /** Older finalized blocks, sparse (src/sync/finalized-history.ts); absent in checkpoints written before it existed. */
  history?: StoredBlockRef[]
  updatedAt: number
}

/** What a tick is made of and what the executor decided on it: pure records the planner and the pricing share. */
export type {
  DecisionInputOrder,
  DecisionInputs,
  LaunchRecord,
  PriceTick,
  StoredPoolKey,
  TickDecision,
  TickReason,
} from '../domain/execution/tick-records.ts'

/** The verdict names, with what each one covers, are defined once with the planners that give them. */
export type { OrderDecision, OrderVerdict }

/** One order state transition. */
export interface OrderEvent {
  keyId: string
  slug: string
  from: OrderStatus
  to: OrderStatus
  at: number
  reason?: string
  /** The decoded error name when a buy's call reverted (e.g. TooLittleReceived: the price moved past the limit). */
  errorName?: string
  userOpHash?: Hash
  txHash?: Hash
  blockNumber?: string
  spendAtoms?: string
  tokensReceived?: string
  feeTokens?: string
}

/**
 * An order between submission and receipt. Written (with the order's `executing` state) BEFORE the UserOperation is
 * sent, so a crash leaves a trace the restart reconciles from the chain; and it reserves the spend against the wallet.
 */
export interface InFlightExecution {
  keyId: string
  slug: string
  chain: ChainKey
  userIndex: number
  wallet: Address
  /** Known once the wallet service returns; absent while the submission is in flight. */
  userOpHash?: Hash
  spendAtoms: string
  minTokensOut: string
  token: Address
  /** The router's idempotency key for this order (see PrebuyBuyRouter.executed). */
  orderId: Hash
  submittedAt: number
  /** Block number when submitted: reconciliation searches the router's PrebuyBuy logs from here. */
  fromBlock: string
  /**
   * The batch the order buys in (PrebuyBatchBuyer, docs/execution.md §8): its fate is the batch's (settled from
   * BatchExecuted by the batch runner), not a router buy of its own.
   */
  batchId?: Hash
}

/** A buy as mined: kept by block so a reorg above that block re-checks it against the new chain. */
export interface FillRecord {
  chain: ChainKey
  keyId: string
  slug: string
  blockNumber: string
  txHash: Hash
  wallet: Address
  orderId: Hash
  userIndex: number
  spendAtoms: string
  token: Address
  /** Bought in this batch (its transaction executed it): the tokens are the batch contract's until swept. */
  batchId?: Hash
  /** The batch contract (PrebuyBatchBuyer) of a batch fill. */
  batchBuyer?: Address
}

/**
 * A launch that touched a registered project without binding it (launch authenticity, quarantine), kept for the
 * operator: `rejected` (it names the project's deployer in a field anyone can set, or is not the expected token),
 * `awaiting_confirmation` (sent by a shared deployer: the operator confirms it or not), `confirmed` (the indexer binds
 * it on its next block), `quarantined` (bound, but a read it needs failed: retried with backoff), `unsupported` (bound,
 * but not a launch prebuy can price or buy).
 */
export interface CandidateRecord {
  slug: string
  chain: ChainKey
  launchpad: Launchpad
  token: Address
  deployer: Address
  claimedCreators: Address[]
  name: string | null
  symbol: string | null
  txHash: Hash
  blockNumber: string
  blockHash: Hash
  logIndex: number
  /** Block time of the launch, epoch ms. */
  launchedAt: number
  status: CandidateStatus
  reason: string
  /** Which binding rule held it back (judge-launch.ts), typed; absent for records written before it, and for quarantine and unsupported. */
  rule?: LaunchRule
  /** The decoded launch, JSON-safe, when prebuy can buy it: what a confirmation or a retry completes. */
  launch?: StoredLaunch
  /** Completion attempts made (quarantine) and the first block of the next one. */
  attempts: number
  retryAtBlock?: string
  seenAt: number
  updatedAt: number
}

export type CandidateStatus = 'rejected' | 'awaiting_confirmation' | 'confirmed' | 'quarantined' | 'unsupported'

/** A LaunchCandidate as JSON (its block number a decimal string). */
export type StoredLaunch = Omit<LaunchCandidate, 'blockNumber'> & { blockNumber: string }

/** A launch log that could not be decoded (a read failed): decoded again with backoff, while everything else goes on. */
export interface QuarantinedLog {
  chain: ChainKey
  address: Address
  txHash: Hash
  logIndex: number
  blockNumber: string
  blockHash: Hash
  /** Block time, unix seconds. */
  blockTimestamp: number
  error: string
  attempts: number
  retryAtBlock: string
  seenAt: number
}
