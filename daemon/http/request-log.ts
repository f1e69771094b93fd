import type { FastifyInstance } from 'fastify'
import { createLogBudget } from '../../src/common/log-budget.ts'
import type { Clock } from '../../src/services/clock.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** Whether this request's lines are in the log (the request log budget admitted it). */
    prebuyLogged: boolean
  }
}

/**
 * The public API's request log, bounded: fastify's own lines ("incoming request", "request completed") are replaced by
 * the same two lines for the first `perMinute` requests of each minute; the others are counted and summed up in one
 * line ("requests not logged") when the next minute's first request arrives. An answer of 5xx is always logged. A
 * flood of bad requests can therefore not fill the disk (each line is also bounded: see loggableUrl), and the
 * Prometheus counters on the admin listener still count every request.
 */
export function logRequests(app: FastifyInstance, options: { perMinute: number; now: Clock }): void {
  const budget = createLogBudget({ perWindow: options.perMinute, windowMs: 60_000, now: options.now })
  app.decorateRequest('prebuyLogged', false)
  app.addHook('onRequest', async (request) => {
    const { admitted, summary } = budget.take()
    if (summary) {
      request.log.warn(
        { notLogged: summary.requests, since: new Date(summary.since).toISOString(), until: new Date(summary.until).toISOString() },
        'requests not logged (over the request log budget)',
      )
    }
    request.prebuyLogged = admitted
    if (admitted) request.log.info({ req: request }, 'incoming request')
  })
  app.addHook('onResponse', async (request, reply) => {
    if (request.prebuyLogged || reply.statusCode >= 500) {
      request.log.info({ res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime }, 'request completed')
    } else {
      budget.suppressed(reply.statusCode)
    }
  })
}
