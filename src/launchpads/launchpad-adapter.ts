import type { AbiEvent, Address, Hex, Log, PublicClient } from 'viem'
import type { Launchpad } from '../domain/records.ts'
import type { FeeSchedule } from '../pricing/fee-schedule.ts'

/** A Uniswap v4 pool key, JSON-safe (fee and tickSpacing fit in a number). */
export interface PoolKey {
  currency0: Address
  currency1: Address
  fee: number
  tickSpacing: number
  hooks: Address
}

/** What the indexer knows about the transaction that emitted a launch log (loadLaunchContext reads it). */
export interface LaunchContext {
  client: PublicClient
  txHash: Hex
  blockNumber: bigint
  blockHash: Hex
  /** The launch block's timestamp, unix seconds: every fee schedule starts here. */
  blockTimestamp: number
  /** The transaction's sender (a candidate creator on every launchpad). */
  txFrom: Address
  /** Every log of the same transaction, in order: the PoolManager's Initialize and the hooks' fee events are there. */
  txLogs: readonly Log[]
}

/** A recognised launch: enough to match a project, price the pool and load the fee schedule. */
export interface LaunchCandidate {
  launchpad: Launchpad
  token: Address
  /** Addresses that may be a registered project's creator, most specific first; match any of them. */
  creatorCandidates: Address[]
  poolKey: PoolKey
  poolId: Hex
  /** The currency the token trades against in its pool (WETH for all three on Base and on devnet). */
  pairedToken: Address
  tokenIsCurrency0: boolean
  /** Pool price at initialisation (from the Initialize log). */
  initialSqrtPriceX96: bigint
  name: string | null
  symbol: string | null
  txHash: Hex
  blockNumber: bigint
  blockHash: Hex
  launchedAt: number
  logIndex: number
  /** Launchpad-specific addresses the fee schedule is read from (hook, MEV module). */
  feeSources: { hook: Address; mevModule?: Address }
  /** The schedule as the launch transaction's own logs announced it, when the launchpad emits one (Doppler). */
  scheduleFromLogs?: FeeSchedule
}

/**
 * One launchpad: how to recognise its launches and what its pool's fee will be. The same code serves the devnet
 * contracts and the real Base ones; only the addresses given to the factory differ.
 */
export interface LaunchpadAdapter {
  id: Launchpad
  /** The launch event and who emits it: subscribe to logs of `address` with `event`. */
  launchEvent: { address: Address; event: AbiEvent }
  /** The v4 PoolManager whose Initialize log (same transaction) carries the pool key. */
  poolManager: Address
  /** null when the log is not a launch this adapter understands (another event, a non-WETH pair, ...). */
  decodeLaunch(log: Log, ctx: LaunchContext): Promise<LaunchCandidate | null>
  /** The launch's fee schedule: pure data for feeAt(schedule, timestamp). */
  loadFeeSchedule(client: PublicClient, launch: LaunchCandidate): Promise<FeeSchedule>
}
