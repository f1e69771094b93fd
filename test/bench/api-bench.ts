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

/** Starts the app in a child process so autocannon does not share its event loop. */
async function startServer(): Promise<{ info: ServerInfo; stop: () => Promise<void> }> {
  const script = fileURLToPath(new URL('./api-server.ts', import.meta.url))
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout })
  const [line] = (await once(lines, 'line')) as [string]
  return {
    info: JSON.parse(line) as ServerInfo,
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
    const { info, stop } = await startServer()
    try {
      const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' })
      const common = { connections, duration: durationSeconds }
      // Warm-up: JIT, LevelDB caches.
      await measure({ url: info.bareUrl, ...common, duration: 1 })
      await measure({ url: `${info.apiUrl}/orders`, headers: auth(info.readerKey), ...common, duration: 1 })

      const bare = await measure({ url: info.bareUrl, ...common })
      const getOrders = await measure({ url: `${info.apiUrl}/orders`, headers: auth(info.readerKey), ...common })
      const getOrdersAt1000 = await pacedLoad({ url: `${info.apiUrl}/orders`, headers: auth(info.readerKey), rate: 1000, durationSeconds })
      const bareAt1000 = await pacedLoad({ url: info.bareUrl, headers: {}, rate: 1000, durationSeconds })
      // Last: its writes and garbage must not disturb the read measurements.
      const postOrders = await measure({ url: `${info.apiUrl}/orders`, method: 'POST', headers: auth(info.writerKey), body: info.postBody, ...common })

      const ratio = Number((getOrders.requestsPerSecond / bare.requestsPerSecond).toFixed(3))
      return {
        setup: { connections, durationSeconds, getOrdersPageBytes: info.pageBytes, postItems: 50, perKeyLimitRaisedTo: 1_000_000_000 },
        bare,
        getOrders,
        postOrders,
        getOrdersAt1000,
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
