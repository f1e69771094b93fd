import type { AbiEvent, Address, Hex, Log, PublicClient } from 'viem'
import type { PairedAsset, PoolKey } from '../domain/paired-asset.ts'
import type { LaunchSupplySplit } from '../domain/launches/supply-split.ts'
import type { Launchpad } from '../domain/records.ts'
import type { LaunchAttribution } from './launch-deployer.ts'
import type { FeeSchedule } from '../pricing/fee-schedule.ts'

export type { PairedAsset, PoolKey }

/** What the indexer knows about the transaction that emitted a launch log (loadLaunchContext reads it). */
export interface LaunchContext {
  client: PublicClient
  txHash: Hex
  blockNumber: bigint
  blockHash: Hex
  /** The launch block's timestamp, unix seconds: every fee schedule starts here. */
  blockTimestamp: number
  /** The transaction's sender. */
  txFrom: Address
  /**
   * Who sent the launch (attributeLaunch): the smart account of the ERC-4337 operation whose execution emitted the
   * launch log, else the transaction's sender, with why that sender is shared (a bundler, an EIP-7702 sponsor) when it is.
   */
  attribution: LaunchAttribution
  /** Every log of the same transaction, in order: the PoolManager's Initialize and the hooks' fee events are there. */
  txLogs: readonly Log[]
}

/** Who and what launched: enough to match a registered project, whether or not the launch can be bought. */
export interface LaunchIdentity {
  launchpad: Launchpad
  token: Address
  /**
   * The unforgeable deployer: the factory's msg.sender when the launch event carries it (Clanker `msgSender`, Zora
   * `caller`), else the context's deployer. A shared platform contract here launches for many people.
   */
  deployer: Address
  /**
   * Set when the deployer acts for many people (an ERC-4337 bundler whose transaction emitted the launch outside any
   * operation's execution, an EIP-7702 sponsor or delegated account): why. Such a deployer never binds alone.
   */
  sharedSender?: string
  /**
   * Smart accounts whose ERC-4337 operations ran in the launch transaction without the launch being theirs: a project
   * registered with one of them is told why (a fake launch batched next to its operation).
   */
  operationSenders?: Address[]
  /**
   * Fields a caller chooses freely that name a creator (Clanker `tokenAdmin`, Zora `payoutRecipient`, Doppler's
   * timelock or fee beneficiaries): shown to the operator, never enough to match a project.
   */
  claimedCreators: Address[]
  name: string | null
  symbol: string | null
  txHash: Hex
  blockNumber: bigint
  blockHash: Hex
  launchedAt: number
  logIndex: number
}

/** A launch we can price and buy: its pool, its paired asset and where its fee schedule is read from. */
export interface LaunchCandidate extends LaunchIdentity {
  poolKey: PoolKey
  poolId: Hex
  paired: PairedAsset
  tokenIsCurrency0: boolean
  /** Launchpad-specific addresses the fee schedule is read from (hook, MEV module, ...). */
  feeSources: Record<string, Address>
  /** The schedule as the launch transaction's own logs announced it, when the launchpad emits one (Doppler). */
  scheduleFromLogs?: FeeSchedule
  /** The supply split the launch announced (Clanker's extensions), checked against the factory's rules. */
  supplySplit?: LaunchSupplySplit
  /**
   * The point a small buy of the pool meets after the launch transaction, as its PoolManager logs tell it (Clanker v5:
   * clanker-v5/pool-point-from-logs.ts), decimal strings (the candidate is stored as JSON). A hint for the fee
   * measurement's first round only, never a fact: the pool's state read at the launch block decides.
   */
  poolPointFromLogs?: { sqrtPriceX96: string; liquidity: string; tick: number }
}

/**
 * A launch log, decoded: a launch we can buy, or a genuine launch we cannot price or buy (an unsupported module, pair
 * or pool shape), with the reason. Both are matched against projects; only a project's own unsupported launch is
 * quarantined, so an unrelated one costs nothing.
 */
export type DecodedLaunch = { kind: 'launch'; candidate: LaunchCandidate } | { kind: 'unsupported'; launch: LaunchIdentity; reason: string }

/** What a refresh needs of a recorded launch (the indexer's LaunchRecord carries these). */
export interface RecordedLaunch {
  poolId: Hex
  feeSchedule: unknown
  feeSources: Record<string, Address>
}

/**
 * One launchpad: how to recognise its launches and what its pool's fee and gating will be. The same code serves the
 * devnet contracts and the real Base ones; only the addresses given to the factory differ.
 */
export interface LaunchpadAdapter {
  id: Launchpad
  /** Who emits launches and their events (Zora: content coins and creator coins each have their own). */
  launchEvent: { address: Address; events: readonly AbiEvent[] }
  /**
   * For an emitter that also emits logs that are no launch (Clanker v5's launches are the PoolManager's Initialize logs
   * naming its hook, among every swap): whether `log` may be a launch, from its topics and data alone (no receipt is
   * fetched for the others). Absent: every log of the emitter may be.
   */
  isLaunchLog?(log: Pick<Log, 'topics' | 'data'>): boolean
  /** The v4 PoolManager whose Initialize log (same transaction) carries the pool key. */
  poolManager: Address
  /**
   * null when the log is not a launch event this adapter understands. Throws only when a read it needs failed: the
   * indexer then quarantines the log with the error and retries it, while every other launch and block goes on.
   */
  decodeLaunch(log: Log, ctx: LaunchContext): Promise<DecodedLaunch | null>
  /**
   * For the reads ahead of the receipt only (daemon/indexer/launch-reads-ahead.ts): a provisional candidate from the
   * log and the block's logs alone, no read, for a launchpad whose decoding waits on a read before it names the pool
   * (Doppler: the Airlock's asset data). Its completion reads start in the receipt's round; nothing is judged on it.
   */
  candidateAhead?(log: Log, ctx: LaunchContext): LaunchCandidate | undefined
  /** The launch's fee schedule: pure data for feeAt(schedule, nextBlock). Throwing quarantines the launch. */
  loadFeeSchedule(client: PublicClient, launch: LaunchCandidate): Promise<FeeSchedule>
  /**
   * For a schedule that follows chain state (auction rounds): the schedule as of `block`, read from the chain. The
   * indexer calls it on every block while scheduleNeedsRefresh(schedule, next block) holds, before pricing the block.
   */
  refreshFeeSchedule?(client: PublicClient, launch: RecordedLaunch, block: { number: bigint; timestamp: bigint }): Promise<FeeSchedule>
}

/** A named fee source of a launch (its adapter recorded it at decode time); missing is a programming error. */
export function feeSource(launch: { feeSources: Record<string, Address> }, name: string): Address {
  const address = launch.feeSources[name]
  if (!address) throw new Error(`the launch has no '${name}' fee source`)
  return address
}
