import { isAddressEqual, type PublicClient, parseAbi } from 'viem'
import type { Fraction } from '../pricing/fraction.ts'
import { ethUsdFromV3Slot0 } from '../pricing/sqrt-price.ts'
import type { ChainConfig } from './chain-keys.ts'

const V3_POOL_ABI = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function token0() view returns (address)',
])

/** ETH's price now (stablecoin smallest units per wei) from the chain's v3 WETH/stablecoin pool's slot0: a mid price. */
export async function readEthUsd(client: PublicClient, chain: Pick<ChainConfig, 'addresses'>): Promise<Fraction> {
  const { ethUsdPool, weth } = chain.addresses
  const [slot0, token0] = await Promise.all([
    client.readContract({ address: ethUsdPool, abi: V3_POOL_ABI, functionName: 'slot0' }),
    client.readContract({ address: ethUsdPool, abi: V3_POOL_ABI, functionName: 'token0' }),
  ])
  return ethUsdFromV3Slot0(slot0[0], isAddressEqual(token0, weth))
}
