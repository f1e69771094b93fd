import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { silentLogger, type Logger } from '../../src/common/logger.ts'
import { createServices, type Services } from '../../src/services/services.ts'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { buildHttpApp, type HttpAppConfig, type HttpAppDeps } from '../../daemon/http/build-http-app.ts'
import type { LaunchInfo } from '../../src/domain/records.ts'
import { projectLaunchOps } from '../../src/store/project-writes.ts'
import { createFakeWallets, type FakeWallets } from './fake-wallets.ts'

export interface Harness {
  dataDir: string
  store: Store
  services: Services
  wallets: FakeWallets
  app: FastifyInstance
  now: { value: number }
  /** Closes app and store (keeps the data dir). */
  close(): Promise<void>
  /** Closes and reopens store and app on the same data dir. */
  restart(): Promise<Harness>
  /** Removes the data dir too. */
  destroy(): Promise<void>
}

export interface HarnessOptions {
  dataDir?: string
  config?: Partial<HttpAppConfig['rateLimit']>
  wallets?: FakeWallets
  now?: { value: number }
  logger?: Logger
  trustProxy?: false | readonly string[]
  timeouts?: HttpAppConfig['timeouts']
  readiness?: HttpAppDeps['readiness']
  metrics?: HttpAppDeps['metrics']
  requestLogPerMinute?: number
  corsOrigins?: readonly string[]
}

/** A real LevelDB in a temp dir, the real services and app, a fake wallet port and a settable clock. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'prebuy-api-')))
  const store = await openStore({ dataDir })
  const wallets = options.wallets ?? createFakeWallets()
  const nowMs = options.now ?? { value: Date.UTC(2026, 0, 1, 12, 0, 30) }
  const now = () => nowMs.value
  const services = createServices({ store, wallets, now })
  const app = await buildHttpApp({
    store,
    services,
    wallets,
    logger: options.logger ?? silentLogger,
    now,
    ...(options.readiness ? { readiness: options.readiness } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    config: {
      rateLimit: { perKeyPerMinute: 100, apiKeyCreationPerIpPerHour: 1000, submissionsPerIpPerHour: 1000, ...options.config },
      ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
      ...(options.timeouts === undefined ? {} : { timeouts: options.timeouts }),
      ...(options.requestLogPerMinute === undefined ? {} : { requestLogPerMinute: options.requestLogPerMinute }),
      ...(options.corsOrigins === undefined ? {} : { corsOrigins: options.corsOrigins }),
    },
  })
  await app.ready()
  const harness: Harness = {
    dataDir,
    store,
    services,
    wallets,
    app,
    now: nowMs,
    async close() {
      await app.close()
      await store.close()
    },
    async restart() {
      await harness.close()
      return createHarness({ ...options, dataDir, wallets, now: nowMs })
    },
    async destroy() {
      await harness.close().catch(() => undefined)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
  return harness
}

export const PREFIX = '/api/public/v1'
export const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` })

/** Creates a key through the API. */
export async function createKey(h: Harness, label: string): Promise<{ apiKey: string; serviceWalletAddress: string }> {
  const res = await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label } })
  if (res.statusCode !== 201) throw new Error(`key creation failed: ${res.statusCode} ${res.body}`)
  return res.json()
}

/** An approved project owned by a fresh key, through the review flow (registration -> approval). */
export async function approvedProject(h: Harness, slug: string, ip = '10.0.0.1') {
  const receipt = await h.services.reviews.submitRegistration(
    {
      projectName: `Project ${slug}`,
      projectUrls: [`https://${slug}.example`],
      projectInfo: `About ${slug}.\n\nSecond paragraph.`,
      contact: `@${slug}`,
      email: `${slug}@example.com`,
    },
    ip,
  )
  if (receipt.status !== 'received') throw new Error('registration not received')
  const pending = (await h.services.reviews.list({ kind: 'registration', status: 'pending' })).at(-1)
  if (!pending) throw new Error('no pending registration')
  return h.services.reviews.approveRegistration(pending.id, {
    slug,
    creatorAddress: '0x00000000000000000000000000000000000000c1',
    launchpad: 'clanker',
    chain: 'base',
    label: `owner-${slug}`,
  })
}

/** An approved project without an owner key (fast; for tests that need many projects). */
export function plainProject(h: Harness, slug: string) {
  return h.services.projects.createProject({
    slug,
    creatorAddress: '0x00000000000000000000000000000000000000c2',
    launchpad: 'zora',
    chain: 'base',
    launchMethod: 'open_market',
    ownerKeyId: null,
  })
}

/** Marks a project launched as the indexer does (the same project write), for API tests without a chain. */
export async function markLaunched(h: Harness, slug: string, launch: LaunchInfo): Promise<void> {
  const project = await h.store.sub.projects.get(slug)
  if (!project) throw new Error(`no project ${slug}`)
  await h.store.batch(projectLaunchOps(h.store, project, launch, h.now.value))
}
