import {
  concat,
  encodeAbiParameters,
  getContractAddress,
  keccak256,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem'
import { PrebuyError } from '../../src/common/errors.ts'
import { buyRouterBytecode } from './buy-router-abi.ts'

/** The deterministic CREATE2 deployer (Arachnid's proxy) present on anvil and on Base. */
export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'
const SALT: Hex = keccak256(new TextEncoder().encode('prebuy.PrebuyBuyRouter.v1'))

const initCode = (poolManager: Address): Hex => concat([buyRouterBytecode, encodeAbiParameters([{ type: 'address' }], [poolManager])])

/** The router's address for a PoolManager: the same on every chain with the same PoolManager address. */
export const buyRouterAddress = (poolManager: Address): Address =>
  getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER, salt: SALT, bytecode: initCode(poolManager) })

/**
 * Deploys PrebuyBuyRouter through the CREATE2 deployer unless it is already there (idempotent: restarts and a second
 * daemon find it). Any funded account can send the deployment; nobody owns the router.
 */
export async function ensureBuyRouter(options: {
  publicClient: PublicClient
  walletClient: WalletClient<Transport, Chain, Account>
  poolManager: Address
}): Promise<Address> {
  const address = buyRouterAddress(options.poolManager)
  const existing = await options.publicClient.getCode({ address })
  if (existing && existing !== '0x') return address
  const deployerCode = await options.publicClient.getCode({ address: CREATE2_DEPLOYER })
  if (!deployerCode || deployerCode === '0x') {
    throw new PrebuyError('create2_deployer_missing', 'The deterministic CREATE2 deployer is not on this chain')
  }
  const hash = await options.walletClient.sendTransaction({ to: CREATE2_DEPLOYER, data: concat([SALT, initCode(options.poolManager)]) })
  const receipt = await options.publicClient.waitForTransactionReceipt({ hash })
  const code = await options.publicClient.getCode({ address })
  if (receipt.status !== 'success' || !code || code === '0x') {
    throw new PrebuyError('buy_router_deploy_failed', 'PrebuyBuyRouter deployment failed')
  }
  return address
}
