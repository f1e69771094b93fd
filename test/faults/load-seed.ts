import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Address } from 'viem'
import { createAdminClient, type AdminClient } from '../../src/admin-client/admin-client.ts'
import { locateDaemon } from '../../src/admin-client/locate-daemon.ts'
import { api, freePortPair, startDaemonProcess, type SpawnedDaemon } from '../daemon/helpers.ts'
import { YOUNG_GENERATION_FLAG } from '../../daemon/process/bound-heap-growth.ts'

/**
 * The load suite's daemon and its 100,000 orders (200 keys x 500 waiting projects, every key on every project, limits
 * no launch price meets) plus one project that launches during the run with `buyers` funded orders on it. Shared by
 * the load suite (test/faults/load.faults.ts) and the bench's memory module (test/bench/load-memory-bench.ts), so
 * the RSS the bench reports is that of the suite's book.
 */
export const PUBLIC = '/api/public/v1'

export interface LoadDaemon {
  daemon: SpawnedDaemon
  url: string
  admin: AdminClient
  adminUrl: string
  operatorToken: string
}

export interface SeededLoad {
  keys: Array<{ apiKey: string; wallet: Address }>
  slugs: string[]
  live: { slug: string; creator: Address }
  seedSeconds: number
}

/**
 * Starts the suite's daemon (devnet chains, 2 s blocks) on `dataDir` as the systemd unit does; `env` adds to its
 * environment, `config` replaces top-level fields of its config.json (the held-ticks bench: 200 ms blocks, more keys).
 */
export async function startLoadDaemon(dataDir: string, env: NodeJS.ProcessEnv = {}, config: Record<string, unknown> = {}): Promise<LoadDaemon> {
  const port = await freePortPair()
  // Seeding only: 200+ keys and 500 registrations from one address need more than the per-IP defaults. The per-key
  // limit stays the default 100 a minute: the traffic keeps within it.
  await writeFile(
    join(dataDir, 'config.json'),
    JSON.stringify({
      chains: { mode: 'devnet', blockTime: 2 },
      rateLimits: { perKeyPerMinute: 100, apiKeyCreationPerIpPerHour: 10_000, submissionsPerIpPerHour: 10_000 },
      ...config,
    }),
  )
  // As deploy/prebuy.service runs it: two malloc arenas and V8's young generation bounded (docs/reliability.md, "Memory").
  const daemon = await startDaemonProcess(dataDir, port, { MALLOC_ARENA_MAX: '2', NODE_OPTIONS: YOUNG_GENERATION_FLAG, ...env })
  const located = await locateDaemon(dataDir)
  const admin = createAdminClient({ adminUrl: located.adminUrl, operatorToken: located.operatorToken })
  return { daemon, url: `http://127.0.0.1:${port}`, admin, adminUrl: located.adminUrl, operatorToken: located.operatorToken }
}

/** Runs `work` over `items` with at most `limit` at a time. */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++
        await work(items[index]!, index)
      }
    }),
  )
}

function expectStatus(what: string, status: number, body: unknown): void {
  if (status < 200 || status > 299) throw new Error(`${what}: HTTP ${status} ${JSON.stringify(body).slice(0, 300)}`)
}

