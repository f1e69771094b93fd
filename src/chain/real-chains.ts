import { z } from 'zod'
import { checksumAddressSchema } from '../common/schemas.ts'
import type { ChainAddresses } from './chain-keys.ts'
import { ENTRY_POINT_V07_ADDRESS, MULTICALL3_ADDRESS, PERMIT2_ADDRESS } from './canonical-addresses.ts'

export const BASE_CHAIN_ID = 8453

/**
 * Real Base addresses from ../shared/facts/launchpads.md (Uniswap and token table) plus the chain-independent canonical
 * deployments. Not listed in the facts, so they have no default and must be configured: the v4 PositionManager, the
 * smart-account factory (it depends on the wallet implementation chosen for real chains) and the WETH/USDC 0.05% v3
 * pool (or leave it out and resolve it with `v3Factory.getPool(WETH, USDC, 500)`).
 */
export const BASE_DEFAULT_ADDRESSES = {
  stablecoin: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  weth: '0x4200000000000000000000000000000000000006',
  poolManager: '0x498581fF718922c3f8e6A244956aF099B2652b2b',
  stateView: '0xA3c0c9b65baD0b08107Aa264b0f3dB444b867A71',
  v4Quoter: '0x0d5e0F971ED27FBfF6c2837bf31316121532048D',
  universalRouter: '0x6fF5693b99212Da76ad316178A184AB56D299b43',
  v3Factory: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD',
  permit2: PERMIT2_ADDRESS,
  entryPoint: ENTRY_POINT_V07_ADDRESS,
  multicall3: MULTICALL3_ADDRESS,
} as const satisfies Partial<ChainAddresses>

export const chainAddressesSchema = z.object({
  stablecoin: checksumAddressSchema,
  weth: checksumAddressSchema,
  poolManager: checksumAddressSchema,
  stateView: checksumAddressSchema,
  v4Quoter: checksumAddressSchema,
  positionManager: checksumAddressSchema,
  universalRouter: checksumAddressSchema,
  permit2: checksumAddressSchema,
  entryPoint: checksumAddressSchema,
  accountFactory: checksumAddressSchema,
  multicall3: checksumAddressSchema,
  v3Factory: checksumAddressSchema,
  ethUsdPool: checksumAddressSchema,
}) satisfies z.ZodType<ChainAddresses, unknown>

const httpUrl = z.url({ protocol: /^https?$/ })
const wsUrl = z.url({ protocol: /^wss?$/ })

/**
 * One real chain's configuration as the config layer reads it. `ethUsdPool` may be omitted (see
 * resolveEthUsdPool); every other address is required.
 */
export const chainConfigSchema = z.object({
  rpcUrl: httpUrl,
  wsUrl: wsUrl,
  chainId: z.number().int().positive(),
  addresses: chainAddressesSchema.partial({ ethUsdPool: true }),
})
export type ChainConfigInput = z.input<typeof chainConfigSchema>
export type ParsedChainConfig = z.output<typeof chainConfigSchema>

/** Real Base: chain id and the facts-file addresses are defaults, so only RPC URLs and the undocumented ones are needed. */
export const baseChainConfigSchema = z.object({
  rpcUrl: httpUrl,
  wsUrl: wsUrl,
  chainId: z.literal(BASE_CHAIN_ID).default(BASE_CHAIN_ID),
  addresses: z.object({
    stablecoin: checksumAddressSchema.default(BASE_DEFAULT_ADDRESSES.stablecoin),
    weth: checksumAddressSchema.default(BASE_DEFAULT_ADDRESSES.weth),
    poolManager: checksumAddressSchema.default(BASE_DEFAULT_ADDRESSES.poolManager),
    stateView: checksumAddressSchema.default(BASE_DEFAULT_ADDRESSES.stateView),
    v4Quoter: checksumAddressSchema.default(BASE_DEFAULT_ADDRESSES.v4Quoter),
    positionManager: checksumAddressSchema,
    universalRouter: checksumAddressSchema.default(BASE_DEFAULT_ADDRESSES.universalRouter),
    permit2: checksumAddressSchema.default(BASE_DEFAULT_ADDRESSES.permit2),
    entryPoint: checksumAddressSchema.default(BASE_DEFAULT_ADDRESSES.entryPoint),
    accountFactory: checksumAddressSchema,
    multicall3: checksumAddressSchema.default(BASE_DEFAULT_ADDRESSES.multicall3),
    v3Factory: checksumAddressSchema.default(BASE_DEFAULT_ADDRESSES.v3Factory),
    ethUsdPool: checksumAddressSchema.optional(),
  }),
})
