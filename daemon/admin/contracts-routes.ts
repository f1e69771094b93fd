import type { FastifyInstance } from 'fastify'
import { CONTRACTS_ROUTES } from '../../src/admin-api/admin-routes.ts'
import type { DeployContractsResult } from '../../src/admin-api/contract.ts'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import { serveAdminRoute } from './serve-admin-route.ts'

/** `prebuy contracts ...`: this service's own contracts on the chains it runs on. */
export interface ContractsOperations {
  /** Deploys what is missing on a chain (idempotent); refused with chain_disabled for a chain the daemon does not run on. */
  deploy(chain: ChainKey): Promise<DeployContractsResult>
}

export function contractsRoutes(app: FastifyInstance, contracts: ContractsOperations): void {
  serveAdminRoute(app, CONTRACTS_ROUTES.deployContracts, ({ body }) => contracts.deploy(body.chain))
}
