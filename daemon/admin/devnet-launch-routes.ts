import type { FastifyInstance } from 'fastify'
import { getAddress, type Address } from 'viem'
import { z } from 'zod'
import { CHAIN_KEYS, type ChainConfig, type ChainKey } from '../../src/chain/chain-keys.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import { LAUNCHPADS } from '../../src/domain/records.ts'
import { launchToken } from '../../src/launchpads/devnet/launch-token.ts'
import { swapExactUsdcForToken } from '../../src/launchpads/devnet/swap-exact-usdc-for-token.ts'
import type { DevnetLaunchResult, DevnetSwapResult } from '../../src/admin-client/admin-types.ts'
import { readDevnetLaunchpads } from '../workers/devnet-launchpads.ts'
import type { AdminExtension } from './admin-extension.ts'

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 0x-prefixed 20-byte hex address')
const pips = z.number().int().min(0).max(1_000_000)

const launchBody = z.strictObject({
  launchpad: z.enum(LAUNCHPADS),
  creator: address,
  chain: z.enum(CHAIN_KEYS).default('base'),
  name: z.string().min(1).max(64).optional(),
  symbol: z.string().min(1).max(16).optional(),
  startFee: pips.optional(),
  endFee: pips.optional(),
  decaySeconds: z.number().int().min(1).max(86_400).optional(),
})

const swapBody = z.strictObject({
  token: address,
  usdc: z.string().regex(/^\d+(\.\d{1,6})?$/, 'expected a positive decimal amount with at most 6 decimals'),
  chain: z.enum(CHAIN_KEYS).default('base'),
})

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value ?? {})
  if (result.success) return result.data
  const issue = result.error.issues[0]
  throw new PrebuyError(
    'bad_request',
    'invalid_request',
    `${issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue?.message ?? 'invalid request'}`,
  )
}

/**
 * `prebuy devnet launch` and `prebuy devnet swap` on the daemon's own devnet: launch a token on a devnet launchpad
 * as its creator (impersonated), and make a third-party buy that moves its price. The launchpads are the ones the
 * launch workers deployed and recorded (devnet/launchpads.json).
 */
export function devnetLaunchRoutes(options: { dataDir: string; chains: Record<ChainKey, ChainConfig> }): AdminExtension {
  return (app: FastifyInstance) => {
    app.post('/admin/v1/devnet/launch', async (request): Promise<DevnetLaunchResult> => {
      const body = parse(launchBody, request.body)
      const chain = options.chains[body.chain]
      const addresses = (await readDevnetLaunchpads(options.dataDir))[body.chain]
      if (!addresses || addresses.chainId !== chain.chainId) {
        throw new PrebuyError(
          'unavailable',
          'devnet_launchpads_missing',
          `The devnet launchpads on ${body.chain} are not deployed yet; wait for the daemon to finish starting.`,
        )
      }
      const suffix = Date.now().toString(36).slice(-4).toUpperCase()
      const launched = await launchToken({
        chain,
        addresses,
        launchpad: body.launchpad,
        creator: getAddress(body.creator) as Address,
        name: body.name ?? `Devnet ${body.launchpad} ${suffix}`,
        symbol: body.symbol ?? `D${suffix}`,
        ...(body.startFee === undefined ? {} : { startFee: body.startFee }),
        ...(body.endFee === undefined ? {} : { endFee: body.endFee }),
        ...(body.decaySeconds === undefined ? {} : { decaySeconds: body.decaySeconds }),
      })
      return {
        chain: body.chain,
        launchpad: body.launchpad,
        creator: getAddress(body.creator),
        token: launched.token,
        poolId: launched.poolId,
        txHash: launched.txHash,
        blockNumber: launched.blockNumber.toString(),
      }
    })

    app.post('/admin/v1/devnet/swap', async (request): Promise<DevnetSwapResult> => {
      const body = parse(swapBody, request.body)
      const result = await swapExactUsdcForToken({ chain: options.chains[body.chain], token: getAddress(body.token) as Address, usdc: body.usdc })
      return {
        chain: body.chain,
        token: getAddress(body.token),
        usdc: body.usdc,
        txHash: result.txHash,
        blockNumber: result.blockNumber.toString(),
        tokensOut: result.tokensOut.toString(),
        feePips: result.poolSwap.fee,
      }
    })
  }
}
