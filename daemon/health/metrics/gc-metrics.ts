import { PerformanceObserver, constants } from 'node:perf_hooks'
import { Histogram, type Registry } from 'prom-client'

export const GC_DURATION_METRIC = 'nodejs_gc_duration_seconds'

/** prom-client's buckets for the series it registers under the same name (lib/metrics/gc.js), kept for dashboards. */
const GC_DURATION_BUCKETS = [0.001, 0.01, 0.1, 1, 2, 5]

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
}

/** Records every collection of the batch the observer was handed (its kind, its duration in seconds), not only the first. */
export function recordGcBatch(histogram: Pick<Histogram<'kind'>, 'observe'>, entries: ReadonlyArray<{ duration: number; detail?: unknown }>): void {
  for (const entry of entries) {
    const kind = KINDS[(entry.detail as { kind?: number } | undefined)?.kind ?? -1] ?? 'unknown'
    histogram.observe({ kind }, entry.duration / 1000)
  }
}

/**
 * Every V8 collection, by kind, as `nodejs_gc_duration_seconds` (the name, labels and buckets of prom-client's default
 * series, which this replaces in the registry). prom-client's observer records only the first entry of each batch its
 * PerformanceObserver is handed (prom-client 15, lib/metrics/gc.js: `list.getEntries()[0]`), and a full collection
 * can come in one batch with the scavenge before it: that way 3 of the 9 full collections of a test process were
 * counted (docs/execution.md §8, "The held ticks' slow ones"). Call after `collectDefaultMetrics`.
 */
export function registerGcMetrics(registry: Registry): { stop(): void } {
  registry.removeSingleMetric(GC_DURATION_METRIC)
  const histogram = new Histogram({
    name: GC_DURATION_METRIC,
    help: 'Garbage collection duration by kind, one of major, minor, incremental or weakcb: every collection (not only the first of each observer batch).',
    labelNames: ['kind'] as const,
    buckets: GC_DURATION_BUCKETS,
    registers: [registry],
  })
  const observer = new PerformanceObserver((list) => recordGcBatch(histogram, list.getEntries()))
  observer.observe({ entryTypes: ['gc'] })
  return { stop: () => observer.disconnect() }
}
