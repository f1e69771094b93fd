import { z } from 'zod'
import { checksumAddressSchema } from '../common/schemas.ts'
import type { ChainAddresses } from './chain-keys.ts'
import { ENTRY_POINT_V07_ADDRESS, MULTICALL3_ADDRESS, PERMIT2_ADDRESS, SIMPLE_ACCOUNT_FACTORY_V07_ADDRESS } from './canonical-addresses.ts'

export const BASE_CHAIN_ID = 8453

/**
 * Real Base addresses, every one a default (../shared/facts/base-today.md, "Canonical contracts and their Base
 * addresses", which gives each source): the tokens, Uniswap v4 and v3, the chain-independent canonical deployments, the
 * v4 PositionManager (@zoralabs/protocol-deployments, 8453), the canonical SimpleAccountFactory v0.7 (the default wallet of real
 * chains; permissionless's default for SimpleAccount v0.7) and the WETH/USDC 0.05% v3 pool
 * (CREATE2 of the v3 factory with the canonical pool init code hash). The devnet's `base` chain places its contracts
 * at exactly these addresses (devnet/chain/deploy-fixtures.ts; test/chain/devnet.test.ts checks it).
 */
export const BASE_DEFAULT_ADDRESSES = {
  stablecoin: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  weth: '0x4200000000000000000000000000000000000006',
  poolManager: '0x498581fF718922c3f8e6A244956aF099B2652b2b',
  stateView: '0xA3c0c9b65baD0b08107Aa264b0f3dB444b867A71',
  v4Quoter: '0x0d5e0F971ED27FBfF6c2837bf31316121532048D',
  positionManager: '0x7C5f5A4bBd8fD63184577525326123B519429bDc',
  universalRouter: '0x6fF5693b99212Da76ad316178A184AB56D299b43',
  permit2: PERMIT2_ADDRESS,
  entryPoint: ENTRY_POINT_V07_ADDRESS,
  accountFactory: SIMPLE_ACCOUNT_FACTORY_V07_ADDRESS,
  multicall3: MULTICALL3_ADDRESS,
  v3Factory: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD',
  ethUsdPool: '0xd0b53D9277642d899DF5C87A3966A349A798F224',
} as const satisfies ChainAddresses

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
