import type { HttpMetrics } from '../health/metrics/http-metrics.ts'
import type { ReadinessReport } from '../../src/domain/health/readiness.ts'
import type { ApiKeyRecord } from '../../src/domain/records.ts'
import type { Logger } from '../../src/common/logger.ts'
import type { Clock } from '../../src/services/clock.ts'
import type { Services } from '../../src/services/services.ts'
import type { Store } from '../../src/store/open-store.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key on routes under the auth hook; null elsewhere. */
    prebuyKey: ApiKeyRecord | null
  }
}

export interface HttpAppConfig {
  rateLimit: {
    /** Requests per minute per key on authenticated endpoints (spec: 100). */
    perKeyPerMinute: number
    /** POST /api-keys per client IP per hour; default 10. */
    apiKeyCreationPerIpPerHour?: number
    /** POST /projects, /api-key-requests and /feedback together, per client IP per hour; default 20. */
    submissionsPerIpPerHour?: number
  }
  /**
   * Passed to fastify (proxy-addr): the proxies whose X-Forwarded-For is believed, so request.ip is the client's.
   * Never `true` (any client could then choose its IP).
   */
  trustProxy?: false | readonly string[]
  /** Exact browser origins allowed to call the API (CORS, daemon/http/cors.ts); none (the default): no CORS headers. */
  corsOrigins?: readonly string[]
  /** Largest accepted request body in bytes; default 64 KiB (a 50-item batch is a few KiB). */
  bodyLimit?: number
  /** Requests whose lines the request log keeps per minute (the rest are counted in one summary line); default 300. */
  requestLogPerMinute?: number
  /** Slow-client limits (defaults in DEFAULT_TIMEOUTS); tests shorten them. */
  timeouts?: Partial<HttpTimeouts>
}

/** How long a client may take, ms: a connection that exceeds one is answered 408 (or closed) and freed. */
export interface HttpTimeouts {
  /** From connection to the end of the request headers (slow headers, Slowloris). */
  headersMs: number
  /** From connection to the end of the whole request, body included (slow bodies). */
  requestMs: number
  /** An idle kept-alive connection between requests. */
  keepAliveMs: number
  /** How often Node checks the two limits above (its default is 30 s, which would let them run over by that much). */
  checkIntervalMs: number
}

export const DEFAULT_REQUEST_LOG_PER_MINUTE = 300

export const DEFAULT_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, checkIntervalMs: 1_000 }

export interface HttpAppDeps {
  store: Store
  services: Services
  wallets: WalletService
  logger: Logger
  config: HttpAppConfig
  now?: Clock
  /** GET /readyz's check (the daemon's: store, chains, indexer lag); without it only the store is checked. */
  readiness?: () => Promise<ReadinessReport>
  /** Counts and times every answer (Prometheus, served on the admin listener). */
  metrics?: HttpMetrics
}

export const DEFAULT_KEY_CREATION_PER_IP_PER_HOUR = 10
/** Review submissions (POST /projects, /api-key-requests, /feedback together) per client IP per hour. */
export const DEFAULT_SUBMISSIONS_PER_IP_PER_HOUR = 20
export const DEFAULT_BODY_LIMIT = 64 * 1024

/** The authenticated key; routes under the auth hook always have one. */
export function keyOf(request: { prebuyKey: ApiKeyRecord | null }): ApiKeyRecord {
  if (!request.prebuyKey) throw new Error('route registered outside the auth scope')
  return request.prebuyKey
}
