import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import type { BenchModule } from './bench-module.ts'
import { pacedLoad } from './paced-load.ts'

interface ServerInfo {
  apiUrl: string
  bareUrl: string
  readerKey: string
  writerKey: string
  postBody: string
  pageBytes: number
}

interface Measured {
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  non2xx: number
  errors: number
}

async function measure(options: autocannon.Options): Promise<Measured> {
  const result = await autocannon(options)
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }
}

const ROUNDS = 3

/** The round with the median throughput. */
function median(rounds: Measured[]): Measured {
  const sorted = [...rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Starts the app in a child process so autocannon does not share its event loop. */
interface ServerSideTimes {
  responses: number
  handlerP50Ms: number
  handlerP99Ms: number
  eventLoopDelayP99Ms: number
  eventLoopDelayMaxMs: number
  gcPauses: number
  gcPauseMaxMs: number
}

async function startServer(): Promise<{
  info: ServerInfo
  serverTimes: <T>(work: () => Promise<T>) => Promise<[T, ServerSideTimes]>
  stop: () => Promise<void>
}> {
  const script = fileURLToPath(new URL('./api-server.ts', import.meta.url))
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout })
  const line = await Promise.race([
    once(lines, 'line').then(([first]) => first as string),
    once(child, 'exit').then(([code]) => {
      throw new Error(`benchmark server exited early (code ${String(code)})`)
    }),
  ])
  return {
    info: JSON.parse(line) as ServerInfo,
    async serverTimes(work) {
      child.stdin.write('reset\n')
      const result = await work()
      const answer = once(lines, 'line')
      child.stdin.write('report\n')
      const [report] = (await answer) as [string]
      return [result, JSON.parse(report) as ServerSideTimes]
    },
    async stop() {
      if (child.exitCode !== null) return
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      await exited
    },
  }
}

/**
 * Authenticated GET /orders and POST /orders (50 items) against a bare fastify route, all on loopback in one run.
 * Targets: GET /orders >= 50% of the bare route's throughput; p99 < 10 ms at a fixed 1,000 requests/s.
 */
export const apiBenchmark: BenchModule = {
  name: 'api',
  async run({ durationSeconds, connections }) {
    const { info, serverTimes, stop } = await startServer()
    try {
      const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' })
      const common = { connections, duration: durationSeconds }
      // Warm-up: JIT, LevelDB caches.
      await measure({ url: info.bareUrl, ...common, duration: 1 })
      await measure({ url: `${info.apiUrl}/orders`, headers: auth(info.readerKey), ...common, duration: 1 })

      // The fixed-rate runs first, so they do not inherit the saturating rounds' garbage; one paced second to settle.
      await pacedLoad({ url: `${info.apiUrl}/orders`, headers: auth(info.readerKey), rate: 1000, durationSeconds: 1 })
      const [getOrdersAt1000, serverSideAt1000] = await serverTimes(() =>
        pacedLoad({ url: `${info.apiUrl}/orders`, headers: auth(info.readerKey), rate: 1000, durationSeconds }),
      )
      const bareAt1000 = await pacedLoad({ url: info.bareUrl, headers: {}, rate: 1000, durationSeconds })
      // Interleaved rounds, medians: on a shared machine a one-shot pair mostly measures who else was busy.
      const bareRounds: Measured[] = []
      const getRounds: Measured[] = []
      for (let round = 0; round < ROUNDS; round += 1) {
        bareRounds.push(await measure({ url: info.bareUrl, ...common }))
        getRounds.push(await measure({ url: `${info.apiUrl}/orders`, headers: auth(info.readerKey), ...common }))
      }
      const bare = median(bareRounds)
      const getOrders = median(getRounds)
      // Last: its writes and garbage must not disturb the read measurements.
      const postOrders = await measure({ url: `${info.apiUrl}/orders`, method: 'POST', headers: auth(info.writerKey), body: info.postBody, ...common })

      const ratio = Number((getOrders.requestsPerSecond / bare.requestsPerSecond).toFixed(3))
      return {
        setup: { connections, durationSeconds, rounds: ROUNDS, getOrdersPageBytes: info.pageBytes, postItems: 50, perKeyLimitRaisedTo: 1_000_000_000 },
        bare,
        getOrders,
        rounds: { bare: bareRounds.map((r) => r.requestsPerSecond), getOrders: getRounds.map((r) => r.requestsPerSecond) },
        postOrders,
        getOrdersAt1000,
        /** Inside the server during that run: time from request to response, and event-loop stalls. */
        serverSideAt1000,
        /** The bare route at the same rate: what the machine itself adds to the tail. */
        bareAt1000,
        ratios: {
          getOrdersToBare: ratio,
          postOrdersToBare: Number((postOrders.requestsPerSecond / bare.requestsPerSecond).toFixed(3)),
        },
        targets: {
          getOrdersAtLeastHalfOfBare: { target: 0.5, actual: ratio, met: ratio >= 0.5 },
          p99Under10msAt1000rps: { targetMs: 10, actualMs: getOrdersAt1000.p99Ms, met: getOrdersAt1000.p99Ms < 10 },
        },
      }
    } finally {
      await stop()
    }
  },
}
