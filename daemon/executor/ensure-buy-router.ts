import {
  concat,
  encodeAbiParameters,
  keccak256,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem'
import { create2Address, ensureCreate2Contract } from '../chain/ensure-create2-contract.ts'
import { buyRouterBytecode } from './buy-router-abi.ts'

const SALT: Hex = keccak256(new TextEncoder().encode('prebuy.PrebuyBuyRouter.v1'))

const initCode = (poolManager: Address): Hex => concat([buyRouterBytecode, encodeAbiParameters([{ type: 'address' }], [poolManager])])

/** The router's CREATE2 salt and init code for a PoolManager (what `prebuy contracts deploy` sends). */
export const buyRouterCreate2 = (poolManager: Address): { salt: Hex; initCode: Hex } => ({ salt: SALT, initCode: initCode(poolManager) })

/** The router's address for a PoolManager: the same on every chain with the same PoolManager address. */
export const buyRouterAddress = (poolManager: Address): Address => create2Address(SALT, initCode(poolManager))

/**
 * Deploys PrebuyBuyRouter through the CREATE2 deployer unless it is already there (idempotent: restarts and a second
 * daemon find it). Any funded account can send the deployment; nobody owns the router.
 */
export const ensureBuyRouter = (options: {
  publicClient: PublicClient
  walletClient: WalletClient<Transport, Chain, Account>
  poolManager: Address
}): Promise<Address> => ensureCreate2Contract({ ...options, salt: SALT, initCode: initCode(options.poolManager), name: 'PrebuyBuyRouter' })
