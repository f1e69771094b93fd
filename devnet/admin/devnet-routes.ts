import type { FastifyInstance } from 'fastify'
import { DEVNET_ROUTES } from '../../src/admin-api/admin-routes.ts'
import type { DevnetOperations } from './devnet-operations.ts'
import { serveAdminRoutes } from '../../daemon/admin/serve-admin-route.ts'

/**
 * `prebuy devnet ...`: every admin route that drives the daemon's own devnet chains (DEVNET_ROUTES of the route
 * table), registered only when it runs them. On real chains the daemon answers the same paths with the reason instead
 * (daemon/admin/refuse-devnet-routes.ts).
 */
export function devnetRoutes(app: FastifyInstance, devnet: DevnetOperations): void {
  serveAdminRoutes(app, DEVNET_ROUTES, {
    devnetFund: async ({ body }) => ({ funded: await devnet.fund(body) }),
    devnetMine: ({ body }) => devnet.mine(body.blocks),
    devnetDeployments: () => devnet.deployments(),
    devnetLaunch: ({ body }) => devnet.launch(body),
    devnetSwap: ({ body }) => devnet.swap(body),
  })
}
