import { Gauge, Histogram, type Registry } from 'prom-client'
import type { ChainKey } from '../../../src/chain/chain-keys.ts'
import type { TickKind } from '../../executor/tick-kind.ts'

/**
 * Buckets of `prebuy_executor_tick_seconds`: they resolve issue 23 item 4's target (every tick on a held book under
 * 20 ms) with edges at 15, 20 and 30 ms, and go on to the seconds a launch tick that buys can take.
 */
export const TICK_SECONDS_BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/**
 * The executor's tick times (decide-tick.ts: from the start of a tick's decision, under the chain lock, until it is
 * recorded), per chain and kind of tick (tick-kind.ts). Created before the executor starts (it records into it) and
 * registered on the daemon's registry when the metrics are built, like the price-quote tally.
 */
export interface ExecutorTickTimes {
  onTick(chain: ChainKey, kind: TickKind, seconds: number, afterReads: number | undefined): void
  register(registry: Registry): void
}

export function createExecutorTickTimes(): ExecutorTickTimes {
  const histogram = new Histogram({
    name: 'prebuy_executor_tick_seconds',
    help: "The executor's ticks, from the start of a tick's decision (under the chain's lock) until it is recorded, per chain and kind: launch (a pool's first tick), held (a book priced again with no order changed: the every-block tick of a held book), orders_changed (a tick whose book took in new, edited or removed orders: the tick after a PATCH), rebuilt (the book built in the tick), buy (a tick that bought or expired orders: its commit written), no_orders, failed (the tick threw). Target for held and orders_changed: under 20 ms.",
    labelNames: ['chain', 'kind'] as const,
    buckets: TICK_SECONDS_BUCKETS,
    registers: [],
  })
  const afterReadsHistogram = new Histogram({
    name: 'prebuy_executor_tick_after_reads_seconds',
    help: "The part of each tick of prebuy_executor_tick_seconds after its reads answered (the block's warm snapshot of orders and balances, the reservations, the quote of the real swap): its planning and recording. Absent for a tick that ended before (no orders, or it threw).",
    labelNames: ['chain', 'kind'] as const,
    buckets: TICK_SECONDS_BUCKETS,
    registers: [],
  })
  // A histogram cannot show its largest sample: the longest tick since start, per chain and kind, beside it.
  const longest = new Gauge({
    name: 'prebuy_executor_tick_max_seconds',
    help: "The executor's longest tick since the daemon started, per chain and kind (as prebuy_executor_tick_seconds).",
    labelNames: ['chain', 'kind'] as const,
    registers: [],
  })
  const max = new Map<string, number>()
  return {
    onTick(chain, kind, seconds, afterReads) {
      histogram.observe({ chain, kind }, seconds)
      if (afterReads !== undefined) afterReadsHistogram.observe({ chain, kind }, afterReads)
      const key = `${chain}|${kind}`
      if (seconds > (max.get(key) ?? -1)) {
        max.set(key, seconds)
        longest.set({ chain, kind }, seconds)
      }
    },
    register(registry) {
      registry.registerMetric(histogram)
      registry.registerMetric(afterReadsHistogram)
      registry.registerMetric(longest)
    },
  }
}
