import type { KnownLaunchPools } from '../../src/domain/launches/known-launch-pools.ts'
import { DEFAULT_SHARED_DEPLOYERS } from '../../src/launchpads/shared-deployers.ts'
import type { PublicClient } from 'viem'
import { blocksIn, TIMING_SECONDS } from '../../src/chain/block-seconds.ts'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import type { Logger } from '../../src/common/logger.ts'
import type { Journal } from '../../src/journal/journal.ts'
import type { LaunchpadAdapter } from '../../src/launchpads/launchpad-adapter.ts'
import type { Store } from '../../src/store/open-store.ts'
import { createRealtimeSync, type RealtimeSync, type SocketState } from '../../src/sync/realtime-sync.ts'
import { loadBlockRef } from '../../src/sync/sync-types.ts'
import { pollingMsFor, socketGapMsFor } from '../../src/sync/sync-timing.ts'
import { createWaitingProjects, type WaitingProjects } from './waiting-projects.ts'
import { type ChainIndexer, createChainIndexer, type LaunchLogsArrival, toStoredCheckpoint } from './chain-indexer.ts'
import type { TickBus } from './tick-bus.ts'

/** The longest wait between retries of a chain that keeps failing. */
export const MAX_RETRY_DELAY_MS = 30_000

/** The wait before retrying after `failures` consecutive failures: base, 2 x base, 4 x base ... at most 30 s. */
export const retryDelayMs = (failures: number, baseMs: number): number => Math.min(baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 16), MAX_RETRY_DELAY_MS)

export interface ChainIndexerConfig {
  chain: ChainConfig
  /** HTTP client (all reads); optional WebSocket client for new-head notifications. */
  client: PublicClient
  wsClient?: PublicClient | undefined
  adapters: LaunchpadAdapter[]
  /** First block on a fresh start (no checkpoint): default the current head. */
  startBlock?: bigint | undefined
  /** This chain's seconds per block (src/chain/block-seconds.ts); default `IndexerDeps.blockTimeSeconds`. */
  blockSeconds?: number | undefined
  /** The launchpads' known pool configurations on this chain (src/launchpads/known-launch-pools.ts); absent: not checked. */
  knownPools?: KnownLaunchPools | undefined
}

export interface IndexerDeps {
  store: Store
  journal: Journal
  chains: ChainIndexerConfig[]
  ticks: TickBus
  logger: Logger
  /** Blocks kept by hash for reorg detection (default: TIMING_SECONDS.finality in the chain's blocks, 12 of 2 s). */
  confirmations?: number
  /** HTTP polling while no socket delivers heads (default: half a block, 50-500 ms: src/sync/sync-timing.ts). */
  pollingIntervalMs?: number
  /** The sync's socketSilenceMs (default its own, 30 s): a test that must not outwait it sets it long. */
  socketSilenceMs?: number
  /** Seconds between blocks for chains that do not name theirs, to time the NEXT block (default 2). */
  blockTimeSeconds?: number
  now?: () => number
  /** A launched pool is re-priced at least every this many blocks, swaps or not (default: TIMING_SECONDS.heartbeat in blocks). */
  heartbeatBlocks?: number
  /** Deployers shared by many creators: a project registered with one binds only by expected token or confirmation. */
  sharedDeployers?: readonly string[]
  /** Pause before re-reading a block whose processing failed (default 1 s). */
  retryDelayMs?: number
  /** Metrics hook: a block holding launchpad logs arrived from the sync (before any processing). */
  onLaunchLogs?: (info: LaunchLogsArrival) => void
  /** Metrics hook: a stage of a launch block finished (performance.now() time), for the launch-latency benchmark. */
  onStage?: (stage: string, at: number) => void
  /** Each chain's head as the sync reads it every round (shared: the readiness probe need not fetch it again). */
  onHead?: (chain: ChainKey, head: bigint) => void
  /**
   * Whether the launch logs pushed over the socket (a `logs` subscription) start their launches' reads ahead of their
   * block (default true where a wsClient is given; false: the socket only wakes the sync, as before).
   */
  logHints?: boolean
  /** A chain's new-head websocket came up, went down, or never connected (a warning is logged; metrics). */
  onSocket?: (chain: ChainKey, state: SocketState) => void
}

export interface Indexer {
  /** Resolves once every chain has processed its head at the time of the call (tests use it to wait). */
  caughtUp(chain: ChainKey, blockNumber: bigint): Promise<void>
  stop(): Promise<void>
}

/**
 * The launch indexer: per chain, a realtime sync over the launchpads' factories and the v4 PoolManager, feeding a
 * chain indexer (chain-indexer.ts) that records each block's effects (launch records, the projects' launch marks,
 * price ticks, the checkpoint) in one atomic write and reverts a reorg's in one write. Ticks go to the executor after
 * they are stored. A block whose processing fails is delivered again from the stored checkpoint.
 */
