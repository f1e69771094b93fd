import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { afterAll, describe, expect, it } from 'vitest'
import { api, type SpawnedDaemon } from '../daemon/helpers.ts'
import { type MemorySample, PUBLIC, loadMix, scrapeMemory, seedLoad, startLoadDaemon } from './load-seed.ts'
import { recordFigures } from './report.ts'

/**
 * Load: a real daemon (devnet chains) holding 100,000 orders (200 keys x 500 projects) serves 10 minutes of mixed
 * traffic from the 200 keys, each within its limit of 100 requests a minute (reads of orders pages, projects, a
 * project, /me and /wallet; order edits), while a registered project launches and 20 of the keys' orders are bought.
 * Figures: requests, errors and non-2xx (0 expected), latency percentiles, RSS over time from the daemon's own
 * Prometheus metrics (flat: no trend once warm), and the launch's fills.
 */
/**
 * 15 minutes: the first third must cover the warm-up. In 10-minute runs RSS was still climbing to V8's steady heap when
 * the slope was measured (82 MB/min); 15 minutes of the same code peaked and came back (-10.5 MB/min): docs/reliability.md.
 */
const SECONDS = Number(process.env.FAULT_LOAD_SECONDS ?? 900)
const KEYS = Number(process.env.FAULT_LOAD_KEYS ?? 200)
const PROJECTS = Number(process.env.FAULT_LOAD_PROJECTS ?? 500)
const BUYERS = 20
/** Requests a second over all keys: 200 keys x 60 a minute, well within the 100 a minute each may send. */
const RATE = Number(process.env.FAULT_LOAD_RATE ?? 200)

let dataDir: string | undefined
let daemon: SpawnedDaemon | undefined
afterAll(async () => {
  if (daemon) {
    daemon.process.kill('SIGTERM')
    await daemon.exited
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

/**
 * Per route and method, from the daemon's own histogram (prebuy_http_request_duration_seconds): requests, mean latency
 * and the share slower than 1 s. Where the time goes, to guide the next optimisation.
 */
function routeLatencies(metrics: string): Record<string, { requests: number; meanMs: number; over1sPct: number }> {
  const out: Record<string, { requests: number; meanMs: number; over1sPct: number }> = {}
  const series = (suffix: string, extra = '') =>
    new Map(
      metrics
        .split('\n')
        .filter((l) => l.startsWith(`prebuy_http_request_duration_seconds_${suffix}{`) && l.includes(extra))
        .map((l) => {
          const labels = l.slice(l.indexOf('{') + 1, l.indexOf('}'))
          const route = /route="([^"]*)"/.exec(labels)?.[1] ?? '?'
          const method = /method="([^"]*)"/.exec(labels)?.[1] ?? '?'
          return [`${method} ${route}`, Number(l.slice(l.lastIndexOf(' ') + 1))] as const
        }),
    )
  const counts = series('count')
  const sums = series('sum')
  const underOne = series('bucket', 'le="1"')
  for (const [key, count] of counts) {
    if (count === 0) continue
    out[key] = {
      requests: count,
      meanMs: Math.round(((sums.get(key) ?? 0) / count) * 1000),
      over1sPct: Number((((count - (underOne.get(key) ?? count)) / count) * 100).toFixed(1)),
    }
  }
  return out
}

