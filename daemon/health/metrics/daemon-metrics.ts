import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client'
import type { ChainKey } from '../../../src/chain/chain-keys.ts'
import type { ReadinessReport } from '../../../src/domain/health/readiness.ts'
import type { Store } from '../../../src/store/open-store.ts'
import type { BundlerBalance } from '../bundler-watch.ts'
import type { SocketState } from '../../../src/sync/realtime-sync.ts'
import { createHttpMetrics, type HttpMetrics } from './http-metrics.ts'
import { createJournalMetrics } from './journal-metrics.ts'
import { registerGcMetrics } from './gc-metrics.ts'
import type { PriceQuoteTally } from './price-quote-tally.ts'
import type { ExecutorTickTimes } from './executor-tick-times.ts'

export interface DaemonMetrics {
  /** What GET /metrics on the admin listener serves. */
  readonly registry: Registry
  readonly http: HttpMetrics
  stop(): void
}

export interface DaemonMetricsDeps {
  store: Store
  /** The readiness probe (GET /readyz): chain heads, the indexer's tip and the store, read at each scrape. */
  readiness: () => Promise<ReadinessReport>
  /** The bundler watch's latest balances (read every minute; a scrape does not add RPC calls for them). */
  bundlers: () => Partial<Record<ChainKey, BundlerBalance>>
  /** Node's process metrics (memory, CPU, event loop lag, GC); off in tests that build several registries. */
  processMetrics?: boolean
  /** Each indexed chain's new-head websocket as the indexer's sync last reported it (absent: no report yet). */
  websockets?: () => Partial<Record<ChainKey, SocketState>>
  /** The executor's formula-vs-quote disagreements and unanswered quotes (absent: not counted). */
  priceQuotes?: PriceQuoteTally
  /** The executor's tick times (absent: not exported). */
  tickTimes?: ExecutorTickTimes
}

/**
 * The daemon's Prometheus metrics, on its own registry: public API request rates and latencies, indexer lag per chain,
 * readiness, launches, launch candidates, order transitions (fills, failures), bundler ETH, and Node's process metrics.
 */
