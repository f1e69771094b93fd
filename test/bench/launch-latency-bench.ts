/**
 * Launch latency benchmark (a module of `npm run bench`, `--only latency`), issue 23 item 3:
 * `launches` per launchpad (clanker, clanker_v5, doppler, zora; 20 by default) on one devnet whose daemon reads and
 * sends through the RPC fault proxy with `latencyMs` (50 by default) added to every request, blocks mined every 200 ms
 * of wall time (Base since Denim) by a block clock. For each launch: the blocks from the first eligible block (the first
 * after the launch block whose buy the pool's gate allows: firstEligibleBlock) to the block of
 * its first fill, and the time from the launch log's arrival to the first transaction sent. Target: the first fill in
 * the first eligible block in at least 19 of 20 launches on each launchpad.
 */
import { loadavg } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createPublicClient, custom, http, parseAbi, parseUnits, createWalletClient, type Hash, type Hex, type PublicClient } from 'viem'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { submitLaunch, type LaunchTokenOptions } from '../../devnet/launchpads/launch-token.ts'
import { CLANKER_V5_SNIPER } from '../../src/pricing/schedules/clanker-v5.ts'
import { chainFromConfig, READ_BATCH } from '../../src/chain/clients.ts'
import type { Launchpad, OrderRecord } from '../../src/domain/records.ts'
import { readCodeSizes } from '../../src/wallets/bundler/code-sizes.ts'
import { readStablecoinAllowances } from '../../src/chain/read-stablecoin-allowances.ts'
import { startFaultProxy } from '../faults/rpc-fault-proxy.ts'
import { startFlowHarness, type Buyer } from '../executor/flow-harness.ts'
import type { BenchModule } from './bench-module.ts'
import { createLaunchpadAdapters, devnetAdapterOptions } from '../../src/launchpads/create-adapters.ts'
import type { LaunchpadAdapter } from '../../src/launchpads/launchpad-adapter.ts'
import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import { type FeeSchedule, feeAt } from '../../src/pricing/fee-schedule.ts'
import { BENCH_DEVNET_STATE_DUMPS, benchDevnetStateDumps } from './devnet-state-dumps.ts'

/** BENCH_LATENCY_READ_BATCH=0: the daemon's reads one HTTP request each (as before 2026-11-27), for comparison. */
const BENCH_READ_BATCH = process.env.BENCH_LATENCY_READ_BATCH === '0' ? false : READ_BATCH
const round = (value: number): number => Math.round(value * 100) / 100
/** The value at quantile q (0-1) of the sorted values: nearest rank. */
export const quantile = (values: readonly number[], q: number): number | null => {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
}

/**
 * BENCH_LATENCY_WS=1: the daemon's indexer also gets a wsUrl, through the fault proxy's WebSocket side with the same
 * latency on every frame from the node (newHeads wakes the sync; the launch logs pushed are hints: docs/execution.md §5
 * "The launch log pushed"); BENCH_LATENCY_WS_HINTS=0 with it: the socket only wakes the sync. Default: HTTP polling only.
 */
const BENCH_WS = process.env.BENCH_LATENCY_WS === '1'
const BENCH_WS_HINTS = process.env.BENCH_LATENCY_WS_HINTS !== '0'

/** BENCH_LATENCY_LAUNCHPADS (comma-separated) runs only those; the report's target is per launchpad anyway. */
const LAUNCHPADS: readonly Launchpad[] = (['clanker', 'clanker_v5', 'doppler', 'zora'] as const).filter(
  (l) => !process.env.BENCH_LATENCY_LAUNCHPADS || process.env.BENCH_LATENCY_LAUNCHPADS.split(',').includes(l),
)
/** Wall time between blocks: Base's 200 ms by default (BENCH_LATENCY_BLOCK_MS). */
const BLOCK_MS = Number(process.env.BENCH_LATENCY_BLOCK_MS ?? 200)

/** Ungated launch shapes: Clanker v5 with its sniper fee off (the buy tax from the start), the others as the devnet makes them. */
const launchShape = (launchpad: Launchpad): Partial<LaunchTokenOptions> =>
  launchpad === 'clanker_v5' ? { startFee: 10_000, endFee: 10_000, decaySeconds: CLANKER_V5_SNIPER.seconds } : {}

