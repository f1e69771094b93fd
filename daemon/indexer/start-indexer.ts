import { decodeEventLog, erc20Abi, getAddress, parseAbi, type Address, type Log, type PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import type { Logger } from '../../src/common/logger.ts'
import type { ProjectRecord } from '../../src/domain/records.ts'
import type { Journal } from '../../src/journal/journal.ts'
import type { IndexerCheckpoint, LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'
import type { LaunchCandidate, LaunchContext, LaunchpadAdapter } from '../../src/launchpads/launchpad-adapter.ts'
import { loadLaunchContext } from '../../src/launchpads/load-launch-context.ts'
import { POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
import { PROJECT_LOCK } from '../../src/services/project-service.ts'
import { put, type Store, type StoreOperation } from '../../src/store/open-store.ts'
import { readAll } from '../../src/store/paginate.ts'
import { createRealtimeSync, type RealtimeSync } from '../../src/sync/realtime-sync.ts'
import { loadBlockRef, storeBlockRef, type BlockEvent, type ReorgEvent, type SyncCheckpoint } from '../../src/sync/sync-types.ts'
import { computePriceTick, needsBlockTicks, type PoolState } from './compute-price-tick.ts'
import type { TickBus } from './tick-bus.ts'

export interface ChainIndexerConfig {
  chain: ChainConfig
  /** HTTP client (all reads); optional WebSocket client for new-head notifications. */
  client: PublicClient
  wsClient?: PublicClient | undefined
  adapters: LaunchpadAdapter[]
  /** First block on a fresh start (no checkpoint): default the current head. */
  startBlock?: bigint | undefined
}

export interface IndexerDeps {
  store: Store
  journal: Journal
  chains: ChainIndexerConfig[]
  ticks: TickBus
  logger: Logger
  /** Blocks kept by hash for reorg detection (default 12). */
  confirmations?: number
  pollingIntervalMs?: number
  /** Seconds between blocks, to time the NEXT block (default 2, Base). */
  blockTimeSeconds?: number
  now?: () => number
  /** A launched pool is re-priced at least every this many blocks, swaps or not (default 30). */
  heartbeatBlocks?: number
  /** Pause before re-reading a block whose processing failed (default 1 s). */
  retryDelayMs?: number
  /** Metrics hook: a block holding launchpad logs arrived from the sync (before any processing). */
  onLaunchLogs?: (info: { chain: ChainKey; blockNumber: bigint; arrivedAt: number }) => void
  /** Metrics hook: a stage of a launch block finished (performance.now() time), for the launch-latency benchmark. */
  onStage?: (stage: string, at: number) => void
}

export interface Indexer {
  /** Resolves once every chain has processed its head at the time of the call (tests use it to wait). */
  caughtUp(chain: ChainKey, blockNumber: bigint): Promise<void>
  stop(): Promise<void>
}

const V3_SLOT0 = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function token0() view returns (address)',
])

const toStoredCheckpoint = (chain: ChainKey, checkpoint: SyncCheckpoint, at: number): IndexerCheckpoint => ({
  chain,
  finalized: storeBlockRef(checkpoint.finalized),
  unfinalized: checkpoint.unfinalized.map(storeBlockRef),
  updatedAt: at,
})

/**
 * The launch indexer: per chain, a realtime sync over the launchpads' factories and the v4 PoolManager. Each block's
 * effects (launch records, the projects' launch marks, price ticks, the checkpoint) are one atomic write; a reorg
 * reverts what the removed blocks wrote in one atomic write. Ticks go to the executor after they are stored.
 */
export async function startIndexer(deps: IndexerDeps): Promise<Indexer> {
  const { store, journal } = deps
  const log = deps.logger.child({ component: 'indexer' })
  const blockTime = deps.blockTimeSeconds ?? 2
  const heartbeatBlocks = deps.heartbeatBlocks ?? 30
  const now = deps.now ?? Date.now
  const stage = (name: string) => deps.onStage?.(name, performance.now())
  const syncs: RealtimeSync[] = []
  const loops: Promise<void>[] = []
  const processed = new Map<ChainKey, bigint>()
  const waiters: Array<{ chain: ChainKey; block: bigint; resolve: () => void }> = []
  let stopped = false

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

  for (const config of deps.chains) {
    const key = config.chain.key
    const client = config.client
    // Launched pools on this chain by pool id, with the pool state of their latest tick.
    const pools = new Map<string, { launch: LaunchRecord; state: PoolState; lastTick: bigint }>()
    for (const { value } of await readAll(journal.sub.launches, `${key}!`)) {
      const latest = await journal.latestTick(value.slug)
      pools.set(value.poolId.toLowerCase(), {
        launch: value,
        state: { sqrtPriceX96: BigInt(latest?.sqrtPriceX96 ?? '0'), liquidity: BigInt(latest?.liquidity ?? '0') },
        lastTick: BigInt(latest?.blockNumber ?? value.blockNumber),
      })
    }
    const wethIsToken0 =
      (await client.readContract({ address: config.chain.addresses.ethUsdPool, abi: V3_SLOT0, functionName: 'token0' })).toLowerCase() ===
      config.chain.addresses.weth.toLowerCase()
    const poolManager = config.adapters[0]?.poolManager ?? config.chain.addresses.poolManager
    const launchAddresses = config.adapters.map((a) => a.launchEvent.address.toLowerCase())
    let primed = false
    const openSync = async (): Promise<RealtimeSync> => {
      // Always from the stored checkpoint: after a failed block nothing of it was written, so it is delivered again.
      const stored = await journal.getCheckpoint(key)
      const sync = createRealtimeSync({
        client,
        wsClient: config.wsClient,
        addresses: [...new Set([...config.adapters.map((a) => getAddress(a.launchEvent.address)), getAddress(poolManager)])],
        confirmations: deps.confirmations ?? 12,
        pollingIntervalMs: deps.pollingIntervalMs ?? 500,
        resume: stored ? { finalized: loadBlockRef(stored.finalized), unfinalized: stored.unfinalized.map(loadBlockRef) } : undefined,
        startBlock: config.startBlock,
        logger: log,
      })
      syncs.push(sync)
      return sync
    }

    async function matchProject(candidate: LaunchCandidate): Promise<ProjectRecord | undefined> {
      const creators = new Set(candidate.creatorCandidates.map((c) => c.toLowerCase()))
      for (const { value } of await readAll(store.sub.projects, '')) {
        if (value.chain !== key || value.launchpad !== candidate.launchpad || value.launch !== null) continue
        if (creators.has(value.creatorAddress.toLowerCase())) return value
      }
      return undefined
    }

    async function pendingLaunchpads(): Promise<Set<string>> {
      const out = new Set<string>()
      for (const { value } of await readAll(store.sub.projects, '')) {
        if (value.chain === key && value.launch === null) out.add(value.launchpad)
      }
      return out
    }

    async function readTokenMeta(token: Address) {
      const [name, symbol, decimals, totalSupply] = await Promise.all([
        client.readContract({ address: token, abi: erc20Abi, functionName: 'name' }),
        client.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' }),
        client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }),
        client.readContract({ address: token, abi: erc20Abi, functionName: 'totalSupply' }),
      ])
      return { name, symbol, decimals, totalSupply }
    }

    /** decodeLaunch's context: the transaction's receipt; the block's time is already known from the sync. */
    async function launchContext(entry: Log, blockTimestamp: bigint): Promise<LaunchContext> {
      if (entry.transactionHash === null || entry.blockNumber === null || entry.blockHash === null) return loadLaunchContext(client, entry)
      const receipt = await client.getTransactionReceipt({ hash: entry.transactionHash })
      return {
        client,
        txHash: entry.transactionHash,
        blockNumber: entry.blockNumber,
        blockHash: entry.blockHash,
        blockTimestamp: Number(blockTimestamp),
        txFrom: receipt.from,
        txLogs: receipt.logs,
      }
    }

    async function ethUsdAt(blockNumber: bigint) {
      const slot0 = await client.readContract({ address: config.chain.addresses.ethUsdPool, abi: V3_SLOT0, functionName: 'slot0', blockNumber })
      return { sqrtPriceX96: slot0[0], wethIsToken0 }
    }

    async function onBlock(event: BlockEvent): Promise<void> {
      const { block } = event
      deps.ticks.publish({ type: 'block', chain: key, blockNumber: block.number })
      if (deps.onLaunchLogs && event.logs.some((l) => launchAddresses.includes(l.address.toLowerCase()))) {
        deps.onLaunchLogs({ chain: key, blockNumber: block.number, arrivedAt: performance.now() })
      }
      const ops: StoreOperation[] = []
      const ticks: Array<{ tick: PriceTick; launch: LaunchRecord }> = []
      const newLaunches: LaunchRecord[] = []
      const launchProjects: ProjectRecord[] = []
      // One read per block, started by the first need (a launch starts it early, alongside its own reads).
      let ethUsd: ReturnType<typeof ethUsdAt> | undefined
      const getEthUsd = () => (ethUsd ??= ethUsdAt(block.number))
      const swapped = new Set<string>()

      // Launchpads with a registered project still waiting to launch on this chain: launch logs of the others (most
      // launches on a busy chain are not ours) are skipped without fetching their receipts.
      let waiting: Set<string> | undefined
      const waitingLaunchpads = async () => (waiting ??= await pendingLaunchpads())
      for (const entry of event.logs) {
        const address = entry.address.toLowerCase()
        const adapter = config.adapters.find((a) => a.launchEvent.address.toLowerCase() === address)
        if (adapter && (await waitingLaunchpads()).has(adapter.id)) {
          const launch = await detectLaunch(entry, block.timestamp, getEthUsd)
          if (launch) {
            newLaunches.push(launch.record)
            launchProjects.push(launch.project)
            pools.set(launch.record.poolId.toLowerCase(), { launch: launch.record, state: launch.state, lastTick: block.number })
          }
        }
        if (address === poolManager.toLowerCase()) {
          const swap = decodeSwap(entry)
          const pool = swap && pools.get(swap.poolId.toLowerCase())
          if (swap && pool) {
            pool.state = { sqrtPriceX96: swap.sqrtPriceX96, liquidity: swap.liquidity }
            swapped.add(swap.poolId.toLowerCase())
            ticks.push({
              launch: pool.launch,
              tick: computePriceTick({
                launch: pool.launch,
                reason: 'swap',
                pool: pool.state,
                ethUsd: await getEthUsd(),
                block,
                logIndex: entry.logIndex ?? 0,
                blockTimeSeconds: blockTime,
                at: now(),
              }),
            })
          }
        }
      }
      for (const launch of newLaunches) {
        const pool = pools.get(launch.poolId.toLowerCase())!
        if (swapped.has(launch.poolId.toLowerCase())) continue
        ticks.push({
          launch,
          tick: computePriceTick({
            launch,
            reason: 'launch',
            pool: pool.state,
            ethUsd: await getEthUsd(),
            block,
            logIndex: -1,
            blockTimeSeconds: blockTime,
            at: now(),
          }),
        })
      }
      for (const [poolId, pool] of pools) {
        if (swapped.has(poolId) || newLaunches.includes(pool.launch) || BigInt(pool.launch.blockNumber) > block.number) continue
        // The first block after a (re)start re-prices every launched pool (orders placed or patched while we were down
        // are evaluated without waiting for a swap), and so does a heartbeat every `heartbeatBlocks` (an order patched
        // after the launch fee reached its floor is evaluated even in a quiet pool).
        const quiet = block.number - pool.lastTick < BigInt(heartbeatBlocks)
        if (primed && quiet && !needsBlockTicks(pool.launch, block.timestamp, blockTime)) continue
        ticks.push({
          launch: pool.launch,
          tick: computePriceTick({
            launch: pool.launch,
            reason: 'block',
            pool: pool.state,
            ethUsd: await getEthUsd(),
            block,
            logIndex: -1,
            blockTimeSeconds: blockTime,
            at: now(),
          }),
        })
      }

      if (newLaunches.length > 0) stage('indexer.ticksComputed')
      for (const launch of newLaunches) ops.push(...journal.putLaunch(launch))
      primed = true
      for (const { tick, launch } of ticks) {
        ops.push(...journal.putTick(tick))
        const pool = pools.get(launch.poolId.toLowerCase())
        if (pool) pool.lastTick = block.number
      }
      ops.push(journal.putCheckpoint(toStoredCheckpoint(key, event.checkpoint, now())))
      if (launchProjects.length > 0) {
        // The project's launch mark and the launch record land together, under the project service's lock.
        await store.mutex.run(PROJECT_LOCK, async () => {
          for (const [i, project] of launchProjects.entries()) {
            const launch = newLaunches[i]!
            const current = (await store.sub.projects.get(project.slug)) ?? project
            ops.push(
              put(store.sub.projects, project.slug, {
                ...current,
                launch: {
                  chain: key,
                  tokenAddress: launch.token,
                  symbol: launch.symbol,
                  name: launch.name,
                  decimals: launch.decimals,
                  launchedAt: launch.launchedAt,
                  blockNumber: launch.blockNumber,
                  txHash: launch.txHash,
                },
                updatedAt: now(),
              }),
            )
          }
          await store.batch(ops)
        })
        for (const launch of newLaunches) log.info({ slug: launch.slug, chain: key, token: launch.token, block: launch.blockNumber }, 'launch detected')
      } else {
        await store.batch(ops)
      }
      if (newLaunches.length > 0) stage('indexer.blockWritten')
      for (const entry of ticks) deps.ticks.publish({ type: 'tick', tick: entry.tick, launch: entry.launch })
      deps.ticks.publish({ type: 'processed', chain: key, blockNumber: block.number, launched: newLaunches.map((launch) => launch.slug) })
    }

    async function detectLaunch(
      entry: Log,
      blockTimestamp: bigint,
      prefetchEthUsd: () => Promise<unknown>,
    ): Promise<{ record: LaunchRecord; project: ProjectRecord; state: PoolState } | undefined> {
      const adapter = config.adapters.find((a) => a.launchEvent.address.toLowerCase() === entry.address.toLowerCase())
      if (!adapter) return undefined
      const ctx = await launchContext(entry, blockTimestamp)
      stage('indexer.launchContext')
      const candidate = await adapter.decodeLaunch(entry, ctx)
      stage('indexer.decodeLaunch')
      if (!candidate) return undefined
      const project = await matchProject(candidate)
      stage('indexer.matchProject')
      if (!project) {
        log.debug({ token: candidate.token, launchpad: candidate.launchpad }, 'launch of an unregistered creator')
        return undefined
      }
      // Every read the launch needs in one round: fee schedule, token metadata, pool liquidity, and the block's ETH/USD
      // (the launch tick's), all independent.
      void prefetchEthUsd().catch(() => undefined)
      const [schedule, meta, liquidity] = await Promise.all([
        adapter.loadFeeSchedule(client, candidate),
        readTokenMeta(candidate.token),
        client
          .readContract({
            address: config.chain.addresses.stateView,
            abi: STATE_VIEW,
            functionName: 'getLiquidity',
            args: [candidate.poolId],
            blockNumber: candidate.blockNumber,
          })
          .catch(() => 0n),
      ])
      stage('indexer.feeScheduleMetaLiquidity')
      const record: LaunchRecord = {
        slug: project.slug,
        chain: key,
        launchpad: candidate.launchpad,
        token: candidate.token,
        symbol: candidate.symbol ?? meta.symbol,
        name: candidate.name ?? meta.name,
        decimals: meta.decimals,
        totalSupply: meta.totalSupply.toString(),
        pairedAsset: candidate.pairedToken,
        poolKey: candidate.poolKey,
        poolId: candidate.poolId,
        feeSchedule: schedule,
        blockNumber: candidate.blockNumber.toString(),
        blockHash: candidate.blockHash,
        txHash: candidate.txHash,
        launchedAt: candidate.launchedAt * 1000,
      }
      return { record, project, state: { sqrtPriceX96: candidate.initialSqrtPriceX96, liquidity } }
    }

    async function onReorg(event: ReorgEvent): Promise<void> {
      const reverted = await journal.launchesAbove(key, event.ancestor.number)
      const ops: StoreOperation[] = [...(await journal.ticksAboveOps(key, event.ancestor.number))]
      for (const launch of reverted) ops.push(...journal.deleteLaunch(launch))
      ops.push(journal.putCheckpoint(toStoredCheckpoint(key, event.checkpoint, now())))
      await store.mutex.run(PROJECT_LOCK, async () => {
        for (const launch of reverted) {
          const project = await store.sub.projects.get(launch.slug)
          if (project?.launch && project.launch.tokenAddress.toLowerCase() === launch.token.toLowerCase()) {
            ops.push(put(store.sub.projects, launch.slug, { ...project, launch: null, updatedAt: now() }))
          }
        }
        await store.batch(ops)
      })
      for (const launch of reverted) {
        pools.delete(launch.poolId.toLowerCase())
        log.warn({ slug: launch.slug, chain: key, block: launch.blockNumber }, 'launch reverted by a reorg')
        deps.ticks.publish({ type: 'launch_reverted', launch })
      }
      // Pool states fall back to the newest tick that survived.
      for (const pool of pools.values()) {
        const latest = await journal.latestTick(pool.launch.slug)
        if (latest) pool.state = { sqrtPriceX96: BigInt(latest.sqrtPriceX96), liquidity: BigInt(latest.liquidity) }
      }
      deps.ticks.publish({ type: 'reorg', chain: key, ancestor: event.ancestor.number })
    }

    loops.push(
      (async () => {
        while (!stopped) {
          const sync = await openSync()
          // stop() may have run while the checkpoint was read, before this sync was registered.
          if (stopped) {
            await sync.stop()
            break
          }
          try {
            for await (const event of sync.events()) {
              if (event.type === 'block') {
                await onBlock(event)
                markProcessed(key, event.block.number)
              } else if (event.type === 'reorg') {
                await onReorg(event)
              } else {
                await store.batch([journal.putCheckpoint(toStoredCheckpoint(key, event.checkpoint, now()))])
              }
            }
          } catch (error) {
            if (stopped) break
            // A block that could not be processed (RPC down mid-block, a store error) is retried from the checkpoint.
            log.error({ err: error, chain: key }, 'indexer failed on a block; retrying from the checkpoint')
            await sync.stop()
            syncs.splice(syncs.indexOf(sync), 1)
            await new Promise((resolve) => setTimeout(resolve, deps.retryDelayMs ?? 1_000))
          }
        }
      })(),
    )
  }

  return {
    caughtUp: (chain, block) =>
      new Promise<void>((resolve) => {
        if ((processed.get(chain) ?? -1n) >= block) return resolve()
        waiters.push({ chain, block, resolve })
      }),
    async stop() {
      stopped = true
      await Promise.all(syncs.map((s) => s.stop()))
      await Promise.all(loops)
    },
  }
}

const STATE_VIEW = parseAbi(['function getLiquidity(bytes32 poolId) view returns (uint128)'])

function decodeSwap(entry: Log): { poolId: string; sqrtPriceX96: bigint; liquidity: bigint } | undefined {
  try {
    const { eventName, args } = decodeEventLog({ abi: POOL_MANAGER_EVENTS, data: entry.data, topics: entry.topics, strict: true })
    if (eventName !== 'Swap') return undefined
    return { poolId: args.id, sqrtPriceX96: args.sqrtPriceX96, liquidity: args.liquidity }
  } catch {
    return undefined // another PoolManager event
  }
}
