/**
 * Child process of the API benchmark: a real store in a temp dir, the real app (per-key limit raised through
 * config) and, in the same process, a bare fastify route returning the same payload as GET /orders. Prints one
 * JSON line with the URLs and fixtures, then serves until SIGTERM.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'
import Fastify from 'fastify'
import { silentLogger } from '../../src/common/logger.ts'
import { createServices } from '../../src/services/services.ts'
import { openStore } from '../../src/store/open-store.ts'
import { buildHttpApp } from '../../daemon/http/build-http-app.ts'
import { createFakeWallets } from '../api/fake-wallets.ts'

const dataDir = await mkdtemp(join(tmpdir(), 'prebuy-bench-'))
const store = await openStore({ dataDir })
const wallets = createFakeWallets()
const services = createServices({ store, wallets })
const app = await buildHttpApp({
  store,
  services,
  wallets,
  logger: silentLogger,
  config: { rateLimit: { perKeyPerMinute: 1_000_000_000, apiKeyCreationPerIpPerHour: 1_000 } },
})

const slugs = Array.from({ length: 100 }, (_v, i) => `bench-${String(i).padStart(3, '0')}`)
for (const slug of slugs) {
  await services.projects.createProject({
    slug,
    creatorAddress: '0x00000000000000000000000000000000000000b1',
    launchpad: 'clanker',
    chain: 'base',
    launchMethod: 'open_market',
    ownerKeyId: null,
  })
}
const reader = await services.keys.issueKey('bench-reader')
const writer = await services.keys.issueKey('bench-writer')
// The reader holds 50 orders with varied spends: GET /orders returns a full first page of 20.
await services.orders.createOrders(
  reader.record.id,
  slugs
    .slice(0, 50)
    .map((slug, i) => ({ slug, maxSpendUsdc: String(10 + (i % 13)), maxFdvUsdc: i % 4 === 0 ? null : String(100_000 * (i + 1)), expiresInMs: 3_600_000 })),
)
const postBody = JSON.stringify({
  items: slugs.slice(50, 100).map((slug, i) => ({ slug, maxSpendUsdc: String(5 + i), maxFdvUsdc: String(250_000 + i), expiresInMs: 600_000 })),
})

/**
 * Server-side timings, to tell the service's own latency from the machine's scheduling: the parent sends "reset" and
 * "report" lines on stdin around a measurement; "report" answers one JSON line.
 */
const serverTimes: number[] = []
const loopDelay = monitorEventLoopDelay({ resolution: 1 })
const gcPauses: number[] = []
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauses.push(entry.duration)
}).observe({ entryTypes: ['gc'] })
app.addHook('onResponse', async (_request, reply) => {
  serverTimes.push(reply.elapsedTime)
})
await app.listen({ host: '127.0.0.1', port: 0 })
const page = await app.inject({ method: 'GET', url: '/api/public/v1/orders', headers: { authorization: `Bearer ${reader.apiKey}` } })
const payload = page.json()

const bare = Fastify({ logger: false })
bare.get('/bare', async () => payload)
await bare.listen({ host: '127.0.0.1', port: 0 })

const port = (server: typeof app.server) => {
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return address.port
}
const commands = createInterface({ input: process.stdin })
// The parent holds our stdin: when it goes away (even by a crash) we go too, so no server is left behind.
commands.on('close', () => void shutdown())
commands.on('line', (command) => {
  if (command === 'reset') {
    serverTimes.length = 0
    gcPauses.length = 0
    loopDelay.reset()
    loopDelay.enable()
  } else if (command === 'report') {
    const sorted = [...serverTimes].sort((a, b) => a - b)
    const at = (p: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(3))
    process.stdout.write(
      `${JSON.stringify({
        responses: sorted.length,
        handlerP50Ms: at(50),
        handlerP99Ms: at(99),
        eventLoopDelayP99Ms: Number((loopDelay.percentile(99) / 1e6).toFixed(2)),
        eventLoopDelayMaxMs: Number((loopDelay.max / 1e6).toFixed(2)),
        gcPauses: gcPauses.length,
        gcPauseMaxMs: Number(Math.max(0, ...gcPauses).toFixed(2)),
      })}\n`,
    )
    loopDelay.disable()
  }
})

process.stdout.write(
  `${JSON.stringify({
    apiUrl: `http://127.0.0.1:${port(app.server)}/api/public/v1`,
    bareUrl: `http://127.0.0.1:${port(bare.server)}/bare`,
    readerKey: reader.apiKey,
    writerKey: writer.apiKey,
    postBody,
    pageBytes: page.body.length,
  })}\n`,
)

let stopping = false
async function shutdown() {
  if (stopping) return
  stopping = true
  await Promise.all([app.close(), bare.close()])
  await store.close()
  await rm(dataDir, { recursive: true, force: true })
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown())
process.on('SIGINT', () => void shutdown())
