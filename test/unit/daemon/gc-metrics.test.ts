import { constants } from 'node:perf_hooks'
import { afterEach, describe, expect, it } from 'vitest'
import { createDaemonMetrics, type DaemonMetrics } from '../../../daemon/health/metrics/daemon-metrics.ts'
import { Histogram, Registry } from 'prom-client'
import { GC_DURATION_METRIC, recordGcBatch } from '../../../daemon/health/metrics/gc-metrics.ts'
import { openTempStore } from '../../support/temp-store.ts'

describe('V8 collections in the metrics (gc-metrics.ts)', () => {
  let metrics: DaemonMetrics | undefined
  let cleanup: (() => Promise<void>) | undefined
  afterEach(async () => {
    metrics?.stop()
    await cleanup?.()
  })

  it('records every collection of a batch, the full one after the scavenge included (prom-client kept only the first)', async () => {
    const registry = new Registry()
    const histogram = new Histogram({ name: 'gc_test_seconds', help: 'test', labelNames: ['kind'] as const, buckets: [0.01], registers: [registry] })
    recordGcBatch(histogram, [
      { duration: 1.5, detail: { kind: constants.NODE_PERFORMANCE_GC_MINOR } },
      { duration: 24, detail: { kind: constants.NODE_PERFORMANCE_GC_MAJOR } },
      { duration: 3, detail: { kind: constants.NODE_PERFORMANCE_GC_INCREMENTAL } },
      { duration: 0.2, detail: { kind: constants.NODE_PERFORMANCE_GC_WEAKCB } },
    ])
    recordGcBatch(histogram, [{ duration: 1, detail: undefined }])
    const counts = Object.fromEntries(
      (await histogram.get()).values.filter((v) => v.metricName === 'gc_test_seconds_count').map((v) => [v.labels.kind, v.value]),
    )
    expect(counts).toEqual({ minor: 1, major: 1, incremental: 1, weakcb: 1, unknown: 1 })
    const sums = Object.fromEntries((await histogram.get()).values.filter((v) => v.metricName === 'gc_test_seconds_sum').map((v) => [v.labels.kind, v.value]))
    expect(sums.major).toBeCloseTo(0.024, 9)
    expect(sums.minor).toBeCloseTo(0.0015, 9)
  })

  it("replaces prom-client's series under its own name, and counts the collections of this process", async () => {
    const { store, remove } = await openTempStore('gc-metrics')
    cleanup = remove
    metrics = createDaemonMetrics({ store, readiness: async () => ({ ready: true, checks: { store: 'ok', chains: {} } }) as never, bundlers: () => ({}) })
    const text = () => metrics!.registry.metrics()
    const help = (await text()).split('\n').filter((line) => line.startsWith(`# HELP ${GC_DURATION_METRIC} `))
    expect(help).toHaveLength(1)
    expect(help[0]).toContain('every collection')
    // Enough short-lived garbage for scavenges, whatever the young generation's size; the observer's batches arrive later.
    const garbage = () => Array.from({ length: 200_000 }, (_, i) => ({ i, s: `garbage-${i}` })).length
    let minors = 0
    for (let round = 0; round < 50 && minors === 0; round++) {
      garbage()
      await new Promise((resolve) => setTimeout(resolve, 20))
      minors = Number(/^nodejs_gc_duration_seconds_count\{kind="minor"\} (\d+)$/m.exec(await text())?.[1] ?? 0)
    }
    expect(minors).toBeGreaterThan(0)
  })
})
