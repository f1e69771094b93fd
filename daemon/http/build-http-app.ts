import Fastify, { type FastifyInstance, LogController } from 'fastify'
import { buildOpenApiDocument, API_PREFIX } from '../../src/api/openapi.ts'
import { renderDocsHtml } from '../../src/api/render-docs.ts'
import { systemClock } from '../../src/services/clock.ts'
import { createAuthHook } from './auth.ts'
import { registerCors } from './cors.ts'
import {
  DEFAULT_BODY_LIMIT,
  DEFAULT_REQUEST_LOG_PER_MINUTE,
  DEFAULT_KEY_CREATION_PER_IP_PER_HOUR,
  DEFAULT_SUBMISSIONS_PER_IP_PER_HOUR,
  DEFAULT_TIMEOUTS,
  type HttpAppDeps,
} from './context.ts'
import { registerHealthRoutes } from './health-routes.ts'
import { errorBody, sendError } from './error-mapping.ts'
import { hardenedServerOptions } from './hardened-server.ts'
import { createFixedWindowLimiter } from './rate-limit.ts'
import { logRequests } from './request-log.ts'
import { registerKeyRoutes, registerOpenRoutes } from './routes/public-routes.ts'
import { refuseWhileClosing } from './refuse-while-closing.ts'

export type { HttpAppConfig, HttpAppDeps } from './context.ts'

/** Path pattern of a registered route -> its methods; answers "405 or 404?" for unmatched requests. */
function createRouteTable() {
  const routes: Array<{ pattern: RegExp; methods: Set<string> }> = []
  return {
    add(url: string, methods: string[]) {
      const source = url
        .split('/')
        .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')
      const pattern = new RegExp(`^${source}/?$`)
      const existing = routes.find((route) => route.pattern.source === pattern.source)
      if (existing) for (const method of methods) existing.methods.add(method)
      else routes.push({ pattern, methods: new Set(methods) })
    },
    allowed(path: string): string[] {
      return routes.filter((route) => route.pattern.test(path)).flatMap((route) => [...route.methods])
    },
  }
}

/**
 * The public HTTP app: `/api/public/v1/*`, the OpenAPI document and the `/docs` page. The daemon listens on it (and
 * may register more routes, e.g. its admin API, on a separate instance). Not yet listening when returned.
 */
export async function buildHttpApp(deps: HttpAppDeps): Promise<FastifyInstance> {
  const now = deps.now ?? systemClock
  const timeouts = { ...DEFAULT_TIMEOUTS, ...deps.config.timeouts }
  const app = Fastify({
    // Slow clients cut off; requests fastify never routes (malformed HTTP, oversized headers, undecodable URLs) in
    // the error shape, as on the admin listener.
    ...hardenedServerOptions(timeouts),
    loggerInstance: deps.logger,
    // Replaced by a bounded request log (logRequests): a flood of requests cannot fill the disk.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: deps.config.trustProxy ? [...deps.config.trustProxy] : false,
    bodyLimit: deps.config.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Our own 503 while closing (refuseWhileClosing), in the error shape of every other answer.
    return503OnClosing: false,
  }) as unknown as FastifyInstance
  // Before every hook that may answer (closing, auth, rate limits): their errors reach the page with CORS headers too.
  registerCors(app, deps.config.corsOrigins ?? [])
  refuseWhileClosing(app)
  deps.metrics?.instrument(app)
  logRequests(app, { perMinute: deps.config.requestLogPerMinute ?? DEFAULT_REQUEST_LOG_PER_MINUTE, now })
  app.decorateRequest('prebuyKey', null)
  // JSON only: a text/plain body is a 415, not a string that fails validation.
  app.removeContentTypeParser('text/plain')

  const routeTable = createRouteTable()
  app.addHook('onRoute', (route) => {
    routeTable.add(route.url, Array.isArray(route.method) ? route.method : [route.method])
  })

  app.setErrorHandler((error, request, reply) => sendError(reply, error, request.log))
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url
    const allowed = routeTable.allowed(path)
    // `/orders/` is not `/orders`: the table matches it loosely, but a method it allows is then simply not here (a 405
    // whose Allow lists the method asked for would contradict itself).
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send(errorBody(405, `Method ${request.method} is not allowed here.`))
    }
    return reply.code(404).send(errorBody(404, 'No such endpoint.'))
  })

  const keyLimiter = createFixedWindowLimiter({ limit: deps.config.rateLimit.perKeyPerMinute, windowMs: 60_000, now })
  const ipLimiter = createFixedWindowLimiter({
    limit: deps.config.rateLimit.apiKeyCreationPerIpPerHour ?? DEFAULT_KEY_CREATION_PER_IP_PER_HOUR,
    windowMs: 3_600_000,
    now,
  })

  // One budget for the three review submissions (each stored for the operators to read: a flood fills their queue and the disk).
  const submissionLimiter = createFixedWindowLimiter({
    limit: deps.config.rateLimit.submissionsPerIpPerHour ?? DEFAULT_SUBMISSIONS_PER_IP_PER_HOUR,
    windowMs: 3_600_000,
    now,
  })

  const openApi = buildOpenApiDocument()
  const openApiJson = JSON.stringify(openApi)
  const docsHtml = renderDocsHtml(openApi)

  await app.register(
    async (scope) => {
      scope.get('/openapi.json', async (_request, reply) => reply.type('application/json').send(openApiJson))
      registerOpenRoutes(scope, deps, { keyCreation: ipLimiter, submissions: submissionLimiter })
      await scope.register(async (authed) => {
        authed.addHook('onRequest', createAuthHook(deps.services.keys, keyLimiter))
        registerKeyRoutes(authed, deps)
      })
    },
    { prefix: API_PREFIX },
  )
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(docsHtml))
  registerHealthRoutes(app, deps)
  return app
}
