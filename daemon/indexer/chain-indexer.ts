import type { KnownLaunchPools } from '../../src/domain/launches/known-launch-pools.ts'
import { type Address, isAddressEqual, type Log, type PublicClient, toEventSelector } from 'viem'
import { decodeEventLogCached } from '../../src/chain/decode-event-log.ts'
import type { PushedLog } from '../../src/sync/pushed-log.ts'
import type { LogHintFilter } from '../../src/sync/realtime-sync.ts'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import type { Logger } from '../../src/common/logger.ts'
import type { ProjectRecord } from '../../src/domain/records.ts'
import type { Journal } from '../../src/journal/journal.ts'
import type { IndexerCheckpoint, LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'
import type { LaunchCandidate, LaunchpadAdapter, PairedAsset } from '../../src/launchpads/launchpad-adapter.ts'
import { type FeeSchedule, scheduleNeedsRefresh } from '../../src/pricing/fee-schedule.ts'
import { type Fraction, toNumber } from '../../src/pricing/fraction.ts'
import { POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
import { decodeProtocolFeeUpdated } from '../../src/launchpads/protocol-fee-updated.ts'
import { withLaunchProtocolFee } from '../../src/pricing/protocol-fee.ts'
import { withBridgeHopProtocolFee } from '../../src/pricing/bridge-fee.ts'
import { poolIdOf } from '../../src/launchpads/pool-id.ts'
import { PROJECT_LOCK } from '../../src/services/project-service.ts'
import type { Store, StoreOperation } from '../../src/store/open-store.ts'
import { projectLaunchOps } from '../../src/store/project-writes.ts'
import { blockTimeMs } from '../../src/chain/block-time-ms.ts'
import { type BlockEvent, type BlockRef, type ReorgEvent, type SyncCheckpoint, storeBlockRef } from '../../src/sync/sync-types.ts'
import { computePriceTick, needsBlockTicks, nextBlockAfter, pairedUsdAtomsOf, type TickInput } from '../../src/pricing/price-tick.ts'
import { createPairedPrices, type PairedPrices } from './paired-prices.ts'
import { createLaunchDetector, type DetectedLaunch } from './detect-launch.ts'
import { createLaunchIntake, type IntakeSession } from './launch-intake.ts'
import type { WaitingProjects } from './waiting-projects.ts'
import { createLaunchMigrations } from './follow-launch-migrations.ts'
import { launchBeforeMigrationsAbove } from '../../src/launchpads/zora/zora-migration.ts'
import { type LaunchedPool, type LaunchedPools, loadLaunchedPools, poolKeyOf, restorePoolStates } from './launched-pools.ts'
import type { TickBus } from './tick-bus.ts'

export const toStoredCheckpoint = (chain: ChainKey, checkpoint: SyncCheckpoint, at: number): IndexerCheckpoint => ({
  chain,
  finalized: storeBlockRef(checkpoint.finalized),
  unfinalized: checkpoint.unfinalized.map(storeBlockRef),
  history: checkpoint.history.map(storeBlockRef),
  updatedAt: at,
})

/** When a block with launch logs reached the indexer (see ChainIndexerDeps.onLaunchLogs). */
export interface LaunchLogsArrival {
  chain: ChainKey
  blockNumber: bigint
  /** performance.now() at arrival. */
  arrivedAt: number
  /** Wall-clock milliseconds from the block's time to the arrival. */
  sinceBlockMs: number
  /** Whether the block's time had milliseconds (Base's `timestampMs`), or only its whole second. */
  precise: boolean
}

export interface ChainIndexerDeps {
  store: Store
  journal: Journal
  chain: ChainConfig
  client: PublicClient
  adapters: readonly LaunchpadAdapter[]
  ticks: TickBus
  log: Logger
  now: () => number
  stage(name: string): void
  /** The chain's waiting projects, held in memory (waiting-projects.ts): a launch log's receipt goes out without a LevelDB read before it. */
  waiting: WaitingProjects
  /** Counts each block whose ETH/USD spot was outside the band of its TWAP (the daemon's metric). */
  onEthUsdOutOfBand?: (chain: ChainKey) => void
  blockTimeSeconds: number
  heartbeatBlocks: number
  /** Lower-cased deployers shared by many creators (config `launches.sharedDeployers`). */
  sharedDeployers: ReadonlySet<string>
  /** The launchpads' known pool configurations on this chain; absent: not checked. */
  knownPools?: KnownLaunchPools
  /**
   * A block with launch logs arrived: `arrivedAt` on the performance clock (for stage timings), and the block's time
   * against the wall clock when it arrived (`sinceBlockMs`: milliseconds from the RPC's `timestampMs` where the node
   * gives it, `precise`; else from the whole-second timestamp, up to a second more).
   */
  onLaunchLogs?: ((info: LaunchLogsArrival) => void) | undefined
  /**
   * The launches (slugs) owed a tick on the next processed block, quiet or not: start-indexer.ts adds those the executor
   * asks for once a reorg's revalidation put their orders back to active (tick-bus.ts TickRequest). Each stays until a
   * quiet tick of its pool takes it (one asked while a block is processed, after its quiet ticks, is the next block's).
   */
  requested?: Set<string>
}

export interface ChainIndexer {
  /** The contracts whose logs the sync delivers: the launchpads' launch emitters and the PoolManager. */
  addresses: readonly Address[]
  /**
   * The `logs` subscriptions whose pushes are hints (onLogHint): the launch emitters' logs, and the PoolManager's
   * `Initialize` (the provisional decoding reads the pool from it; its swaps, the bulk of its logs, are not asked).
   */
  hintFilters: readonly LogHintFilter[]
  /**
   * A pushed log (the sync's `logs` subscription): a hint only. A launch log of a block not yet processed starts the
   * reads its block's intake will make (launch-intake.ts `hint`) and the executor's reads ahead (launch_ahead), and the
   * launch block's ETH price; nothing is decided or written. Never throws.
   */
  onLogHint(log: PushedLog): void
  /**
   * One block's effects in one atomic write: launch records with their projects' launch marks, price ticks (per swap
   * of a launched pool, the launch itself, and per block while a fee decays or at a heartbeat), the checkpoint. The
   * ticks are published after the write.
   */
  onBlock(event: BlockEvent): Promise<void>
  /** Reverts what the removed blocks wrote (launches, their marks, ticks) with the new checkpoint, in one write. */
  onReorg(event: ReorgEvent): Promise<void>
}

/** The PoolManager's `Initialize`: the one PoolManager event the pushed hints ask for (ChainIndexer.hintFilters). */
const INITIALIZE_TOPIC = toEventSelector(POOL_MANAGER_EVENTS.find((e) => e.type === 'event' && e.name === 'Initialize')!)
const SWAP_TOPIC = toEventSelector(POOL_MANAGER_EVENTS.find((e) => e.type === 'event' && e.name === 'Swap')!).toLowerCase()

type PricedTick = { tick: PriceTick; launch: LaunchRecord }
/** What a tick is computed from, beyond the block and its ETH/USD price. */
type TickRequest = Pick<TickInput, 'launch' | 'reason' | 'pool' | 'logIndex'>
/** A tick, or undefined for a block the chain is already past (the pool is then owed a tick at the newest block). */
type Price = (request: TickRequest) => Promise<PricedTick | undefined>

/** A launched pool ticked less than a heartbeat ago: no block tick is due for it on that ground. */
const quietSince = (lastTick: bigint, blockNumber: bigint, heartbeatBlocks: number): boolean => blockNumber - lastTick < BigInt(heartbeatBlocks)

/** Why the block's ETH price is not its spot: eligibility got the safe side (src/pricing/eth-usd-band.ts). */
function outOfBandWarning(deps: Pick<ChainIndexerDeps, 'chain' | 'log' | 'onEthUsdOutOfBand'>): Parameters<typeof createPairedPrices>[2] {
  const key = deps.chain.key
  return (outcome, blockNumber) => {
    deps.onEthUsdOutOfBand?.(key)
    deps.log.warn(
      {
        chain: key,
        block: blockNumber,
        deviationBps: outcome.deviationBps,
        spot: toNumber(outcome.spot),
        twap: toNumber(outcome.twap),
        used: toNumber(outcome.price),
      },
      'ETH/USD spot outside its TWAP band: pricing at the safe side',
    )
  }
}

/** The chain's launch detector and intake (launch authenticity, reads ahead, hints), over the waiting projects held in memory. */
function launchIntakeOf(deps: ChainIndexerDeps) {
  const { store, journal, chain, client, log, now, stage, waiting } = deps
  const detector = createLaunchDetector({ store, chain, client, adapters: deps.adapters, stage, waiting })
  const intake = createLaunchIntake({
    store,
    waiting,
    journal,
    chain,
    client,
    detector,
    sharedDeployers: deps.sharedDeployers,
    ...(deps.knownPools ? { knownPools: deps.knownPools } : {}),
    log,
    now,
    blockSeconds: deps.blockTimeSeconds,
  })
  return { detector, intake }
}

/** The indexer's work on one chain: deciding what each block and reorg means, and recording it. */
export async function createChainIndexer(deps: ChainIndexerDeps): Promise<ChainIndexer> {
  const { store, journal, chain, client, log, now, stage } = deps
  const key = chain.key
  const pools: LaunchedPools = await loadLaunchedPools(journal, key)
  const { detector, intake } = launchIntakeOf(deps)
  const pairedPrices = await createPairedPrices(chain, client, outOfBandWarning(deps))
  const poolManager = deps.adapters[0]?.poolManager ?? chain.addresses.poolManager
  const launchAddresses = deps.adapters.map((a) => a.launchEvent.address)
  const migrations = createLaunchMigrations({ client, poolManager, stateView: chain.addresses.stateView })
  // The first block after a (re)start re-prices every launched pool.
  let primed = false
  // Pools whose ticks a block the chain was already past skipped (see onBlock), the launches among them.
  const owed = new Set<string>()
  const owedLaunches = new Set<string>()
  const blockSignals = blockAnnouncer(deps.ticks, key)
  let lastBlock: { number: bigint; timestamp: bigint } | undefined

  /** The launches a block holds and the ticks its swaps of launched pools make, in log order. */
  async function scanLogs(event: BlockEvent, session: IntakeSession, priced: Price) {
    const launches: DetectedLaunch[] = []
    const ticks: PricedTick[] = []
    const swapped = new Set<string>()
    const feeUpdated: LaunchRecord[] = []
    const tickOf = tickInto(ticks, priced)
    const addLaunches = (bound: readonly DetectedLaunch[]) => {
      for (const launch of bound) {
        launches.push(launch)
        pools.set(poolKeyOf(launch.record.poolId), { launch: launch.record, state: launch.state, lastTick: event.block.number })
      }
    }
    addLaunches(await session.due())
    let waiting: Promise<Set<string>> | undefined
    for (const entry of event.logs) {
      const adapter = detector.adapterOf(entry)
      waiting ??= adapter && detector.waitingLaunchpads()
      if (adapter && (await waiting)?.has(adapter.id)) addLaunches(await session.scan(entry, event.logs))
      if (!isAddressEqual(entry.address, poolManager)) continue
      // The pool's protocol fee set by the controller after launch (v4 pools start at 0): every later quote includes it.
      const feeUpdate = decodeProtocolFeeUpdated(entry)
      const feePool = feeUpdate && pools.get(poolKeyOf(feeUpdate.poolId))
      // A bridge pool's protocol fee (ETH/ZORA, a creator coin's pool): every launch bought through it counts it.
      for (const bridged of feeUpdate ? bridgedThrough(pools, feeUpdate.poolId, feeUpdate.protocolFee) : []) {
        feeUpdated.push(bridged.launch)
        swapped.add(poolKeyOf(bridged.launch.poolId))
        await tickOf({ launch: bridged.launch, reason: 'block', pool: bridged.state, logIndex: entry.logIndex ?? 0 })
      }
      if (feeUpdate && feePool) {
        feePool.launch = withLaunchProtocolFee(feePool.launch, feeUpdate.protocolFee)
        feeUpdated.push(feePool.launch)
        swapped.add(poolKeyOf(feeUpdate.poolId))
        await tickOf({ launch: feePool.launch, reason: 'block', pool: feePool.state, logIndex: entry.logIndex ?? 0 })
        continue
      }
      // A launched Zora coin's liquidity moved to a new pool (migrateLiquidity): from here on the launch is priced and
      // bought there; its record is written with the block (the one write path of launch records).
      const moved = await migrations.moved(entry, pools)
      for (const { launch, previousPoolId, state } of moved) {
        pools.delete(poolKeyOf(previousPoolId))
        pools.set(poolKeyOf(launch.poolId), { launch, state, lastTick: event.block.number })
        feeUpdated.push(launch)
        swapped.add(poolKeyOf(launch.poolId))
        await tickOf({ launch, reason: 'block', pool: state, logIndex: entry.logIndex ?? 0 })
        log.info({ slug: launch.slug, chain: key, from: previousPoolId, to: launch.poolId, block: event.block.number }, 'launch liquidity migrated')
      }
      if (moved.length > 0) continue
      const swap = decodeSwap(entry)
      const pool = swap && pools.get(poolKeyOf(swap.poolId))
      if (!swap || !pool) continue
      pool.state = { sqrtPriceX96: swap.sqrtPriceX96, liquidity: swap.liquidity }
      swapped.add(poolKeyOf(swap.poolId))
      await tickOf({ launch: pool.launch, reason: 'swap', pool: pool.state, logIndex: entry.logIndex ?? 0 })
    }
    return { launches, ticks, swapped, feeUpdated }
  }

  /**
   * Ticks of pools no swap priced in this block: a launch tick for each new launch, and a block tick for each launched
   * pool while its fee decays, on the first block after a (re)start (orders placed or patched while we were down are
   * evaluated without waiting for a swap), and at a heartbeat every `heartbeatBlocks` (an order patched after the
   * launch fee reached its floor is evaluated even in a quiet pool), and when the executor asked one (deps.requested; a
   * request is taken by the tick it makes: in a block the chain is past, `priced` owes that to the next head block).
   */
  async function quietTicks(event: BlockEvent, launches: readonly LaunchRecord[], swapped: ReadonlySet<string>, priced: Price) {
    const { block } = event
    const ticks: PricedTick[] = []
    const tickOf = tickInto(ticks, priced)
    for (const launch of launches) {
      if (swapped.has(poolKeyOf(launch.poolId))) continue
      await tickOf({ launch, reason: 'launch', pool: pools.get(poolKeyOf(launch.poolId))!.state, logIndex: -1 })
    }
    for (const [poolId, pool] of pools) {
      if (swapped.has(poolId) || launches.includes(pool.launch) || BigInt(pool.launch.blockNumber) > block.number) continue
      const asked = deps.requested?.delete(pool.launch.slug) === true
      const due = !primed || asked || owed.has(poolId) || !quietSince(pool.lastTick, block.number, deps.heartbeatBlocks)
      if (!due && !needsBlockTicks(pool.launch, block, deps.blockTimeSeconds)) continue
      await tickOf({ launch: pool.launch, reason: owedLaunches.has(poolId) ? 'launch' : 'block', pool: pool.state, logIndex: -1 })
    }
    return ticks
  }

  /** The block's write; the projects' launch marks land with their launch records, under the project service's lock. */
  async function recordBlock(
    event: BlockEvent,
    launches: readonly DetectedLaunch[],
    refreshed: readonly LaunchRecord[],
    ticks: readonly PricedTick[],
    intakeOps: readonly StoreOperation[],
  ): Promise<void> {
    const ops: StoreOperation[] = [...intakeOps]
    for (const record of refreshed) ops.push(...journal.putLaunch(record))
    for (const { record } of launches) ops.push(...journal.putLaunch(record))
    for (const { tick, launch } of ticks) {
      ops.push(...journal.putTick(tick))
      const pool = pools.get(poolKeyOf(launch.poolId))
      if (pool) pool.lastTick = event.block.number
    }
    ops.push(journal.putCheckpoint(toStoredCheckpoint(key, event.checkpoint, now())))
    if (launches.length === 0) return store.batch(ops)
    await store.mutex.run(PROJECT_LOCK, async () => {
      for (const { record, project } of launches) {
        const current: ProjectRecord = (await store.sub.projects.get(project.slug)) ?? project
        const mark = {
          chain: key,
          tokenAddress: record.token,
          symbol: record.symbol,
          name: record.name,
          decimals: record.decimals,
          launchedAt: record.launchedAt,
          blockNumber: record.blockNumber,
          txHash: record.txHash,
        }
        ops.push(...projectLaunchOps(store, current, mark, now()))
      }
      await store.batch(ops)
    })
    for (const { record } of launches) log.info({ slug: record.slug, chain: key, token: record.token, block: record.blockNumber }, 'launch detected')
  }

  return {
    addresses: [...new Set([...launchAddresses, poolManager])],
    ...logHints({ deps, intake, pairedPrices, emitters: [launchAddresses, poolManager], lastBlock: () => lastBlock }),
    async onBlock(event) {
      const { block } = event
      lastBlock = { number: block.number, timestamp: block.timestamp }
      // A block the chain is already past (the sync catching up): recorded as always, but its ticks and the executor's
      // per-block signals are coalesced into the next head block, which ticks every pool this one would have (its
      // buys would land in a block already mined; the executor only needs the latest state). docs/execution.md §2.
      const stale = event.head !== undefined && block.number < event.head
      const hasLaunchLogs = event.logs.some((l) => detector.adapterOf(l) !== undefined)
      // A launch read behind the head is ticked ahead at the head: the executor's warm reads of the head start now.
      const ahead = stale && hasLaunchLogs ? event.headBlock : undefined
      if (!stale || ahead) blockSignals.announce(ahead ?? block, nextBlockAfter(ahead ?? block, deps.blockTimeSeconds).timestamp)
      if (hasLaunchLogs) reportLaunchLogs(deps, block)
      // One price read per paired asset per block, started by the first need (a launch starts it early, alongside its
      // own reads).
      const prices = new Map<string, Promise<Fraction>>()
      const pairedPrice = (paired: PairedAsset): Promise<Fraction> => {
        const id = `${paired.kind}:${paired.address.toLowerCase()}`
        let price = prices.get(id)
        if (!price) {
          price = pairedPrices.usd(paired, block.number, block.timestamp)
          prices.set(id, price)
        }
        return price
      }
      const priced: Price = async (input) => {
        if (stale) {
          owed.add(poolKeyOf(input.launch.poolId))
          if (input.reason === 'launch') owedLaunches.add(poolKeyOf(input.launch.poolId))
          return undefined
        }
        return {
          launch: input.launch,
          tick: computePriceTick({ ...input, pairedUsd: await pairedPrice(input.launch.paired), block, blockTimeSeconds: deps.blockTimeSeconds, at: now() }),
        }
      }
      // The paired price of pools this block ticks anyway, read alongside the schedule refreshes; with launch logs, of
      // every launch so far (a new launch pairs with one of them nearly always: its tick waited for this read).
      const ticksAnyway = (launch: LaunchRecord) => !stale && (!primed || needsBlockTicks(launch, block, deps.blockTimeSeconds))
      for (const { launch } of pools.values()) if (hasLaunchLogs || ticksAnyway(launch)) pairedPrice(launch.paired).catch(() => undefined)
      // While a project waits on the chain, the ETH price of every block it reaches (one banded read, shared with the
      // block's ticks): a launch log of the next block hints the executor's quotes with it (launch_ahead below).
      if (!stale)
        detector.waitingLaunchpads().then(
          (waiting) => waiting.size > 0 && void pairedPrice({ kind: 'weth', address: chain.addresses.weth }).catch(() => undefined),
          () => undefined,
        )
      const session = intake(block, pairedPrice)
      // The launch logs' receipts and reads start now, alongside the schedule refreshes, not after them (issue 23 item 3);
      // with them, the executor's reads of the launch tick (launch_ahead: a read hint, judged on nothing).
      session.prefetch(event.logs, stale ? undefined : launchAhead(deps, pairedPrices, block))
      // A schedule that follows chain state is read for the block it prices: at the head block, not at a skipped one.
      const refreshed = stale ? [] : await refreshSchedules(pools, deps, block)
      if (hasLaunchLogs) stage('indexer.schedulesRefreshed')
      const { launches, ticks, swapped, feeUpdated } = await scanLogs(event, session, priced)
      if (launches.length > 0) stage('indexer.logsScanned')
      refreshed.push(...feeUpdated)
      const owedLaunchSlugs = stale ? [] : [...pools].filter(([poolId]) => owedLaunches.has(poolId)).map(([, pool]) => pool.launch.slug)
      const launchRecords = launches.map((l) => l.record)
      ticks.push(...(await quietTicks(event, launchRecords, swapped, priced)))
      // A launch in a block the chain is past is ticked now, with its record, not after the head block (see ticksAhead).
      if (ahead) ticks.push(...(await ticksAhead({ launches, pools, stateBlock: block.number, head: ahead, pairedPrice, deps, at: now() })))
      if (launches.length > 0) stage('indexer.ticksComputed')
      await recordBlock(event, launches, refreshed, ticks, session.result().ops)
      if (launches.length > 0) stage('indexer.blockWritten')
      if (stale) {
        for (const entry of ticks) deps.ticks.publish({ type: 'tick', tick: entry.tick, launch: entry.launch })
        return
      }
      primed = true
      owed.clear()
      owedLaunches.clear()
      for (const entry of ticks) deps.ticks.publish({ type: 'tick', tick: entry.tick, launch: entry.launch })
      // The launches of skipped blocks are bought from this block on: nothing is readied in it either.
      const launched = [...new Set([...launches.map((l) => l.record.slug), ...owedLaunchSlugs])]
      deps.ticks.publish({ type: 'processed', chain: key, blockNumber: block.number, launched })
    },
    async onReorg(event) {
      // The blocks above the ancestor come again (with other hashes): their `block` signals go out again.
      blockSignals.forget()
      const reverted = await journal.launchesAbove(key, event.ancestor.number)
      const ops: StoreOperation[] = [...(await journal.ticksAboveOps(key, event.ancestor.number))]
      for (const launch of reverted) ops.push(...journal.deleteLaunch(launch))
      // Candidates and quarantined logs of removed blocks are gone with them (the new blocks bring their own).
      for (const candidate of await journal.candidates(key))
        if (BigInt(candidate.blockNumber) > event.ancestor.number) ops.push(journal.deleteCandidate(candidate))
      for (const entry of await journal.quarantinedLogs(key))
        if (BigInt(entry.blockNumber) > event.ancestor.number) ops.push(journal.deleteQuarantinedLog(entry))
      // A liquidity move in a removed block is undone: the launch is back on the pool it left.
      const movedBack = migrationsUndone(pools, event.ancestor.number, reverted)
      for (const { launch } of movedBack) ops.push(...journal.putLaunch(launch))
      ops.push(journal.putCheckpoint(toStoredCheckpoint(key, event.checkpoint, now())))
      await store.mutex.run(PROJECT_LOCK, async () => {
        for (const launch of reverted) {
          const project = await store.sub.projects.get(launch.slug)
          if (project?.launch && isAddressEqual(project.launch.tokenAddress as Address, launch.token))
            ops.push(...projectLaunchOps(store, project, null, now()))
        }
        await store.batch(ops)
      })
      for (const { from, launch } of movedBack) {
        const pool = pools.get(poolKeyOf(from))!
        pools.delete(poolKeyOf(from))
        pools.set(poolKeyOf(launch.poolId), { ...pool, launch })
        log.warn({ slug: launch.slug, chain: key, pool: launch.poolId }, 'launch liquidity migration reverted by a reorg')
      }
      for (const launch of reverted) {
        pools.delete(poolKeyOf(launch.poolId))
        log.warn({ slug: launch.slug, chain: key, block: launch.blockNumber }, 'launch reverted by a reorg')
        deps.ticks.publish({ type: 'launch_reverted', launch })
      }
      await restorePoolStates(journal, pools)
      deps.ticks.publish({ type: 'reorg', chain: key, ancestor: event.ancestor.number })
    },
  }
}

/**
 * ChainIndexer.onLogHint: a pushed launch log of a block above the newest processed (`lastBlock`; one at or below it is
 * too late to help) starts its block's intake reads
 * (launch-intake.ts `hint`) and, on its provisional candidate, the launch block's price of the pair and the executor's
 * reads ahead (launch_ahead). The block's time: the pushed log's (anvil and geth 1.16+ add it), else the newest processed
 * block's plus the chain's block time. Never throws.
 */
function logHints(input: {
  deps: Pick<ChainIndexerDeps, 'ticks' | 'blockTimeSeconds' | 'chain' | 'log' | 'now' | 'stage'>
  intake: ReturnType<typeof createLaunchIntake>
  pairedPrices: PairedPrices
  /** The launch emitters and the PoolManager. */
  emitters: [readonly Address[], Address]
  lastBlock: () => { number: bigint; timestamp: bigint } | undefined
}): Pick<ChainIndexer, 'hintFilters' | 'onLogHint'> {
  const { deps, intake, pairedPrices } = input
  const [launchAddresses, poolManager] = input.emitters
  const hintFilters = [{ address: [...new Set(launchAddresses)] }, { address: [poolManager], topics: [INITIALIZE_TOPIC] }]
  return { hintFilters, onLogHint }
  function onLogHint(entry: PushedLog): void {
    try {
      const number = entry.blockNumber
      const last = input.lastBlock()
      if (number === null || (last !== undefined && number <= last.number)) return
      deps.stage('hint.pushedLog')
      const timestamp =
        entry.blockTimestamp ??
        (last ? last.timestamp + BigInt(Math.round(deps.blockTimeSeconds * Number(number - last.number))) : BigInt(Math.floor(deps.now() / 1000)))
      const tellExecutor = launchAhead(deps, pairedPrices, { number, timestamp })
      intake.hint(entry, timestamp, (candidate, slugs) => {
        // The launch block's price of the pair, which its tick waits on (pairedPrices keeps the ETH price by block).
        deps.stage('hint.candidate')
        // With the block's time when the node pushed it (as the block's own read passes it: without it, a young ETH/USD
        // pool's band check reads the block for it, one round more); an estimate is not passed.
        pairedPrices.usd(candidate.paired, number, entry.blockTimestamp).catch(() => undefined)
        tellExecutor(candidate, slugs)
      })
    } catch (error) {
      deps.log.debug({ err: error }, 'a pushed log hint failed')
    }
  }
}

/**
 * Launched pools whose schedule follows chain state (auction rounds): read again before this block is priced, so
 * its ticks know the gating and decay of the next block. Returns the launches whose record changed.
 */
async function refreshSchedules(
  pools: LaunchedPools,
  deps: Pick<ChainIndexerDeps, 'adapters' | 'client' | 'blockTimeSeconds'>,
  block: BlockEvent['block'],
): Promise<LaunchRecord[]> {
  const next = nextBlockAfter(block, deps.blockTimeSeconds)
  // All pools' reads at once: one round trip per block, not one per pool.
  const refreshes = [...pools.values()].map(async (pool) => {
    const adapter = deps.adapters.find((a) => a.id === pool.launch.launchpad)
    const schedule = pool.launch.feeSchedule as FeeSchedule
    if (!adapter?.refreshFeeSchedule || BigInt(pool.launch.blockNumber) > block.number || !scheduleNeedsRefresh(schedule, next)) return undefined
    const fresh = await adapter.refreshFeeSchedule(deps.client, pool.launch, block)
    return JSON.stringify(fresh) === JSON.stringify(schedule) ? undefined : { pool, fresh }
  })
  const changed: LaunchRecord[] = []
  for (const update of await Promise.all(refreshes)) {
    if (!update) continue
    update.pool.launch = { ...update.pool.launch, feeSchedule: update.fresh }
    changed.push(update.pool.launch)
  }
  return changed
}

/**
 * The launches' ticks ahead of the head (`head`, the header of the round that read the launch block behind it): in the head
 * block's context (its number, hash and next timestamp: the executor quotes the pool at the head, as it is there, and
 * sizes buys on the head's balances), from the newest state the indexer holds (the pool after `stateBlock`, the block
 * being processed, and that block's paired price: no read on the launch's path). `stateBlock` says so, and the head
 * block still ticks the launch when it is processed (docs/execution.md §2, "Ticks when behind"), from its own state.
 */
async function ticksAhead(input: {
  launches: readonly DetectedLaunch[]
  pools: LaunchedPools
  stateBlock: bigint
  head: BlockRef
  pairedPrice: (paired: PairedAsset) => Promise<Fraction>
  deps: Pick<ChainIndexerDeps, 'blockTimeSeconds' | 'stage'>
  at: number
}): Promise<PricedTick[]> {
  const { head, at } = input
  const ticks: PricedTick[] = []
  if (input.launches.length === 0) return ticks
  await Promise.all(input.launches.map(({ record }) => input.pairedPrice(record.paired)))
  input.deps.stage('indexer.pairedPriceAhead')
  for (const { record: launch } of input.launches) {
    const pool = input.pools.get(poolKeyOf(launch.poolId))!.state
    const pairedUsd = await input.pairedPrice(launch.paired)
    const tick = computePriceTick({ launch, reason: 'launch', pool, logIndex: -1, pairedUsd, block: head, blockTimeSeconds: input.deps.blockTimeSeconds, at })
    ticks.push({ launch, tick: { ...tick, stateBlock: input.stateBlock.toString() } })
  }
  return ticks
}

/**
 * Tells the executor, as a launch log's reads start, what its launch tick will be asked with (tick-bus.ts
 * `launch_ahead`): the pool, token and paired route from its logs, the launch block and its next timestamp as the tick
 * states them, the paired price of the newest block priced before (the tick's is the launch block's, read in this
 * round: a hint that differs is simply not used), and the projects it may bind. Nothing without a price known.
 */
const launchAhead =
  (
    deps: Pick<ChainIndexerDeps, 'ticks' | 'blockTimeSeconds' | 'chain'>,
    pairedPrices: PairedPrices,
    block: Pick<BlockEvent['block'], 'number' | 'timestamp'>,
  ) =>
  (candidate: LaunchCandidate, slugs: string[]): void => {
    const known = pairedPrices.latest(candidate.paired)
    if (!known) return
    const { token, poolKey, poolId, paired, launchpad } = candidate
    const chain = deps.chain.key
    deps.ticks.publish({
      type: 'launch_ahead',
      chain,
      blockNumber: block.number,
      nextBlockTimestamp: nextBlockAfter(block, deps.blockTimeSeconds).timestamp,
      pairedUsdAtoms: pairedUsdAtomsOf(known.usd),
      launch: { chain, launchpad, token, poolKey, poolId, paired },
      slugs,
    })
  }

/** The executor's `block` signals, once per block: a head announced early for a launch tick ahead is not announced again. */
function blockAnnouncer(ticks: TickBus, chain: ChainKey) {
  let announced: bigint | undefined
  return {
    announce(block: { number: bigint }, nextBlockTimestamp: number) {
      const blockNumber = block.number
      if (announced === blockNumber) return
      announced = blockNumber
      ticks.publish({ type: 'block', chain, blockNumber, nextBlockTimestamp })
    },
    forget() {
      announced = undefined
    },
  }
}

/** Tells `onLaunchLogs` when a block with launch logs arrived (its time against the wall clock). */
function reportLaunchLogs(deps: Pick<ChainIndexerDeps, 'onLaunchLogs' | 'chain'>, block: BlockRef): void {
  if (!deps.onLaunchLogs) return
  const time = blockTimeMs(block)
  deps.onLaunchLogs({
    chain: deps.chain.key,
    blockNumber: block.number,
    arrivedAt: performance.now(),
    sinceBlockMs: Date.now() - time.ms,
    precise: time.precise,
  })
}

/** Computes a tick into `ticks` (nothing for a block the chain is already past). */
const tickInto =
  (ticks: PricedTick[], priced: Price) =>
  async (request: TickRequest): Promise<void> => {
    const tick = await priced(request)
    if (tick) ticks.push(tick)
  }

/** The launched pools bought through the bridge pool `poolId`, each launch updated with that pool's new protocol fee. */
function bridgedThrough(pools: LaunchedPools, poolId: string, slot0ProtocolFee: number): LaunchedPool[] {
  const updated: LaunchedPool[] = []
  for (const pool of pools.values()) {
    const hopIndex = (pool.launch.paired.bridge ?? []).findIndex((hop) => poolKeyOf(poolIdOf(hop)) === poolKeyOf(poolId))
    if (hopIndex < 0) continue
    pool.launch = { ...pool.launch, paired: withBridgeHopProtocolFee(pool.launch.paired, hopIndex, slot0ProtocolFee) }
    updated.push(pool)
  }
  return updated
}

/** The launches (not reverted themselves) a reorg to `ancestor` moves back to the pool they left, with that pool. */
function migrationsUndone(pools: LaunchedPools, ancestor: bigint, reverted: readonly LaunchRecord[]): Array<{ from: string; launch: LaunchRecord }> {
  const movedBack: Array<{ from: string; launch: LaunchRecord }> = []
  for (const pool of pools.values()) {
    if (reverted.some((r) => r.slug === pool.launch.slug)) continue
    const back = launchBeforeMigrationsAbove(pool.launch, ancestor)
    if (back !== pool.launch) movedBack.push({ from: pool.launch.poolId, launch: back })
  }
  return movedBack
}

function decodeSwap(entry: Log): { poolId: string; sqrtPriceX96: bigint; liquidity: bigint } | undefined {
  // Only a Swap is decoded: a block's other PoolManager logs are skipped, not refused by viem (event-topics.ts).
  if (entry.topics[0]?.toLowerCase() !== SWAP_TOPIC) return undefined
  try {
    const { eventName, args } = decodeEventLogCached({ abi: POOL_MANAGER_EVENTS, data: entry.data, topics: entry.topics, strict: true })
    if (eventName !== 'Swap') return undefined
    return { poolId: args.id, sqrtPriceX96: args.sqrtPriceX96, liquidity: args.liquidity }
  } catch {
    return undefined // another PoolManager event
  }
}
