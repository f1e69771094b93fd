import type { FastifyInstance } from 'fastify'
import {
  adminRequests,
  type Deployments,
  type DevnetFundResult,
  type DevnetLaunchResult,
  type DevnetSwapResult,
  type MineResult,
} from '../../src/admin-api/contract.ts'
import type { DevnetOperations } from './devnet-operations.ts'
import { parseRequest } from '../../daemon/admin/parse-request.ts'

/**
 * `prebuy devnet ...`: every admin route that drives the daemon's own devnet chains, registered only when it runs
 * them. On real chains the daemon answers the same paths with the reason instead (daemon/admin/refuse-devnet-routes.ts).
 */
export function devnetRoutes(app: FastifyInstance, devnet: DevnetOperations): void {
  app.post(
    '/admin/v1/devnet/fund',
    async (request): Promise<DevnetFundResult> => ({
      funded: await devnet.fund(parseRequest(adminRequests.devnetFund, request.body)),
    }),
  )
  app.post('/admin/v1/devnet/mine', async (request): Promise<MineResult> => devnet.mine(parseRequest(adminRequests.devnetMine, request.body).blocks))
  app.get('/admin/v1/devnet/deployments', async (): Promise<Deployments> => devnet.deployments())
  app.post('/admin/v1/devnet/launch', async (request): Promise<DevnetLaunchResult> => devnet.launch(parseRequest(adminRequests.devnetLaunch, request.body)))
  app.post('/admin/v1/devnet/swap', async (request): Promise<DevnetSwapResult> => devnet.swap(parseRequest(adminRequests.devnetSwap, request.body)))
}
