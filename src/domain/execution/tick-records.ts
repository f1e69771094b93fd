import type { Address, Hash, Hex } from 'viem'
import type { ChainKey } from '../../chain/chain-keys.ts'
import type { PairedAsset } from '../paired-asset.ts'
import type { Launchpad } from '../records.ts'
import type { DecisionDelta } from './decision-delta.ts'
import type { OrderDecision } from './verdicts.ts'

/*
 * The records of a tick, pure data: the launch the indexer saw, the pool state and price orders are compared with, and
 * what the executor decided. The journal stores them (src/journal/journal-records.ts re-exports them); the pricing
 * builds ticks and the replay plans them again, without I/O.
 */

/** Uniswap v4 PoolKey as stored (JSON-safe). */
export interface StoredPoolKey {
  currency0: Address
  currency1: Address
  fee: number
  tickSpacing: number
  hooks: Address
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
  /**
   * The pools the launch was priced and bought on before its liquidity moved (a Zora coin's `migrateLiquidity`), oldest
   * first, each with the block that moved it away: a reorg below that block brings the launch back to it.
   */
  migrations?: LaunchMigration[]
}

/** Where a launch was before one move of its liquidity (src/launchpads/zora/zora-migration.ts). */
export interface LaunchMigration {
  poolKey: StoredPoolKey
  poolId: Hex
  feeSources: Record<string, Address>
  feeSchedule: unknown
  /** The block and transaction that moved the liquidity away from this pool. */
  blockNumber: string
  txHash: Hash
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
  /**
   * The block whose end state `sqrtPriceX96`, `liquidity` and `pairedUsdAtoms` are, when older than `blockNumber`: a
   * launch ticked ahead from a block the indexer read behind the head (docs/execution.md §2, "Ticks when behind"),
   * priced in the head block's context with the newest state the indexer holds; the executor's quote reads the pool at
   * `blockNumber`. Absent: `blockNumber`.
   */
  stateBlock?: string
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
  /**
   * The batch this tick's approved orders buy in (its record, journal.batches, holds the clearing: who is included with
   * rank and spend, who was left out and why; the planner's `submitted` verdict of a left-out order means eligible).
   */
  batchId?: Hash
  /**
   * Stored only (the journal's readers get the decision whole, src/journal/materialize-decisions.ts): a quiet tick's
   * record kept as its changes since the project's previous record, the journal key `delta.base`. Then `orders` and
   * `inputs.orders` hold only the verdicts and rows that changed or are new, and `delta.removed` the key ids no longer
   * decided (src/domain/execution/decision-delta.ts).
   */
  delta?: DecisionDelta
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