export function createDaemonMetrics(deps: DaemonMetricsDeps): DaemonMetrics {
  const registry = new Registry()
  const processMetrics = deps.processMetrics ?? true
  if (processMetrics) collectDefaultMetrics({ register: registry })
  // Every collection, not only the first of each observer batch as prom-client's own series (gc-metrics.ts).
  const gc = processMetrics ? registerGcMetrics(registry) : undefined
  const http = createHttpMetrics(registry)
  const journal = createJournalMetrics(registry, deps.store)

  // One readiness read serves the four gauges below at a scrape (each gauge's collect runs in the same scrape).
  let pending: { at: number; report: Promise<ReadinessReport> } | undefined
  const readiness = (): Promise<ReadinessReport> => {
    if (!pending || Date.now() - pending.at > 1_000) pending = { at: Date.now(), report: deps.readiness() }
    return pending.report
  }
  deps.tickTimes?.register(registry)
  const priceQuotes = deps.priceQuotes
  if (priceQuotes) {
    new Counter({
      name: 'prebuy_price_quote_disagreements_total',
      help: 'Launch ticks where the formula (fee schedule + pool price) and a quote of the real swap disagreed beyond the tolerance, per launchpad (kind: quote_dearer, quote_cheaper or swaps_differ): the quote decided; a launchpad changed what it charges?',
      labelNames: ['chain', 'launchpad', 'kind'] as const,
      registers: [registry],
      collect() {
        this.reset()
        for (const { chain, launchpad, kind, count } of priceQuotes.disagreements.values()) this.inc({ chain, launchpad, kind }, count)
      },
    })
    new Counter({
      name: 'prebuy_price_quote_failures_total',
      help: 'Quotes of the real swap the node did not answer (those ticks were decided on the formula).',
      labelNames: ['chain'] as const,
      registers: [registry],
      collect() {
        this.reset()
        for (const [chain, count] of priceQuotes.failures) this.inc({ chain }, count)
      },
    })
  }
  const websockets = deps.websockets
  if (websockets) {
    new Gauge({
      name: 'prebuy_chain_websocket_up',
      help: "1 while the chain's new-head websocket delivers heads (no timer polling), 0 while the indexer polls over HTTP instead.",
      labelNames: ['chain'],
      registers: [registry],
      collect() {
        for (const [chain, state] of Object.entries(websockets())) this.set({ chain }, state === 'up' ? 1 : 0)
      },
    })
    // Set once the sync warned that the socket delivered nothing since start although the chain moved (a wrong wsUrl).
    const neverConnected = new Set<string>()
    new Gauge({
      name: 'prebuy_chain_websocket_never_connected',
      help: '1 when the websocket has delivered no head since start although the chain moved (check wsUrl), else 0.',
      labelNames: ['chain'],
      registers: [registry],
      collect() {
        for (const [chain, state] of Object.entries(websockets())) {
          if (state === 'never_connected') neverConnected.add(chain)
          if (state === 'up') neverConnected.delete(chain)
          this.set({ chain }, neverConnected.has(chain) ? 1 : 0)
        }
      },
    })
  }
  new Gauge({
    name: 'prebuy_ready',
    help: '1 when GET /readyz would answer 200 (store writable, chains answering, indexer caught up), else 0.',
    registers: [registry],
    async collect() {
      this.set((await readiness()).ready ? 1 : 0)
    },
  })
  new Gauge({
    name: 'prebuy_store_writable',
    help: '1 while the store is open and its last write succeeded (after a refused write: restart the daemon).',
    registers: [registry],
    async collect() {
      this.set((await readiness()).checks.store === 'ok' ? 1 : 0)
    },
  })
  new Gauge({
    name: 'prebuy_chain_up',
    help: '1 when the chain answered the head read within 2 s, else 0.',
    labelNames: ['chain'] as const,
    registers: [registry],
    async collect() {
      this.reset()
      for (const [chain, check] of Object.entries((await readiness()).checks.chains)) this.set({ chain }, check.head === null ? 0 : 1)
    },
  })
  new Gauge({
    name: 'prebuy_chain_head_block',
    help: "The chain's head block number (absent while it does not answer).",
    labelNames: ['chain'] as const,
    registers: [registry],
    async collect() {
      this.reset()
      for (const [chain, check] of Object.entries((await readiness()).checks.chains)) if (check.head !== null) this.set({ chain }, Number(check.head))
    },
  })
  new Gauge({
    name: 'prebuy_indexer_lag_blocks',
    help: "Blocks between the chain's head and the indexer's newest processed block (absent while either is unknown).",
    labelNames: ['chain'] as const,
    registers: [registry],
    async collect() {
      this.reset()
      for (const [chain, check] of Object.entries((await readiness()).checks.chains)) {
        if (check.lagBlocks !== null) this.set({ chain }, Number(check.lagBlocks))
      }
    },
  })
  new Gauge({
    name: 'prebuy_bundler_balance_eth',
    help: "ETH of the service's bundler account on each chain (it pays every buy's gas), as of the last minute's check.",
    labelNames: ['chain'] as const,
    registers: [registry],
    collect() {
      this.reset()
      for (const [chain, balance] of Object.entries(deps.bundlers())) {
        if (balance?.balanceEth != null) this.set({ chain }, Number(balance.balanceEth))
      }
    },
  })
  new Gauge({
    name: 'prebuy_bundler_low',
    help: '1 when the bundler ETH is under wallet.bundlerLowEth (launch buys may fail to send: fund it).',
    labelNames: ['chain'] as const,
    registers: [registry],
    collect() {
      this.reset()
      for (const [chain, balance] of Object.entries(deps.bundlers()))
        if (balance && balance.level !== 'unknown') this.set({ chain }, balance.level === 'low' ? 1 : 0)
    },
  })
  new Gauge({
    name: 'prebuy_store_memory_bytes',
    help: "LevelDB's approximate memory: its memtables and block cache (not the open tables' indexes: see prebuy_store_table_files).",
    registers: [registry],
    collect() {
      const stats = deps.store.engineStats()
      if (stats) this.set(stats.memoryBytes)
    },
  })
  new Gauge({
    name: 'prebuy_store_table_files',
    help: 'LevelDB table files over all levels (each open one keeps its index and filter in memory).',
    registers: [registry],
    collect() {
      const stats = deps.store.engineStats()
      if (stats) this.set(stats.tableFiles)
    },
  })
  return {
    registry,
    http,
    stop: () => {
      journal.stop()
      gc?.stop()
    },
  }
}
