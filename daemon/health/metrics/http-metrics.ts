import type { FastifyInstance } from 'fastify'
import { Counter, Histogram, type Registry } from 'prom-client'

/** Seconds: the public API answers in milliseconds; a wallet read waits up to 5 s for a chain. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export interface HttpMetrics {
  /** Counts and times every answer of an app (registered before its routes, so the hook covers them all). */
  instrument(app: FastifyInstance): void
}

/**
 * Request rates and latencies by route pattern (`/api/public/v1/orders/:slug`, never the raw URL: a client cannot
 * create label values), method and status code. Requests no route matched are counted under `route="unmatched"`.
 */
export function createHttpMetrics(registry: Registry): HttpMetrics {
  const requests = new Counter({
    name: 'prebuy_http_requests_total',
    help: 'Public API requests answered, by route pattern, method and status code.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'prebuy_http_request_duration_seconds',
    help: 'Public API time from request to response, by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  })
  return {
    instrument(app) {
      app.addHook('onResponse', async (request, reply) => {
        const route = request.routeOptions.url ?? 'unmatched'
        // Unknown methods would be label values a client chooses: everything fastify does not route is one value.
        const method = request.routeOptions.url === undefined ? 'other' : request.method
        requests.inc({ route, method, status: String(reply.statusCode) })
        duration.observe({ route, method }, reply.elapsedTime / 1000)
      })
    },
  }
}
