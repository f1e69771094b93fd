import { withLaunchProtocolFee } from '../../src/pricing/protocol-fee.ts'
import { type Address, erc20Abi, isAddressEqual, type Log, type PublicClient } from 'viem'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import type { Launchpad, ProjectRecord } from '../../src/domain/records.ts'
import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import type { DecodedLaunch, LaunchCandidate, LaunchContext, LaunchpadAdapter, PairedAsset } from '../../src/launchpads/launchpad-adapter.ts'
import { loadLaunchContext } from '../../src/launchpads/load-launch-context.ts'
import { readLaunchAttribution } from '../../src/launchpads/read-launch-attribution.ts'
import type { Store } from '../../src/store/open-store.ts'
import { waitingLaunchpads } from '../../src/store/project-index.ts'
import type { WaitingProjects } from './waiting-projects.ts'
import type { PoolState } from '../../src/pricing/price-tick.ts'
import { withBridgeProtocolFees } from '../../src/pricing/bridge-fee.ts'
import { poolIdOf } from '../../src/launchpads/pool-id.ts'
import { STATE_VIEW } from './state-view-abi.ts'
import { type LaunchReadsAhead, readAheadOfReceipt } from './launch-reads-ahead.ts'

/** A registered project's launch, bound and read: its record, the project and the pool's state. */
export interface DetectedLaunch {
  record: LaunchRecord
  project: ProjectRecord
  state: PoolState
}

export interface LaunchDetector {
  /** The adapter whose launch event `log` may be (by emitter, and by the adapter's isLaunchLog where it has one). */
  adapterOf(log: Pick<Log, 'address' | 'topics' | 'data'>): LaunchpadAdapter | undefined
  /**
   * Launchpads with a registered project still waiting to launch on this chain: launch logs of the others (most
   * launches on a busy chain are not ours) are skipped without fetching their receipts.
   */
  waitingLaunchpads(): Promise<Set<Launchpad>>
  /**
   * A launch log decoded by its adapter, with its transaction's receipt (the deployer, the pool's Initialize). Null when
   * the log is not a launch event; throws when a read failed (the caller quarantines the log).
   */
  decode(log: Log, blockTimestamp: bigint, ahead?: LaunchReadsAhead): Promise<DecodedLaunch | null>
  /**
   * Starts a launch log's receipt and its reads ahead (launch-reads-ahead.ts) through `ahead.client` without waiting:
   * the indexer calls it as soon as the block's logs are in, before the block's other work (schedule refreshes), and
   * `decode` with the same `ahead` then finds them under way. Never throws.
   */
  readAhead(log: Log, blockTimestamp: bigint, ahead: LaunchReadsAhead, onCandidate?: (candidate: LaunchCandidate) => void): void
  /**
   * Reads what a bound launch's record needs, all in one round: fee schedule, token metadata, the pool's state at
   * `stateAt` (the launch block, so a dev buy or initial purchase in it is priced in; a later block for a launch bound
   * later), and the paired asset's price (prefetched for the launch tick). Throws when a read failed. `reads`: the
   * block's memo client (memo-reads.ts), whose answers the reads started ahead of the receipt already hold.
   */
  complete(
    project: ProjectRecord,
    candidate: LaunchCandidate,
    stateAt: bigint,
    prefetchPrice: (paired: PairedAsset) => Promise<unknown>,
    reads?: PublicClient,
  ): Promise<DetectedLaunch>
}

export interface LaunchDetectorDeps {
  store: Store
  chain: ChainConfig
  client: PublicClient
  adapters: readonly LaunchpadAdapter[]
  stage(name: string): void
  /** The waiting projects held in memory (waiting-projects.ts); without it, read from the store on every call. */
  waiting?: WaitingProjects
}

