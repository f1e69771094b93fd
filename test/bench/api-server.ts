/**
 * Child process of the API benchmark: a real store in a temp dir, the real app (per-key limit raised through
 * config) and, in the same process, a bare fastify route returning the same payload as GET /orders. Prints one
 * JSON line with the URLs and fixtures, then serves until SIGTERM.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
  await services.projects.createProject({ slug, creatorAddress: '0x00000000000000000000000000000000000000b1', launchpad: 'clanker', chain: 'base', launchMethod: 'open_market', ownerKeyId: null })
}
const reader = await services.keys.issueKey('bench-reader')
const writer = await services.keys.issueKey('bench-writer')
// The reader holds 50 orders with varied spends: GET /orders returns a full first page of 20.
await services.orders.createOrders(
  reader.record.id,
  slugs.slice(0, 50).map((slug, i) => ({ slug, maxSpendUsdc: String(10 + (i % 13)), maxFdvUsdc: i % 4 === 0 ? null : String(100_000 * (i + 1)), expiresInMs: 3_600_000 })),
)
const postBody = JSON.stringify({
  items: slugs.slice(50, 100).map((slug, i) => ({ slug, maxSpendUsdc: String(5 + i), maxFdvUsdc: String(250_000 + i), expiresInMs: 600_000 })),
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

const shutdown = async () => {
  await Promise.all([app.close(), bare.close()])
  await store.close()
  await rm(dataDir, { recursive: true, force: true })
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown())
process.on('SIGINT', () => void shutdown())
