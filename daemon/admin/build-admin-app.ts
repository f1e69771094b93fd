import type { Registry } from 'prom-client'
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify'
import { ADMIN_STREAMS, OPERATOR_ROUTES } from '../../src/admin-api/admin-routes.ts'
import { hardenedServerOptions } from '../http/hardened-server.ts'
import { refuseWhileClosing } from '../http/refuse-while-closing.ts'
import type { Logger } from '../../src/common/logger.ts'
import { ROUTE_NOT_FOUND, sendAdminError, UNAUTHORIZED } from './admin-errors.ts'
import type { AdminOperations } from './admin-operations.ts'
import { type ContractsOperations, contractsRoutes } from './contracts-routes.ts'
import { refuseDevnetRoutes } from './refuse-devnet-routes.ts'
import { eventRoutes } from './event-routes.ts'
import type { ConsoleFeed } from '../events/console-feed.ts'
import { serveAdminRoutes } from './serve-admin-route.ts'
import { isOperatorAuthorized } from './token-guard.ts'

export interface AdminAppDeps {
  operations: AdminOperations
  operatorToken: string
  logger: Logger
  /** Present only when the daemon runs its own devnet chains: the devnet wing registers its routes (EmbeddedDevnet.adminRoutes). */
  devnetRoutes?: (app: FastifyInstance) => void
  /** `prebuy contracts deploy` (contracts-routes.ts). */
  contracts?: ContractsOperations
  /** Served as GET /admin/v1/events (the operator console's live stream). */
  events?: ConsoleFeed
  /** Served as GET /metrics (Prometheus text format), behind the operator token like every admin route. */
  metrics?: Registry
}

/**
 * The operator's API: a separate fastify instance the daemon binds to loopback only. Every route, including unknown
 * ones, requires the operator token, so nothing about the admin surface is visible without it.
 */
export function buildAdminApp(deps: AdminAppDeps): FastifyInstance {
  const app = Fastify({
    // The public listener's handling of what no route sees, before the token check: slow clients cut off, framework
    // errors (bad URL, 431, a body shorter than its Content-Length) in the error shape without echoing the URL.
    ...hardenedServerOptions(),
    loggerInstance: deps.logger.child({ component: 'admin-api' }) as FastifyBaseLogger,
    bodyLimit: 64 * 1024,
    return503OnClosing: false,
  }) as unknown as FastifyInstance
  refuseWhileClosing(app)
  const { operations } = deps

  app.addHook('onRequest', async (request, reply) => {
    if (!isOperatorAuthorized(request.headers.authorization, deps.operatorToken)) {
      return reply.code(401).send(UNAUTHORIZED)
    }
  })

  app.setNotFoundHandler((_request, reply) => reply.code(404).send(ROUTE_NOT_FOUND))
  app.setErrorHandler((error: FastifyError, request, reply) => sendAdminError(reply, error, request.log))

  const { metrics } = deps
  app.get(ADMIN_STREAMS.backup.path, async (_request, reply) =>
    reply.type('application/gzip').header('content-disposition', 'attachment; filename="prebuy-backup.jsonl.gz"').send(operations.backup()),
  )
  if (metrics) app.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.metrics()))
  serveAdminRoutes(app, OPERATOR_ROUTES, operations)

  if (deps.devnetRoutes) deps.devnetRoutes(app)
  else refuseDevnetRoutes(app)
  if (deps.contracts) contractsRoutes(app, deps.contracts)
  if (deps.events) eventRoutes(app, deps.events)

  return app
}
