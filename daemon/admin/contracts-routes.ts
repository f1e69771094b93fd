import type { FastifyInstance } from 'fastify'
import { adminRequests, type DeployContractsResult } from '../../src/admin-api/contract.ts'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import { parseRequest } from './parse-request.ts'

/** `prebuy contracts ...`: this service's own contracts on the chains it runs on. */
export interface ContractsOperations {
  /** Deploys what is missing on a chain (idempotent); refused with chain_disabled for a chain the daemon does not run on. */
  deploy(chain: ChainKey): Promise<DeployContractsResult>
}

export function contractsRoutes(app: FastifyInstance, contracts: ContractsOperations): void {
  app.post(
    '/admin/v1/contracts/deploy',
    async (request): Promise<DeployContractsResult> => contracts.deploy(parseRequest(adminRequests.deployContracts, request.body).chain),
  )
}