export interface LatencyLaunch {
  launchpad: Launchpad
  launchBlock: number
  /**
   * The first block after the launch whose plain buy the pool's gate allows, minus the launch block (1: ungated): the
   * launch's fee schedule as of the block before, read as the indexer reads it (refreshFeeSchedule), evaluated for
   * that block's number and time (feeAt's swapsAllowed). Clanker v4's MEV module (SniperAuctionV2 on the devnet) gates
   * its first blocks. Null: not within the blocks looked at (up to the first fill, or 50).
   */
  firstEligibleAfterLaunch: number | null
  /** First fill's block minus that first eligible block; null: no fill within the deadline (or no eligible block found). */
  blocksAfterFirstEligible: number | null
  /** First fill's block minus (launch + 1), as runs before 2026-11-26 15:00 UTC reported it (it counts a gate's blocks as ours). */
  blocksAfterLaunchPlusOne: number | null
  /** Wall time from the launch block being seen mined (the bench polls the node directly) to the indexer's arrival. */
  launchMinedToLogArrivalMs: number | null
  launchLogToFirstTxMs: number | null
  launchLogToLastTxMs: number | null
  /**
   * The daemon's RPC requests (indexer, executor, wallet service) from the launch log's arrival to its first transaction
   * sent, by method: every request of the launch path is there (with whatever background reads ran meanwhile).
   */
  requestsLogToFirstTx: Record<string, number>
  /** The indexer's and executor's stages (onStage), first occurrence, ms after the launch log's arrival, until the first send. */
  stagesAfterLaunchLogMs: Record<string, number>
  /**
   * The bench process's longest event-loop stall (perf_hooks monitorEventLoopDelay, 5 ms resolution) from the launch's
   * submission to its fills: the daemon runs in this process, so a stall (GC, the machine's load) holds every answer,
   * the sync's polls included. docs/execution.md §5 "What the misses were".
   */
  eventLoopDelayMaxMs: number
  /**
   * Every daemon request asked between the launch log's arrival and the first send, in order: ms after the arrival when
   * asked and when answered (null: not answered before the first send), the method and what it asks (eth_call: the
   * target, the selector and the block). Which reads are serial on the launch path shows here, round by round.
   */
  requestTimeline: TimelineEntry[]
  transactions: number
  senders: number
  filled: number
}

/** One request of the launch path (LatencyLaunch.requestTimeline). */
export interface TimelineEntry {
  askedMs: number
  answeredMs: number | null
  method: string
  what: string
}

/** What a request asks, in a few characters: an eth_call's target, selector and block; a receipt's hash; a block tag. */
function describeRequest(method: string, params: unknown): string {
  const list = Array.isArray(params) ? params : []
  const short = (value: unknown) => (typeof value === 'string' && value.length > 14 ? `${value.slice(0, 10)}…` : String(value))
  if (method === 'eth_call') {
    const call = (list[0] ?? {}) as { to?: string; data?: string; input?: string }
    return `${short(call.to)} ${(call.data ?? call.input ?? '').slice(0, 10)} @${short(list[1])}`
  }
  return list.map(short).join(' ')
}

