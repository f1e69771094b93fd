import { type Address, formatEther, parseAbi, parseUnits } from 'viem'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import { floorOf, fraction, invert, multiply } from '../../src/pricing/fraction.ts'
import { ethUsdFromV3Slot0 } from '../../src/pricing/sqrt-price.ts'
import { devnetPublicClient } from './send-devnet-tx.ts'

const V3_POOL = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function token0() view returns (address)',
])

/**
 * The ETH (wei) worth `usdc` (decimal stablecoin units) at the devnet's current WETH/stablecoin price: a Clanker dev buy
 * pays ETH (EthDevBuy's ethAmount), the CLI asks for a stablecoin amount.
 */
export async function devBuyWeiForUsdc(chain: ChainConfig, usdc: string): Promise<{ wei: bigint; eth: string }> {
  const atoms = parseUnits(usdc, 6)
  if (atoms <= 0n) throw new PrebuyError('invalid_dev_buy', 'A dev buy is a positive stablecoin amount.')
  const client = devnetPublicClient(chain)
  const pool = chain.addresses.ethUsdPool
  const [slot0, token0] = await Promise.all([
    client.readContract({ address: pool, abi: V3_POOL, functionName: 'slot0' }),
    client.readContract({ address: pool, abi: V3_POOL, functionName: 'token0' }),
  ])
  const usdPerWei = ethUsdFromV3Slot0(slot0[0], (token0 as Address).toLowerCase() === chain.addresses.weth.toLowerCase())
  const wei = floorOf(multiply(fraction(atoms), invert(usdPerWei)))
  return { wei, eth: formatEther(wei) }
}
