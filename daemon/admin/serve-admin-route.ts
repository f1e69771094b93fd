import type { FastifyInstance, FastifyRequest } from 'fastify'
import { adminRequests } from '../../src/admin-api/contract.ts'
import type { AdminRoute, RouteResult, ValidRouteInput } from '../../src/admin-api/admin-routes.ts'
import { parseRequest } from './parse-request.ts'

/** A route's handler: its parsed input in, its answer out. */
export type RouteHandler<R extends AdminRoute> = (input: ValidRouteInput<R>) => Promise<RouteResult<R>>

/**
 * Serves one row of the admin route table (src/admin-api/admin-routes.ts): its method and path, its `:id`, query and
 * body parsed with the row's schemas (a misfit is a 400 invalid_request, parse-request.ts), the handler's answer as JSON.
 */
export function serveAdminRoute<R extends AdminRoute>(app: FastifyInstance, route: R, handle: RouteHandler<R>): void {
  app.route({ method: route.method, url: route.path, handler: async (request) => handle(validInput(route, request)) })
}

/** Every row of a table, each by the handler of the same name. */
export function serveAdminRoutes<T extends Record<string, AdminRoute>>(
  app: FastifyInstance,
  routes: T,
  handlers: { [K in keyof T]: RouteHandler<T[K]> },
): void {
  for (const [name, route] of Object.entries(routes)) serveAdminRoute(app, route, handlers[name as keyof T] as RouteHandler<AdminRoute>)
}

function validInput<R extends AdminRoute>(route: R, request: FastifyRequest): ValidRouteInput<R> {
  const input: { id?: string; query?: unknown; body?: unknown } = {}
  if (route.path.includes(':id')) input.id = parseRequest(adminRequests.idParams, request.params).id
  if (route.query) input.query = parseRequest(route.query, request.query)
  if (route.body) input.body = parseRequest(route.body, request.body)
  return input as ValidRouteInput<R>
}
