import type { FastifyInstance } from 'fastify'
import { judgeReadiness } from '../../src/domain/health/readiness.ts'
import type { HttpAppDeps } from './context.ts'
import { errorBody } from './error-mapping.ts'

/**
 * Probes for a load balancer, systemd or a monitor, outside the versioned API, with no key and no rate limit:
 * - `GET /healthz`: the process serves HTTP (200 `{status: 'ok'}`; 503 while it shuts down);
 * - `GET /readyz`: it can do its job now (200 `{status: 'ready', checks}`, else 503 in the error shape with the failing
 *   checks in `message` and `checks`): see judgeReadiness.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: Pick<HttpAppDeps, 'store' | 'readiness'>): void {
  const readiness = deps.readiness ?? (async () => judgeReadiness({ store: deps.store.health(), chains: [], maxLagBlocks: 0 }))
  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async (_request, reply) => {
    const report = await readiness()
    if (report.ready) return { status: 'ready', checks: report.checks }
    return reply
      .code(503)
      .header('retry-after', '5')
      .send({ ...errorBody(503, `Not ready: ${report.problems.join('; ')}.`), checks: report.checks })
  })
}