/** `keys` keys, `projects` waiting projects plus the live one, every key on every waiting project, `buyers` on the live one. */
export async function seedLoad(d: LoadDaemon, options: { keys: number; projects: number; buyers: number }): Promise<SeededLoad> {
  const { url, admin } = d
  const seedStarted = Date.now()
  const keys: Array<{ apiKey: string; wallet: Address }> = []
  for (let i = 0; i < options.keys; i++) {
    const created = await api(url, 'POST', `${PUBLIC}/api-keys`, { body: { label: `buyer-${i}` } })
    expectStatus('api key', created.status, created.body)
    keys.push({ apiKey: created.body.apiKey as string, wallet: created.body.serviceWalletAddress as Address })
  }
  const slugs = Array.from({ length: options.projects }, (_, i) => `load-${i}`)
  const live = { slug: 'load-live', creator: '0x0000000000000000000000000000000000010ad0' as Address }
  await pool([...slugs, live.slug], 8, async (slug) => {
    const submitted = await api(url, 'POST', `${PUBLIC}/projects`, {
      body: { projectName: slug, projectUrls: [`https://${slug}.example`], projectInfo: 'load', contact: `@${slug}`, email: `${slug}@example.com` },
    })
    expectStatus('registration', submitted.status, submitted.body)
  })
  const pending = await admin.listReviews('registration', 'pending')
  await pool(pending, 8, async (review) => {
    const slug = (review.submission as { projectName: string }).projectName
    const creator = slug === live.slug ? live.creator : (`0x${(0x2000 + Number(slug.split('-')[1])).toString(16).padStart(40, '0')}` as Address)
    // The live one's symbol is its second fact (docs/launch-authenticity.md); the others never launch.
    await admin.approveRegistration(review.id, { slug, creator, launchpad: 'clanker', chain: 'base', ...(slug === live.slug ? { symbol: 'LIVE' } : {}) })
  })
  // Every key on every waiting project, limits no launch price meets; `buyers` keys also on the live one.
  await pool(keys, 10, async (key, k) => {
    for (let start = 0; start < slugs.length; start += 50) {
      const items = slugs
        .slice(start, start + 50)
        .map((slug, j) => ({ slug, maxSpendUsdc: String(10 + ((k + j) % 90)), maxFdvUsdc: '1000', expiresInMs: 86_400_000 }))
      const placed = await api(url, 'POST', `${PUBLIC}/orders`, { key: key.apiKey, body: { items } })
      expectStatus('orders', placed.status, placed.body)
    }
    // Within the key's minute budget: 10 requests here, the rest of its minute is for the traffic.
  })
  for (const key of keys.slice(0, options.buyers)) {
    await admin.devnetFund({ address: key.wallet, usdc: '50', chain: 'base' })
    const placed = await api(url, 'POST', `${PUBLIC}/orders`, {
      key: key.apiKey,
      body: { items: [{ slug: live.slug, maxSpendUsdc: '25', maxFdvUsdc: null, expiresInMs: 3_600_000 }] },
    })
    expectStatus('live order', placed.status, placed.body)
  }
  return { keys, slugs, live, seedSeconds: Math.round((Date.now() - seedStarted) / 1000) }
}

/**
 * The suite's traffic: the i-th round of key k. A weighted mix of endpoints (orders pages, projects, a project, /me,
 * /wallet, order edits); round-robin over keys keeps each key's share of the rate within its limit.
 */
export function loadMix(slugs: readonly string[], i: number, k: number): { method: 'GET' | 'PATCH'; path: string; body?: string } {
  const slot = i % 20
  if (slot < 6) return { method: 'GET', path: `${PUBLIC}/orders?limit=50` }
  if (slot < 9) return { method: 'GET', path: `${PUBLIC}/projects?limit=20` }
  if (slot < 13) return { method: 'GET', path: `${PUBLIC}/projects/${slugs[(i * 7) % slugs.length]}` }
  if (slot < 16) return { method: 'GET', path: `${PUBLIC}/me` }
  if (slot < 18) return { method: 'GET', path: `${PUBLIC}/wallet` }
  return {
    method: 'PATCH',
    path: `${PUBLIC}/orders`,
    body: JSON.stringify({
      items: [{ slug: slugs[(i + k) % slugs.length], maxSpendUsdc: String(10 + (i % 90)), maxFdvUsdc: '1000', expiresInMs: 86_400_000 }],
    }),
  }
}

/** The daemon's memory figures from its own Prometheus metrics (admin listener). */
export interface MemorySample {
  t: number
  rss: number
  heap: number
  heapTotal: number
  external: number
  store: number
  tables: number
}

export async function scrapeMemory(d: Pick<LoadDaemon, 'adminUrl' | 'operatorToken'>): Promise<MemorySample> {
  const text = await (await fetch(`${d.adminUrl}/metrics`, { headers: { authorization: `Bearer ${d.operatorToken}` } })).text()
  const value = (name: string) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(`${name} `))
        ?.split(' ')[1],
    )
  return {
    t: Date.now(),
    rss: value('process_resident_memory_bytes'),
    heap: value('nodejs_heap_size_used_bytes'),
    heapTotal: value('nodejs_heap_size_total_bytes'),
    external: value('nodejs_external_memory_bytes'),
    store: value('prebuy_store_memory_bytes'),
    tables: value('prebuy_store_table_files'),
  }
}
