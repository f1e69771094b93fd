/**
 * Memory benchmark (a module of `npm run bench`, `--only load-memory`): the load suite's daemon and book
 * (test/faults/load.faults.ts: a real daemon on devnet chains, 200 keys x 500 waiting projects = 100,000 stored
 * orders, seeded over the API) under the suite's mixed traffic for BENCH_LOAD_SECONDS (default 180 s, at the suite's
 * 200 requests/s), RSS and heap from the daemon's own metrics every 5 s. Target (issue 23 item 4): under 400 MB RSS
 * throughout the traffic (max of the samples), the seeding's own peak reported beside it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { loadMix, scrapeMemory, seedLoad, startLoadDaemon, type LoadDaemon, type MemorySample } from '../faults/load-seed.ts'
import type { BenchModule } from './bench-module.ts'

const MB = 1024 * 1024
const TARGET_MB = 400

export async function benchLoadMemory(options: { keys: number; projects: number; seconds: number; rate: number }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'prebuy-bench-memory-'))
  let d: LoadDaemon | undefined
  const samples: Array<MemorySample & { phase: 'seed' | 'settle' | 'traffic' }> = []
  let phase: 'seed' | 'settle' | 'traffic' = 'seed'
  const sampler = setInterval(() => {
    if (d)
      void scrapeMemory(d).then(
        (s) => samples.push({ ...s, phase }),
        () => undefined,
      )
  }, 5_000)
  try {
    d = await startLoadDaemon(dataDir)
    const seeded = await seedLoad(d, { keys: options.keys, projects: options.projects, buyers: 0 })
    phase = 'settle'
    // Let every key's minute window from the seeding pass before the traffic starts (as the suite does).
    await new Promise((resolve) => setTimeout(resolve, 61_000))
    phase = 'traffic'
    let n = 0
    const { keys, slugs } = seeded
    const result = await autocannon({
      url: d.url,
      connections: 20,
      overallRate: options.rate,
      duration: options.seconds,
      requests: [
        {
          setupRequest: (request) => {
            const i = n++
            const k = i % keys.length
            const chosen = loadMix(slugs, Math.floor(i / keys.length), k)
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
    samples.push({ ...(await scrapeMemory(d)), phase: 'traffic' })
    const of = (p: string) => samples.filter((s) => s.phase === p)
    const mb = (bytes: number) => Math.round(bytes / MB)
    const traffic = of('traffic')
    const maxRss = Math.max(...traffic.map((s) => s.rss))
    return {
      storedOrders: options.keys * options.projects,
      keys: options.keys,
      waitingProjects: options.projects,
      seedSeconds: seeded.seedSeconds,
      trafficSeconds: options.seconds,
      requests: result.requests.total,
      errors: result.errors,
      non2xx: result.non2xx,
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
      rssMb: {
        seedMax: mb(Math.max(...of('seed').map((s) => s.rss), 0)),
        settleLast: mb(of('settle').at(-1)?.rss ?? 0),
        trafficMax: mb(maxRss),
        trafficLast: mb(traffic.at(-1)!.rss),
      },
      heapUsedMb: { trafficMax: mb(Math.max(...traffic.map((s) => s.heap))), trafficLast: mb(traffic.at(-1)!.heap) },
      heapTotalMb: { trafficMax: mb(Math.max(...traffic.map((s) => s.heapTotal))) },
      externalMb: { trafficMax: mb(Math.max(...traffic.map((s) => s.external))) },
      leveldbMemoryMb: { trafficMax: mb(Math.max(...traffic.map((s) => s.store))) },
      loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
      targets: {
        rssUnder400Mb: { targetMb: TARGET_MB, maxMb: mb(maxRss), met: maxRss < TARGET_MB * MB && result.errors === 0 && result.non2xx === 0 },
      },
      note:
        'RSS of the daemon process (its own process_resident_memory_bytes), sampled every 5 s; the target holds for the traffic phase ' +
        '(after seeding and a minute of settling); the two anvil chains run as separate processes and are not counted.',
    }
  } finally {
    clearInterval(sampler)
    if (d) {
      d.daemon.process.kill('SIGTERM')
      await d.daemon.exited
    }
    await rm(dataDir, { recursive: true, force: true })
  }
}

export const loadMemoryBenchmark: BenchModule = {
  name: 'load-memory',
  async run() {
    return benchLoadMemory({
      keys: Number(process.env.BENCH_LOAD_KEYS ?? 200),
      projects: Number(process.env.BENCH_LOAD_PROJECTS ?? 500),
      seconds: Number(process.env.BENCH_LOAD_SECONDS ?? 180),
      rate: Number(process.env.BENCH_LOAD_RATE ?? 200),
    })
  },
}