export async function startIndexer(deps: IndexerDeps): Promise<Indexer> {
  const { journal } = deps
  const log = deps.logger.child({ component: 'indexer' })
  const now = deps.now ?? Date.now
  const syncs: RealtimeSync[] = []
  const loops: Promise<void>[] = []
  const waitingProjects: WaitingProjects[] = []
  const processed = new Map<ChainKey, bigint>()
  const waiters: Array<{ chain: ChainKey; block: bigint; resolve: () => void }> = []
  let stopped = false
  const stopping = new AbortController()
  const sleepUnlessStopped = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        stopping.signal.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      stopping.signal.addEventListener('abort', done)
    })

  const blockSecondsOf = (config: ChainIndexerConfig): number => config.blockSeconds ?? deps.blockTimeSeconds ?? 2

  const markProcessed = (chain: ChainKey, block: bigint) => {
    processed.set(chain, block)
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i]!
      if (w.chain === chain && w.block <= block) {
        waiters.splice(i, 1)
        w.resolve()
      }
    }
  }

  const openSync = async (config: ChainIndexerConfig, indexer: ChainIndexer): Promise<RealtimeSync> => {
    // Always from the stored checkpoint: after a failed block nothing of it was written, so it is delivered again.
    const stored = await journal.getCheckpoint(config.chain.key)
    const sync = createRealtimeSync({
      client: config.client,
      wsClient: config.wsClient,
      addresses: [...indexer.addresses],
      confirmations: deps.confirmations ?? blocksIn(TIMING_SECONDS.finality, blockSecondsOf(config)),
      pollingIntervalMs: deps.pollingIntervalMs ?? pollingMsFor(blockSecondsOf(config)),
      socketGapMs: socketGapMsFor(blockSecondsOf(config)),
      ...(deps.socketSilenceMs === undefined ? {} : { socketSilenceMs: deps.socketSilenceMs }),
      resume: stored
        ? { finalized: loadBlockRef(stored.finalized), unfinalized: stored.unfinalized.map(loadBlockRef), history: (stored.history ?? []).map(loadBlockRef) }
        : undefined,
      startBlock: config.startBlock,
      logger: log,
      onHead: deps.onHead ? (head) => deps.onHead?.(config.chain.key, head) : undefined,
      onSocket: deps.onSocket ? (state) => deps.onSocket?.(config.chain.key, state) : undefined,
      // Over the socket, the launch logs pushed as they are mined: hints that start a launch's reads a round early
      // (chain-indexer.ts onLogHint); the blocks' logs are still read and checked as without them.
      ...(config.wsClient && deps.logHints !== false ? { logHints: { filters: indexer.hintFilters, onLog: indexer.onLogHint } } : {}),
    })
    syncs.push(sync)
    return sync
  }

  /** One chain's loop: events from a sync to the chain indexer; a failure reopens the sync from the checkpoint. */
  async function run(config: ChainIndexerConfig, indexer: ChainIndexer): Promise<void> {
    const key = config.chain.key
    // Consecutive failures without a processed block: the retry waits longer each time (1 s, 2 s, 4 s ... 30 s).
    let failures = 0
    while (!stopped) {
      const sync = await openSync(config, indexer)
      // stop() may have run while the checkpoint was read, before this sync was registered.
      if (stopped) {
        await sync.stop()
        break
      }
      try {
        for await (const event of sync.events()) {
          if (event.type === 'block') {
            await indexer.onBlock(event)
            markProcessed(key, event.block.number)
            failures = 0
          } else if (event.type === 'reorg') {
            await indexer.onReorg(event)
          } else {
            await deps.store.batch([journal.putCheckpoint(toStoredCheckpoint(key, event.checkpoint, now()))])
          }
        }
      } catch (error) {
        if (stopped) break
        // A block that could not be processed (RPC down mid-block, a store error) is retried from the checkpoint.
        failures++
        const delayMs = retryDelayMs(failures, deps.retryDelayMs ?? 1_000)
        const foreign = error instanceof PrebuyError && error.code === 'reorg_too_deep'
        log.error(
          { err: error, chain: key, failures, retryInMs: delayMs },
          foreign
            ? 'the chain has none of the blocks the indexer processed: check the RPC URL points at the same chain (or reset the data dir of a reset devnet)'
            : 'indexer failed on a block; retrying from the checkpoint',
        )
        await sync.stop()
        syncs.splice(syncs.indexOf(sync), 1)
        await sleepUnlessStopped(delayMs)
      }
    }
  }

  const requested = new Map<ChainKey, Set<string>>()
  for (const config of deps.chains) {
    requested.set(config.chain.key, new Set())
    const waiting = createWaitingProjects(deps.store, config.chain.key)
    waitingProjects.push(waiting)
    const indexer = await createChainIndexer({
      store: deps.store,
      waiting,
      journal,
      chain: config.chain,
      client: config.client,
      adapters: config.adapters,
      ticks: deps.ticks,
      log,
      now,
      stage: (name) => deps.onStage?.(name, performance.now()),
      blockTimeSeconds: blockSecondsOf(config),
      heartbeatBlocks: deps.heartbeatBlocks ?? blocksIn(TIMING_SECONDS.heartbeat, blockSecondsOf(config)),
      // The known shared deployers (src/launchpads/shared-deployers.ts) and the configured ones.
      sharedDeployers: new Set([...DEFAULT_SHARED_DEPLOYERS.map((d) => d.address), ...(deps.sharedDeployers ?? [])].map((address) => address.toLowerCase())),
      onLaunchLogs: deps.onLaunchLogs,
      requested: requested.get(config.chain.key)!,
      ...(config.knownPools ? { knownPools: config.knownPools } : {}),
    })
    loops.push(run(config, indexer))
  }
  // The executor's requests (tick-bus.ts TickRequest): a tick of launches on the chain's next processed block.
  const unsubscribe = deps.ticks.onRequest((request) => {
    for (const slug of request.slugs) requested.get(request.chain)?.add(slug)
  })

  return {
    caughtUp: (chain, block) =>
      new Promise<void>((resolve) => {
        if ((processed.get(chain) ?? -1n) >= block) return resolve()
        waiters.push({ chain, block, resolve })
      }),
    async stop() {
      stopped = true
      unsubscribe()
      stopping.abort()
      await Promise.all(syncs.map((s) => s.stop()))
      await Promise.all(loops)
      for (const waiting of waitingProjects) waiting.stop()
    },
  }
}
