import type { Readable } from 'node:stream'
import type { OPERATOR_ROUTES } from '../../src/admin-api/admin-routes.ts'
import type { RouteHandler } from './serve-admin-route.ts'

type OperatorRoutes = typeof OPERATOR_ROUTES

/**
 * What the operator's core admin routes can do, as one port: one handler per row of the route table
 * (src/admin-api/admin-routes.ts OPERATOR_ROUTES), so a new row asks the compiler for its handler here.
 * service-operations.ts implements it with the services; the routes only validate, call and serialise. The devnet
 * helpers are a port of their own (devnet/admin/devnet-operations.ts).
 */
export type AdminOperations = { [K in keyof OperatorRoutes]: RouteHandler<OperatorRoutes[K]> } & {
  /** A consistent backup of the store and the data dir files a restore needs, as a gzip stream (src/store/backup). */
  backup(): Readable
}