export async function benchLatencyLaunches(options: {
  launches: number
  buyersPerLaunch: number
  latencyMs: number
  senderAccounts: number
  /** Buy through the PrebuyBatchBuyer (approved ahead), as the daemon does where one is configured; else one UserOperation per buyer. */
  batch: boolean
}) {
  const proxy = await startFaultProxy({ rate: 0, limits: { latencyMs: options.latencyMs } })
  // Per launch: when its log arrived and when each of our transactions left (eth_sendRawTransaction through the proxy).
  let arrival: number | undefined
  let sends: number[] = []
  let requests: Record<string, number> = {}
  let stages: Record<string, number> = {}
  let early: Record<string, number> = {}
  let timeline: TimelineEntry[] = []
  const viaProxy = (rpcUrl: string): string => {
    proxy.target = rpcUrl
    return proxy.url
  }
  const counted = (rpcUrl: string, batch: { batchSize: number; wait: number } | false): PublicClient => {
    const inner = http(viaProxy(rpcUrl), { batch })({ retryCount: 2 })
    return createPublicClient({
      transport: custom({
        async request({ method, params }) {
          const onPath = arrival !== undefined && sends.length === 0
          if (onPath) requests[method] = (requests[method] ?? 0) + 1
          const entry: TimelineEntry | undefined = onPath
            ? { askedMs: round(performance.now() - arrival!), answeredMs: null, method, what: describeRequest(method, params) }
            : undefined
          if (entry) timeline.push(entry)
          if (method === 'eth_sendRawTransaction' && arrival !== undefined) sends.push(performance.now())
          const answer = await inner.request({ method, params } as never)
          if (entry && arrival !== undefined && sends.length === 0) entry.answeredMs = round(performance.now() - arrival)
          return answer
        },
      }),
      pollingInterval: 50,
    }) as PublicClient
  }
  const h = await startFlowHarness({
    devnetStateDumps: BENCH_DEVNET_STATE_DUMPS,
    // As the daemon makes them: the wallet service's transport and the read client (createReadClient) both batch.
    walletClient: (rpcUrl) => counted(rpcUrl, { batchSize: 100, wait: 0 }),
    daemonClient: (rpcUrl) => counted(rpcUrl, BENCH_READ_BATCH),
    onLaunchLogs: (info) => (arrival ??= info.arrivedAt),
    ...(BENCH_WS ? { daemonWsUrl: () => proxy.wsUrl, logHints: BENCH_WS_HINTS } : {}),
    onStage: (name, at) => {
      // A pushed launch log's hint comes before its block's arrival: kept by time, told relative to the arrival after.
      if (arrival === undefined && name.startsWith('hint.')) early[name] ??= at
      if (arrival !== undefined && sends.length === 0 && stages[name] === undefined) stages[name] = round(at - arrival)
    },
    senderAccounts: options.senderAccounts,
    ...(options.batch ? { batchBuyer: true } : {}),
  })
  const clock = { stop: false, done: Promise.resolve() }
  const adapters = createLaunchpadAdapters(devnetAdapterOptions(h.chain.addresses, h.launchpads))
  try {
    // Buyers: funded once (plenty for every launch), each with an order on every project.
    const buyers: Buyer[] = []
    for (let i = 0; i < options.buyersPerLaunch; i++) {
      const issued = await h.services.keys.issueKey(`latency-${i}`)
      buyers.push({ keyId: issued.record.id, userIndex: issued.record.userIndex, wallet: await h.wallets.walletAddress(issued.record.userIndex) })
    }
    const minter = createWalletClient({ chain: chainFromConfig(h.chain), account: h.devnet.deployer.account, transport: http(h.chain.rpcUrl) })
    const mints: Hash[] = []
    for (const buyer of buyers) {
      mints.push(
        await minter.writeContract({
          address: h.chain.addresses.stablecoin,
          abi: parseAbi(['function mint(address to, uint256 amount)']),
          functionName: 'mint',
          args: [buyer.wallet, parseUnits('100000', 6)],
        }),
      )
    }
    await h.mine()
    for (const hash of mints) await h.client.waitForTransactionReceipt({ hash, pollingInterval: 30 })
    const projects: { slug: string; creator: `0x${string}`; launchpad: Launchpad }[] = []
    for (const launchpad of LAUNCHPADS) {
      for (let n = 0; n < options.launches; n++) {
        const slug = `lat-${launchpad.replace('_', '')}-${n}`
        const { creator } = await h.newProject(slug, launchpad)
        projects.push({ slug, creator, launchpad })
        for (const buyer of buyers) await h.order(buyer, slug, '5', null)
      }
    }
    // Wallets deployed ahead by the executor while the orders wait.
    const readyBy = Date.now() + 120_000
    while (
      Date.now() < readyBy &&
      !(
        await readCodeSizes(
          h.client,
          buyers.map((b) => b.wallet),
        )
      ).every((size) => size > 0)
    ) {
      await h.mine()
      await new Promise((r) => setTimeout(r, 300))
    }
    // With the batch: every wallet approved the batch buyer ahead (approve-ahead.ts) for all its orders.
    const batchBuyer = h.batchBuyer
    if (options.batch && batchBuyer) {
      const needed = parseUnits(String(5 * projects.length), 6)
      while (Date.now() < readyBy) {
        const allowances = await readStablecoinAllowances(
          h.client,
          h.chain.addresses.multicall3,
          h.chain.addresses.stablecoin,
          batchBuyer,
          buyers.map((b) => b.wallet),
        )
        if (buyers.every((b) => (allowances.get(b.wallet.toLowerCase()) ?? 0n) >= needed)) break
        await h.mine()
        await new Promise((r) => setTimeout(r, 300))
      }
    }

    // The block clock: a block every 200 ms of wall time, as on Base.
    clock.done = (async () => {
      let next = performance.now()
      while (!clock.stop) {
        await jsonRpc(h.chain.rpcUrl, 'evm_mine')
        // No catch-up bursts: a late tick (a busy event loop) mines one block, and the next comes a full interval later.
        next = Math.max(next + BLOCK_MS, performance.now())
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())))
      }
    })()

    const results: LatencyLaunch[] = []
    const loopDelay = monitorEventLoopDelay({ resolution: 5 })
    loopDelay.enable()
    const loadAtStart = loadavg()
    for (const project of projects) {
      // Each launch from a steady state: the indexer has processed the head and the executor is idle.
      await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
      await h.executor.idle()
      arrival = undefined
      loopDelay.reset()
      sends = []
      requests = {}
      stages = {}
      early = {}
      timeline = []
      const hash = await submitLaunch({
        chain: h.chain,
        addresses: h.launchpads,
        launchpad: project.launchpad,
        creator: project.creator,
        name: `${project.slug} token`,
        symbol: project.slug.slice(0, 5).toUpperCase(),
        ...launchShape(project.launchpad),
      } as LaunchTokenOptions)
      const receipt = await h.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      // When the launch block was seen mined (polled directly, every 20 ms): the indexer's detection starts there.
      const minedSeenAt = performance.now()
      const deadline = Date.now() + 20_000
      let orders: (OrderRecord | undefined)[] = []
      while (Date.now() < deadline) {
        orders = await Promise.all(buyers.map((b) => h.getOrder(b, project.slug)))
        if (orders.every((o) => o?.status === 'filled' || o?.status === 'failed')) break
        await new Promise((r) => setTimeout(r, 100))
      }
      const fills = orders.filter((o): o is OrderRecord => o?.status === 'filled' && o.execution?.txHash !== undefined)
      const txHashes = [...new Set(fills.map((o) => o.execution!.txHash as Hex))]
      const txs = await Promise.all(txHashes.map((tx) => Promise.all([h.client.getTransactionReceipt({ hash: tx }), h.client.getTransaction({ hash: tx })])))
      const firstBlock = txs.length === 0 ? undefined : txs.map(([r]) => r.blockNumber).reduce((a, b) => (a < b ? a : b))
      const launch = await h.journal.getLaunchBySlug(project.slug)
      const eligible = launch
        ? await firstEligibleBlock(h.client, adapters[project.launchpad], launch, receipt.blockNumber, firstBlock ?? receipt.blockNumber + 50n)
        : null
      const after = arrival === undefined ? [] : sends.map((t) => t - arrival!)
      results.push({
        launchpad: project.launchpad,
        launchBlock: Number(receipt.blockNumber),
        firstEligibleAfterLaunch: eligible === null ? null : Number(eligible - receipt.blockNumber),
        blocksAfterFirstEligible: firstBlock === undefined || eligible === null ? null : Number(firstBlock - eligible),
        blocksAfterLaunchPlusOne: firstBlock === undefined ? null : Number(firstBlock - (receipt.blockNumber + 1n)),
        launchMinedToLogArrivalMs: arrival === undefined ? null : round(arrival - minedSeenAt),
        launchLogToFirstTxMs: after.length > 0 ? round(Math.min(...after)) : null,
        launchLogToLastTxMs: after.length > 0 ? round(Math.max(...after)) : null,
        requestsLogToFirstTx: requests,
        // The hint's stages (BENCH_LATENCY_WS) before the arrival, negative.
        stagesAfterLaunchLogMs: {
          ...Object.fromEntries(Object.entries(early).map(([name, at]) => [name, round(at - (arrival ?? at))])),
          ...stages,
        },
        eventLoopDelayMaxMs: round(loopDelay.max / 1e6),
        requestTimeline: timeline,
        transactions: txHashes.length,
        senders: new Set(txs.map(([, t]) => t.from.toLowerCase())).size,
        filled: fills.length,
      })
    }

    const byLaunchpad = Object.fromEntries(
      LAUNCHPADS.map((launchpad) => {
        const runs = results.filter((r) => r.launchpad === launchpad)
        const histogram: Record<string, number> = {}
        for (const run of runs) {
          const key = run.blocksAfterFirstEligible === null ? 'no fill' : `+${run.blocksAfterFirstEligible}`
          histogram[key] = (histogram[key] ?? 0) + 1
        }
        const inFirst = runs.filter((r) => r.blocksAfterFirstEligible === 0).length
        const firstTx = runs.map((r) => r.launchLogToFirstTxMs).filter((v): v is number => v !== null)
        return [
          launchpad,
          {
            launches: runs.length,
            blocksFromFirstEligibleToFirstFill: histogram,
            firstFillInFirstEligibleBlock: inFirst,
            launchLogToFirstTxP50Ms: quantile(firstTx, 0.5),
            launchLogToFirstTxP99Ms: quantile(firstTx, 0.99),
            launchMinedToLogArrivalP50Ms: quantile(
              runs.map((r) => r.launchMinedToLogArrivalMs).filter((v): v is number => v !== null),
              0.5,
            ),
            launchLogToLastTxP50Ms: quantile(
              runs.map((r) => r.launchLogToLastTxMs).filter((v): v is number => v !== null),
              0.5,
            ),
            target: {
              firstFillInFirstEligibleBlock: `≥ ${Math.ceil((options.launches * 19) / 20)} of ${options.launches}`,
              met: inFirst * 20 >= runs.length * 19,
            },
          },
        ]
      }),
    )
    const allFirstTx = results.map((r) => r.launchLogToFirstTxMs).filter((v): v is number => v !== null)
    loopDelay.disable()
    return {
      // The shared machine's load (1, 5, 15 min) when the launches began and ended: the misses follow it.
      devnetStateDumps: benchDevnetStateDumps(),
      loadAverage: { atStart: loadAtStart.map(round), atEnd: loadavg().map(round) },
      latencyMsInjected: options.latencyMs,
      // How the daemon's indexer learned of blocks: HTTP polling alone, or a socket through the proxy (same latency).
      mode: BENCH_WS ? (BENCH_WS_HINTS ? 'websocket: newHeads + launch log hints' : 'websocket: newHeads only') : 'http polling',
      ...(BENCH_WS ? { websocketFrames: proxy.ws.counts() } : {}),
      blockMs: BLOCK_MS,
      buyersPerLaunch: options.buyersPerLaunch,
      batch: options.batch,
      senderAccounts: options.senderAccounts,
      byLaunchpad,
      launchLogToFirstTx: {
        p50Ms: quantile(allFirstTx, 0.5),
        p99Ms: quantile(allFirstTx, 0.99),
        samples: allFirstTx.length,
        // Not a target here: issue 23 item 3's p50 50 / p99 150 ms is stated for 5,000 orders without injected latency,
        // and the split module measures it (split.targets.launchLogToFirstSend). A "met: false" here read as a miss.
        note:
          `with ${options.latencyMs} ms added to every RPC request, and Clanker v4's launches waiting for its SniperAuction gate by design; ` +
          "item 3 (launch log to first send, p50 ≤ 50 ms, p99 ≤ 150 ms, 5,000 orders) is the split module's launchLogToFirstSend",
      },
      proxyRequests: proxy.counts().requests,
      launches: results,
      note:
        'first eligible block = the first block after the launch whose plain buy the pool gate allows (the fee schedule as of the block before, feeAt swapsAllowed: ' +
        'Clanker v4 SniperAuctionV2 gates its first blocks; the others are ungated here, Clanker v5 with its sniper fee off); blocksAfterLaunchPlusOne as before; ' +
        'blocks mined every 200 ms of wall time by a timer on the shared 2-core machine (its jitter included); ' +
        'the daemon reads (indexer, executor) and sends (wallet service) through the fault proxy, which adds the latency to every answer.',
    }
  } finally {
    clock.stop = true
    await clock.done.catch(() => undefined)
    await h.stop()
    await proxy.close()
  }
}

