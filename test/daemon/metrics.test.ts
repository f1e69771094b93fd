import { Registry } from 'prom-client'
import { afterEach, describe, expect, it } from 'vitest'
import { judgeReadiness } from '../../src/domain/health/readiness.ts'
import { createJournal } from '../../src/journal/journal.ts'
import { createDaemonMetrics } from '../../daemon/health/metrics/daemon-metrics.ts'
import { createHttpMetrics } from '../../daemon/health/metrics/http-metrics.ts'
import { launch, SLUG, TOKEN, txHash } from '../executor/parts/executor-fixture.ts'
import { bearer, createHarness, createKey, PREFIX, type Harness } from '../api/harness.ts'
import { openTempStore } from '../support/temp-store.ts'

/** The value of one sample line of a Prometheus text exposition (undefined when absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('metrics', () => {
  let cleanup: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step()
    cleanup = []
  })

  it('count and time public API answers by route pattern, method and status: never by raw URL', async () => {
    const registry = new Registry()
    const h: Harness = await createHarness({ metrics: createHttpMetrics(registry) })
    cleanup.push(() => h.destroy())
    const { apiKey } = await createKey(h, 'metered')
    for (let i = 0; i < 3; i++) await h.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: bearer(apiKey) })
    await h.app.inject({ method: 'GET', url: `${PREFIX}/me` })
    await h.app.inject({ method: 'GET', url: `${PREFIX}/projects/no-such-project`, headers: bearer(apiKey) })
    for (let i = 0; i < 5; i++) await h.app.inject({ method: 'GET', url: `${PREFIX}/random-${i}` })
    await h.app.inject({ method: 'PROPFIND' as 'GET', url: `${PREFIX}/me` })

    const text = await registry.metrics()
    expect(sample(text, `prebuy_http_requests_total{route="${PREFIX}/api-keys",method="POST",status="201"}`)).toBe(1)
    expect(sample(text, `prebuy_http_requests_total{route="${PREFIX}/me",method="GET",status="200"}`)).toBe(3)
    expect(sample(text, `prebuy_http_requests_total{route="${PREFIX}/me",method="GET",status="401"}`)).toBe(1)
    expect(sample(text, `prebuy_http_requests_total{route="${PREFIX}/projects/:slug",method="GET",status="404"}`)).toBe(1)
    // Unrouted requests share one series, whatever their path or method.
    expect(sample(text, 'prebuy_http_requests_total{route="unmatched",method="other",status="404"}')).toBe(5)
    expect(sample(text, 'prebuy_http_requests_total{route="unmatched",method="other",status="405"}')).toBe(1)
    expect(text).not.toContain('random-')
    expect(text).not.toContain('PROPFIND')
    expect(sample(text, `prebuy_http_request_duration_seconds_count{route="${PREFIX}/me",method="GET"}`)).toBe(4)
    expect(sample(text, `prebuy_http_request_duration_seconds_bucket{le="+Inf",route="${PREFIX}/me",method="GET"}`)).toBe(4)
  })

  it('count order transitions as the executor commits them, and launches, candidates, readiness and bundler ETH at each scrape', async () => {
    const temp = await openTempStore('metrics')
    cleanup.push(() => temp.remove())
    const { store } = temp
    const journal = createJournal(store)
    let head: bigint | null = 120n
    const metrics = createDaemonMetrics({
      store,
      processMetrics: false,
      readiness: async () =>
        judgeReadiness({
          store: store.health(),
          chains: [
            { chain: 'base', head, indexed: 100n },
            { chain: 'second_chain', head: null, indexed: 7n },
          ],
          maxLagBlocks: 30,
        }),
      bundlers: () => ({ base: { address: TOKEN, balanceEth: '0.004', level: 'low', senders: [{ address: TOKEN, balanceEth: '0.004', level: 'low' }] } }),
    })
    cleanup.push(async () => metrics.stop())

    const event = (keyId: string, to: 'executing' | 'filled' | 'failed', from: 'active' | 'executing') =>
      journal.putOrderEvent({ keyId, slug: SLUG, from, to, at: 1 })
    await store.batch([...journal.putLaunch(launch), event('k1', 'executing', 'active'), event('k2', 'executing', 'active')])
    await store.batch([event('k1', 'filled', 'executing'), event('k2', 'failed', 'executing')])
    await store.batch([
      journal.putCandidate({
        slug: 'other',
        chain: 'base',
        launchpad: 'zora',
        token: TOKEN,
        deployer: TOKEN,
        claimedCreators: [],
        name: null,
        symbol: null,
        txHash: txHash(9),
        blockNumber: '12',
        blockHash: txHash(10),
        logIndex: 0,
        launchedAt: 1,
        status: 'rejected',
        reason: 'forged',
        attempts: 0,
        seenAt: 1,
        updatedAt: 1,
      }),
    ])
    // A refreshed launch record (fee schedule re-read) is still one launch.
    await store.batch(journal.putLaunch({ ...launch, feeSchedule: { refreshed: true } }))

    let text = await metrics.registry.metrics()
    expect(sample(text, 'prebuy_order_transitions_total{from="active",to="executing"}')).toBe(2)
    expect(sample(text, 'prebuy_order_transitions_total{from="executing",to="filled"}')).toBe(1)
    expect(sample(text, 'prebuy_order_transitions_total{from="executing",to="failed"}')).toBe(1)
    expect(sample(text, 'prebuy_launches{chain="base",launchpad="clanker"}')).toBe(1)
    expect(sample(text, 'prebuy_launch_candidates{chain="base",status="rejected"}')).toBe(1)
    expect(sample(text, 'prebuy_indexer_lag_blocks{chain="base"}')).toBe(20)
    expect(sample(text, 'prebuy_chain_head_block{chain="base"}')).toBe(120)
    expect(sample(text, 'prebuy_chain_up{chain="base"}')).toBe(1)
    expect(sample(text, 'prebuy_chain_up{chain="second_chain"}')).toBe(0)
    expect(sample(text, 'prebuy_indexer_lag_blocks{chain="second_chain"}')).toBeUndefined()
    // LevelDB's own figures: its memtables hold what was just written; nothing is flushed to a table file yet.
    expect(sample(text, 'prebuy_store_memory_bytes')).toBeGreaterThan(0)
    expect(sample(text, 'prebuy_store_table_files')).toBe(0)
    expect(sample(text, 'prebuy_ready')).toBe(0)
    expect(sample(text, 'prebuy_store_writable')).toBe(1)
    expect(sample(text, 'prebuy_bundler_balance_eth{chain="base"}')).toBe(0.004)
    expect(sample(text, 'prebuy_bundler_low{chain="base"}')).toBe(1)

    // Gauges follow the state at each scrape (a second later: the readiness read is shared within one second).
    head = null
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    text = await metrics.registry.metrics()
    expect(sample(text, 'prebuy_chain_up{chain="base"}')).toBe(0)
    expect(sample(text, 'prebuy_indexer_lag_blocks{chain="base"}')).toBeUndefined()
    // After stop, later batches are no longer counted.
    metrics.stop()
    await store.batch([event('k3', 'executing', 'active')])
    expect(sample(await metrics.registry.metrics(), 'prebuy_order_transitions_total{from="active",to="executing"}')).toBe(2)
  })
})