/** Least-squares slope of (t, y), y per minute. */
function slopePerMinute(samples: ReadonlyArray<{ t: number; y: number }>): number {
  const n = samples.length
  const mt = samples.reduce((s, p) => s + p.t, 0) / n
  const my = samples.reduce((s, p) => s + p.y, 0) / n
  const num = samples.reduce((s, p) => s + (p.t - mt) * (p.y - my), 0)
  const den = samples.reduce((s, p) => s + (p.t - mt) ** 2, 0)
  return den === 0 ? 0 : (num / den) * 60_000
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
const MB = 1024 * 1024

describe('load: 10 minutes of mixed traffic from 200 keys over 100,000 orders while a launch executes', () => {
  it(`${SECONDS} s at ${RATE} requests/s from ${KEYS} keys within their limits: 0 errors, p99 reported, RSS flat`, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'prebuy-load-'))
    const started = await startLoadDaemon(dataDir)
    daemon = started.daemon
    const { url, admin } = started
    const located = { adminUrl: started.adminUrl, operatorToken: started.operatorToken }
    // 200 keys; 500 waiting projects and one that launches during the run; 100,000 orders (load-seed.ts).
    const { keys, slugs, live, seedSeconds } = await seedLoad(started, { keys: KEYS, projects: PROJECTS, buyers: BUYERS })
    // Let every key's minute window from the seeding pass before the traffic starts.
    await new Promise((resolve) => setTimeout(resolve, 61_000))

    // RSS, heap, Buffers (external) and LevelDB's own figures from the daemon's own metrics, every 5 s: RSS growing with
    // a flat heap is off-heap (Buffers, LevelDB, the allocator), and these say which.
    const samples: MemorySample[] = []
    const scrape = async () => {
      samples.push(await scrapeMemory(located))
    }
    await scrape()
    const sampler = setInterval(() => void scrape().catch(() => undefined), 5_000)
    const latencyByRoute = async () =>
      routeLatencies(await (await fetch(`${located.adminUrl}/metrics`, { headers: { authorization: `Bearer ${located.operatorToken}` } })).text())

    // The launch, a third of the way in; its orders are checked every 5 s (12 more requests a minute for 20 keys).
    const liveFills = async () => {
      const orders = await Promise.all(
        keys.slice(0, BUYERS).map(async (key) => {
          // Only filled orders: the live order may be past the first page of a key's 500 (ordered by spend).
          const page = await api(url, 'GET', `${PUBLIC}/orders?status=filled&limit=50`, { key: key.apiKey })
          return (page.body.data as Array<{ slug: string; status: string }>).find((o) => o.slug === live.slug)
        }),
      )
      lastLiveStatuses = orders.map((o) => o?.status ?? 'not filled')
      return orders.filter((o) => o?.status === 'filled').length
    }
    let lastLiveStatuses: string[] = []
    const launch: { at?: number; allFilledAfterMs?: number } = {}
    let watcher: NodeJS.Timeout | undefined
    const launchTimer = setTimeout(
      () =>
        void (async () => {
          launch.at = Date.now()
          await admin.devnetLaunch({ launchpad: 'clanker', creator: live.creator, name: 'Load live', symbol: 'LIVE' })
          watcher = setInterval(
            () =>
              void liveFills().then(
                (count) => {
                  if (count === BUYERS && launch.allFilledAfterMs === undefined) launch.allFilledAfterMs = Date.now() - launch.at!
                },
                () => undefined,
              ),
            5_000,
          )
        })(),
      (SECONDS * 1000) / 3,
    )

    // Round-robin over keys (each key's share of RATE stays within its limit), a weighted mix of endpoints.
    let n = 0
    const mix = (i: number, k: number) => loadMix(slugs, i, k)
    const result = await autocannon({
      url,
      connections: 20,
      overallRate: RATE,
      duration: SECONDS,
      requests: [
        {
          setupRequest: (request) => {
            const i = n++
            const k = i % keys.length
            const chosen = mix(Math.floor(i / keys.length), k)
            return {
              ...request,
              method: chosen.method,
              path: chosen.path,
              headers: { authorization: `Bearer ${keys[k]!.apiKey}`, ...(chosen.body ? { 'content-type': 'application/json' } : {}) },
              ...(chosen.body ? { body: chosen.body } : {}),
            }
          },
        },
      ],
    })
    clearInterval(sampler)
    clearTimeout(launchTimer)
    clearInterval(watcher)
    await scrape()

    const fills = await liveFills()

    const warm = samples.filter((s) => s.t >= samples[0]!.t + (SECONDS * 1000) / 3)
    const thirds = [0, 1, 2].map((part) => samples.slice(Math.floor((part * samples.length) / 3), Math.floor(((part + 1) * samples.length) / 3)))
    const figures = {
      seconds: SECONDS,
      keys: KEYS,
      storedOrders: KEYS * PROJECTS + BUYERS,
      seedSeconds,
      ratePerSecond: RATE,
      requests: result.requests.total,
      requestsPerSecond: Math.round(result.requests.average),
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      rssMb: {
        first: Math.round(samples[0]!.rss / MB),
        thirds: thirds.map((part) => Math.round(mean(part.map((s) => s.rss)) / MB)),
        last: Math.round(samples.at(-1)!.rss / MB),
        max: Math.round(Math.max(...samples.map((s) => s.rss)) / MB),
        // Issue 23 item 4: under 400 MB with 100,000 orders (the bench's load-memory module holds the same book).
        under400Mb: Math.max(...samples.map((s) => s.rss)) < 400 * MB,
        slopeMbPerMinuteAfterFirstThird: Number((slopePerMinute(warm.map((s) => ({ t: s.t, y: s.rss / MB }))) || 0).toFixed(2)),
      },
      heapUsedMb: { thirds: thirds.map((part) => Math.round(mean(part.map((s) => s.heap)) / MB)) },
      // What V8 has committed for its heap (used plus free space it keeps): part of RSS whatever the heap uses.
      heapTotalMb: { thirds: thirds.map((part) => Math.round(mean(part.map((s) => s.heapTotal)) / MB)), last: Math.round(samples.at(-1)!.heapTotal / MB) },
      externalMb: { thirds: thirds.map((part) => Math.round(mean(part.map((s) => s.external)) / MB)) },
      leveldb: {
        memoryMb: { thirds: thirds.map((part) => Math.round(mean(part.map((s) => s.store)) / MB)) },
        tableFiles: { first: samples[0]!.tables, last: samples.at(-1)!.tables },
      },
      byRoute: await latencyByRoute(),
      launch: { fills, of: BUYERS, allFilledWithinMs: launch.allFilledAfterMs ?? null, statuses: lastLiveStatuses },
    }
    recordFigures('load', figures)
    expect(result.errors).toBe(0)
    expect(result.non2xx).toBe(0)
    expect(
      fills,
      daemon
        .output()
        .split('\n')
        .filter((l) => /"level":(40|50|60)/.test(l))
        .slice(-30)
        .join('\n'),
    ).toBe(BUYERS)
    // Flat: once warm, RSS does not climb (a leak of a few KB per request would add tens of MB a minute at this rate).
    // (Over a short run the slope is mostly V8 warming up and its first major collections: judge the 10-minute run.)
    expect(figures.rssMb.slopeMbPerMinuteAfterFirstThird).toBeLessThan(5)
    expect(figures.rssMb.thirds[2]!).toBeLessThan(figures.rssMb.thirds[1]! * 1.1 + 10)
  }, 3_600_000)
})