export function createLaunchDetector(deps: LaunchDetectorDeps): LaunchDetector {
  const { store, chain, client, adapters, stage } = deps
  const adapterOf = (entry: Pick<Log, 'address' | 'topics' | 'data'>) =>
    adapters.find((a) => isAddressEqual(a.launchEvent.address, entry.address) && (a.isLaunchLog?.(entry) ?? true))

  /** decodeLaunch's context: the transaction's receipt; the block's time is already known from the sync. */
  async function launchContext(entry: Log, blockTimestamp: bigint, reads: PublicClient): Promise<LaunchContext> {
    if (entry.transactionHash === null || entry.blockNumber === null || entry.blockHash === null) return loadLaunchContext(client, entry)
    // Through `reads`: with the reads ahead, the receipt may already be under way (readAhead).
    const receipt = await reads.getTransactionReceipt({ hash: entry.transactionHash })
    stage('indexer.receipt')
    return {
      client: reads,
      txHash: entry.transactionHash,
      blockNumber: entry.blockNumber,
      blockHash: entry.blockHash,
      blockTimestamp: Number(blockTimestamp),
      txFrom: receipt.from,
      // Through `reads`: the sender's code at the launch block was asked with the receipt when it is a waiting creator.
      attribution: await readLaunchAttribution(reads, receipt, entry),
      txLogs: receipt.logs,
    }
  }

  async function poolStateAt(reads: PublicClient, candidate: LaunchCandidate, blockNumber: bigint): Promise<PoolState & { protocolFee: number }> {
    const at = { address: chain.addresses.stateView, abi: STATE_VIEW, args: [candidate.poolId], blockNumber } as const
    const [slot0, liquidity] = await Promise.all([
      reads.readContract({ ...at, functionName: 'getSlot0' }),
      reads.readContract({ ...at, functionName: 'getLiquidity' }),
    ])
    return { sqrtPriceX96: slot0[0], liquidity, protocolFee: slot0[2] }
  }

  /** Each bridge pool's packed slot0 protocolFee at `blockNumber` (none for a pair bought without a bridge). */
  async function bridgeProtocolFees(reads: PublicClient, paired: PairedAsset, blockNumber: bigint): Promise<number[]> {
    const slots = await Promise.all(
      (paired.bridge ?? []).map((key) =>
        reads.readContract({ address: chain.addresses.stateView, abi: STATE_VIEW, functionName: 'getSlot0', args: [poolIdOf(key)], blockNumber }),
      ),
    )
    return slots.map((slot) => slot[2])
  }

  async function readTokenMeta(reads: PublicClient, token: Address) {
    const [name, symbol, decimals, totalSupply] = await Promise.all([
      reads.readContract({ address: token, abi: erc20Abi, functionName: 'name' }),
      reads.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' }),
      reads.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }),
      reads.readContract({ address: token, abi: erc20Abi, functionName: 'totalSupply' }),
    ])
    return { name, symbol, decimals, totalSupply }
  }

  /** What a bound launch's record reads, all at once (through `reads`: the memo shares them with the reads ahead). */
  function completionReads(reads: PublicClient, adapter: LaunchpadAdapter, candidate: LaunchCandidate, stateAt: bigint) {
    return Promise.all([
      adapter.loadFeeSchedule(reads, candidate),
      readTokenMeta(reads, candidate.token),
      poolStateAt(reads, candidate, stateAt),
      bridgeProtocolFees(reads, candidate.paired, stateAt),
    ])
  }

  // The logs whose reads ahead started, per block memo client (the block's reads): the block's prefetch starts them and
  // `decode` asks again with the same client, which found them under way but decoded the log provisionally and built
  // every completion read a second time (~2-4 ms of the launch's event loop before its receipt in the split bench's CPU
  // profile, docs/execution.md §8, "The launch tick's candidates primed and its locks taken as one").
  const readsAhead = new WeakMap<PublicClient, Set<string>>()
  function readAhead(entry: Log, blockTimestamp: bigint, ahead: LaunchReadsAhead, onCandidate?: (candidate: LaunchCandidate) => void): void {
    const adapter = adapterOf(entry)
    if (!adapter || entry.transactionHash === null) return
    const started = readsAhead.get(ahead.client) ?? readsAhead.set(ahead.client, new Set()).get(ahead.client)!
    const key = `${entry.transactionHash}:${entry.logIndex}`
    if (started.has(key)) return
    started.add(key)
    ahead.client.getTransactionReceipt({ hash: entry.transactionHash }).catch(() => undefined)
    readAheadOfReceipt(
      adapter,
      entry,
      blockTimestamp,
      ahead,
      (candidate) => completionReads(ahead.client, adapter, candidate, candidate.blockNumber),
      onCandidate,
    )
  }

  return {
    adapterOf,
    waitingLaunchpads: () => deps.waiting?.launchpads() ?? waitingLaunchpads(store, chain.key),
    readAhead,
    async decode(entry, blockTimestamp, ahead) {
      const adapter = adapterOf(entry)
      if (!adapter) return null
      if (ahead) readAhead(entry, blockTimestamp, ahead)
      const ctx = await launchContext(entry, blockTimestamp, ahead?.client ?? client)
      stage('indexer.launchContext')
      const decoded = await adapter.decodeLaunch(entry, ctx)
      stage('indexer.decodeLaunch')
      return decoded
    },
    async complete(project, candidate, stateAt, prefetchPrice, reads) {
      const adapter = adapters.find((a) => a.id === candidate.launchpad)
      if (!adapter) throw new Error(`no ${candidate.launchpad} adapter on ${chain.key}`)
      stage('indexer.bound')
      void prefetchPrice(candidate.paired).catch(() => undefined)
      const [schedule, meta, state, bridgeFees] = await completionReads(reads ?? client, adapter, candidate, stateAt)
      stage('indexer.feeScheduleMetaLiquidity')
      const launched: LaunchRecord = {
        slug: project.slug,
        chain: chain.key,
        launchpad: candidate.launchpad,
        token: candidate.token,
        symbol: candidate.symbol ?? meta.symbol,
        name: candidate.name ?? meta.name,
        decimals: meta.decimals,
        totalSupply: meta.totalSupply.toString(),
        // The bridge pools' protocol fees as of the launch (later changes: ProtocolFeeUpdated, chain-indexer.ts).
        paired: candidate.paired.bridge ? withBridgeProtocolFees(candidate.paired, bridgeFees) : candidate.paired,
        poolKey: candidate.poolKey,
        poolId: candidate.poolId,
        feeSources: candidate.feeSources,
        feeSchedule: schedule,
        blockNumber: candidate.blockNumber.toString(),
        blockHash: candidate.blockHash,
        txHash: candidate.txHash,
        launchedAt: candidate.launchedAt * 1000,
      }
      // The pool's v4 protocol fee as of the launch (0 unless its controller already set one; later changes arrive as
      // ProtocolFeeUpdated, chain-indexer.ts).
      const record = withLaunchProtocolFee(launched, state.protocolFee)
      return { record, project, state: { sqrtPriceX96: state.sqrtPriceX96, liquidity: state.liquidity } }
    },
  }
}
