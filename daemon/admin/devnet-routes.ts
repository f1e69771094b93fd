import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { CHAIN_KEYS } from '../../src/chain/chain-keys.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import { addressSchema, decimalSchema } from '../../src/common/schemas.ts'
import { LAUNCHPADS } from '../../src/domain/records.ts'
import type { DevnetOperations } from './devnet-operations.ts'
import { parseRequest } from './parse-request.ts'

const pips = z.number().int().min(0).max(1_000_000)

const schemas = {
  fund: z
    .strictObject({ address: addressSchema, chain: z.enum(CHAIN_KEYS).optional(), usdc: decimalSchema().optional(), eth: decimalSchema().optional() })
    .refine((body) => body.usdc !== undefined || body.eth !== undefined, 'give usdc, eth or both'),
  mine: z.strictObject({ blocks: z.number().int().min(1).max(10_000).default(1) }),
  launch: z.strictObject({
    launchpad: z.enum(LAUNCHPADS),
    creator: addressSchema,
    chain: z.enum(CHAIN_KEYS).default('base'),
    name: z.string().min(1).max(64).optional(),
    symbol: z.string().min(1).max(16).optional(),
    startFee: pips.optional(),
    endFee: pips.optional(),
    decaySeconds: z.number().int().min(1).max(86_400).optional(),
  }),
  swap: z.strictObject({
    token: addressSchema,
    usdc: decimalSchema(6),
    chain: z.enum(CHAIN_KEYS).default('base'),
  }),
}

/**
 * `prebuy devnet ...`: every admin route that drives the daemon's own devnet chains, registered only when it runs
 * them. On real chains the same paths answer 400 with the reason, so the CLI says why rather than "no such route".
 */
export function devnetRoutes(app: FastifyInstance, devnet: DevnetOperations | undefined): void {
  if (!devnet) {
    app.all('/admin/v1/devnet/*', async () => {
      throw new PrebuyError('bad_request', 'devnet_only', 'devnet commands need the daemon to run its own devnet chains (chains.mode devnet)')
    })
    return
  }
  app.post('/admin/v1/devnet/fund', async (request) => ({ funded: await devnet.fund(parseRequest(schemas.fund, request.body)) }))
  app.post('/admin/v1/devnet/mine', async (request) => devnet.mine(parseRequest(schemas.mine, request.body).blocks))
  app.get('/admin/v1/devnet/deployments', async () => devnet.deployments())
  app.post('/admin/v1/devnet/launch', async (request) => devnet.launch(parseRequest(schemas.launch, request.body)))
  app.post('/admin/v1/devnet/swap', async (request) => devnet.swap(parseRequest(schemas.swap, request.body)))
}
