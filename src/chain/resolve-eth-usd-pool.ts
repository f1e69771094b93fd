import { parseAbi, zeroAddress, type Address, type PublicClient } from 'viem'
import { PrebuyError } from '../common/errors.ts'

const V3_FACTORY_ABI = parseAbi(['function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)'])
/** The 0.05% tier: the deepest WETH/USDC pool on Base, used for the USD price of ETH. */
export const ETH_USD_POOL_FEE = 500

/** Finds the WETH/stablecoin 0.05% v3 pool for a chain whose configuration leaves `ethUsdPool` out. */
export async function resolveEthUsdPool(
  client: Pick<PublicClient, 'readContract'>,
  addresses: { v3Factory: Address; weth: Address; stablecoin: Address },
): Promise<Address> {
  const pool = await client.readContract({
    address: addresses.v3Factory,
    abi: V3_FACTORY_ABI,
    functionName: 'getPool',
    args: [addresses.weth, addresses.stablecoin, ETH_USD_POOL_FEE],
  })
  if (pool === zeroAddress) {
    throw new PrebuyError('eth_usd_pool_missing', 'The v3 factory has no WETH/stablecoin 0.05% pool; configure addresses.ethUsdPool.')
  }
  return pool
}
