import type { LaunchRule } from '../domain/launches/judge-launch.ts'
import type { Address, Hash, Hex } from 'viem'
import type { ChainKey } from '../chain/chain-keys.ts'
import type { Launchpad, OrderStatus } from '../domain/records.ts'
import type { OrderDecision, OrderVerdict } from '../domain/execution/verdicts.ts'
import type { LaunchCandidate, PairedAsset } from '../launchpads/launchpad-adapter.ts'
import type { StoredBlockRef } from '../sync/sync-types.ts'

/** Uniswap v4 PoolKey as stored (JSON-safe). */
export interface StoredPoolKey {
  currency0: Address
  currency1: Address
  fee: number
  tickSpacing: number
  hooks: Address
}

/** Per chain: where the indexer resumes (written in the same batch as the effects of the block it names). */
export interface IndexerCheckpoint {
  chain: ChainKey
  finalized: StoredBlockRef
  unfinalized: StoredBlockRef[]
  /** Older finalized blocks, sparse (src/sync/finalized-history.ts); absent in checkpoints written before it existed. */
  history?: StoredBlockRef[]
  updatedAt: number
}

/** A registered project's token launch, as the indexer saw it. Reverted (deleted) if a reorg removes its block. */
export interface LaunchRecord {
  slug: string
  chain: ChainKey
  launchpad: Launchpad
  token: Address
  symbol: string
  name: string
  decimals: number
  /** Atomic units, decimal string. */
  totalSupply: string
  /** The asset the pool pairs the token with: it picks the buy route and the USD price source. */
  paired: PairedAsset
  poolKey: StoredPoolKey
  poolId: Hex
  /** Launchpad-specific addresses the fee schedule is read from (hook, MEV module, ...), for refreshes. */
  feeSources: Record<string, Address>
  /** The adapter's fee schedule, as JSON (bigints as strings); only the adapter interprets it. */
  feeSchedule: unknown
  blockNumber: string
  blockHash: Hash
  txHash: Hash
  /** Block time of the launch, epoch ms. */
  launchedAt: number
}

export type TickReason = 'launch' | 'swap' | 'block'

/** Pool state and the price orders are compared with, for a swap landing in the next block. */
export interface PriceTick {
  slug: string
  chain: ChainKey
  token: Address
  reason: TickReason
  blockNumber: string
  blockHash: Hash
  /** Position in the block (log index of the swap; -1 for a block tick). */
  logIndex: number
  sqrtPriceX96: string
  liquidity: string
  /** Stablecoin atoms per 10^18 smallest units of the paired asset (1 ETH or WETH), for display. */
  pairedUsdAtoms: string
  /** Timestamp (s) a swap in the next block is expected to carry. */
  nextBlockTimestamp: number
  /** The LP fee (incl. the sniper fee) a swap in the next block pays, pips; and every fee that reduces the tokens received, as a float. */
  lpFeePips: number
  totalFeeFraction: number
  swapsAllowed: boolean
  /** Stablecoin atoms (micro-USD): FDV at the pool price, and the effective cap FDV / (1 - fee) (null: fee >= 100%). */
  fdvUsdAtoms: string
  effectiveCapAtoms: string | null
  /** Whether the time-based fee is still above its floor (more block ticks follow). */
  feeDecaying: boolean
  at: number
}

/** The verdict names, with what each one covers, are defined once with the planners that give them. */
export type { OrderDecision, OrderVerdict }

/** Every decision the executor made on one tick: the journal GET /orders and the replay command read. */
export interface TickDecision {
  slug: string
  chain: ChainKey
  tick: PriceTick
  policy: string
  orders: OrderDecision[]
  at: number
  /** What the planner was given, so `prebuy executions replay` can plan the tick again; absent in older journals. */
  inputs?: DecisionInputs
}

/**
 * One order as the planner saw it: keyId, wallet, max spend (decimal USDC), FDV limit (decimal USD, null: none), expiry
 * (ms after launch), the wallet's stablecoin balance (atoms), the buyer's user index, createdAt and updatedAt.
 */
export type DecisionInputOrder = [
  keyId: string,
  wallet: Address,
  maxSpendUsdc: string,
  maxFdvUsdc: string | null,
  expiresInMs: number,
  balanceAtoms: string,
  userIndex: number,
  createdAt: number,
  updatedAt: number,
]

/** The planner's inputs of one tick (see planExecution), compact: orders as tuples, in the priority order it used. */
export interface DecisionInputs {
  launchedAt: number
  /** Chain time of the tick, epoch ms. */
  now: number
  totalSupply: string
  maxBuys: number
  orders: DecisionInputOrder[]
  /** Stablecoin atoms reserved by in-flight buys before the tick, by lower-cased wallet. */
  reserved: Array<[wallet: string, atoms: string]>
  /** The quotes of the real swap the tick was decided on (absent: decided on the tick's formula cap). */
  quote?: { swapsAllowed: boolean; buckets: Array<[spendAtoms: string, capAtoms: string | null]> }
  /** Orders that would have bought but were backing off after price reverts at the same price. */
  heldBack?: string[]
}

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