/**
 * The first block after `launchBlock` (up to `limit`) in which the pool's gate allows a plain buy, as the executor knows
 * it: the launch's schedule as of the block before (refreshFeeSchedule where the schedule follows chain state, as the
 * indexer reads it before pricing the next block), feeAt for the block's number and timestamp. Null: none up to limit.
 */
export async function firstEligibleBlock(
  client: PublicClient,
  adapter: LaunchpadAdapter,
  launch: LaunchRecord,
  launchBlock: bigint,
  limit: bigint,
): Promise<bigint | null> {
  for (let n = launchBlock + 1n; n <= limit; n++) {
    const [before, block] = await Promise.all([client.getBlock({ blockNumber: n - 1n }), client.getBlock({ blockNumber: n })])
    const schedule = adapter.refreshFeeSchedule ? await adapter.refreshFeeSchedule(client, launch, before) : launch.feeSchedule
    if (feeAt(schedule as FeeSchedule, { number: n, timestamp: Number(block.timestamp) }).swapsAllowed) return n
  }
  return null
}

/** BENCH_LATENCY_LAUNCHES launches per launchpad (default 20); BENCH_LATENCY_MS injected (default 50). */
export const launchLatencyBenchmark: BenchModule = {
  name: 'latency',
  async run() {
    return benchLatencyLaunches({
      launches: Number(process.env.BENCH_LATENCY_LAUNCHES ?? 20),
      buyersPerLaunch: Number(process.env.BENCH_LATENCY_BUYERS ?? 5),
      latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 50),
      senderAccounts: 4,
      // BENCH_LATENCY_BATCH=0: one UserOperation per buyer (the path before the batch).
      batch: process.env.BENCH_LATENCY_BATCH !== '0',
    })
  },
}
