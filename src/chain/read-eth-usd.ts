import { BaseError, ContractFunctionRevertedError, isAddressEqual, type PublicClient, parseAbi } from 'viem'
import type { Fraction } from '../pricing/fraction.ts'
import { bandEthUsd, DEFAULT_ETH_USD_BAND, type EthUsdBand, type EthUsdBandOutcome, meanTick } from '../pricing/eth-usd-band.ts'
import { ethUsdFromV3Slot0 } from '../pricing/sqrt-price.ts'
import { getSqrtPriceAtTick } from '../pricing/v4/tick-math.ts'
import type { ChainConfig } from './chain-keys.ts'

const V3_POOL_ABI = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function token0() view returns (address)',
  'function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)',
  'function observations(uint256 index) view returns (uint32 blockTimestamp, int56 tickCumulative, uint160 secondsPerLiquidityCumulativeX128, bool initialized)',
])

type V3Slot0 = readonly [bigint, number, number, number, number, number, boolean]

/**
 * ETH's price (stablecoin smallest units per wei) from the chain's v3 WETH/stablecoin pool, checked against the same
 * pool's TWAP (issue 24): slot0 is a spot any swap moves within a block, so when it is more than the band away from
 * the TWAP over `twapSeconds`, eligibility gets the higher of the two (bandEthUsd says why that is the safe side).
 * At `blockNumber` when given (the indexer's block), the latest otherwise.
 */
export async function readEthUsdBanded(
  client: PublicClient,
  chain: Pick<ChainConfig, 'addresses'> & { ethUsdBand?: EthUsdBand | undefined },
  options: { blockNumber?: bigint; wethIsToken0?: boolean } = {},
): Promise<EthUsdBandOutcome> {
  const { ethUsdPool: address, weth } = chain.addresses
  const band = chain.ethUsdBand ?? DEFAULT_ETH_USD_BAND
  const at = options.blockNumber === undefined ? {} : { blockNumber: options.blockNumber }
  const [slot0, wethIsToken0] = await Promise.all([
    client.readContract({ address, abi: V3_POOL_ABI, functionName: 'slot0', ...at }) as Promise<V3Slot0>,
    options.wethIsToken0 ?? client.readContract({ address, abi: V3_POOL_ABI, functionName: 'token0' }).then((t) => isAddressEqual(t, weth)),
  ])
  const spot = ethUsdFromV3Slot0(slot0[0], wethIsToken0)
  const twapTick = await readTwapTick(client, address, slot0, band.twapSeconds, at)
  const twap = twapTick === null ? null : ethUsdFromV3Slot0(getSqrtPriceAtTick(twapTick), wethIsToken0)
  return bandEthUsd(spot, twap, band)
}

/** ETH's price for eligibility: the banded price (readEthUsdBanded). */
export async function readEthUsd(client: PublicClient, chain: Pick<ChainConfig, 'addresses'> & { ethUsdBand?: EthUsdBand | undefined }): Promise<Fraction> {
  return (await readEthUsdBanded(client, chain)).price
}

/**
 * The pool's mean tick over the last `seconds` (observe([seconds, 0])), or over the history it has when that is
 * shorter (a young pool, or one whose observation cardinality holds less: v3 reverts 'OLD'); null with no history
 * before this block. Base's WETH/USDC 0.05% pool keeps hundreds of observations (its cardinality), far more than ten
 * minutes of swaps; the devnet's pool has its cardinality raised at deployment (devnet/chain/deploy-fixtures.ts).
 */
async function readTwapTick(
  client: PublicClient,
  address: `0x${string}`,
  slot0: V3Slot0,
  seconds: number,
  at: { blockNumber?: bigint },
): Promise<number | null> {
  const observe = async (window: number) =>
    (await client.readContract({ address, abi: V3_POOL_ABI, functionName: 'observe', args: [[window, 0]], ...at }))[0] as readonly bigint[]
  try {
    const [older, newer] = await observe(seconds)
    return meanTick(older!, newer!, seconds)
  } catch (error) {
    if (!isRevert(error)) throw error
  }
  // The oldest observation: the one after the latest in the ring, or the first while the ring is not yet full.
  const [index, cardinality] = [slot0[2], slot0[3]]
  let oldest = await client.readContract({ address, abi: V3_POOL_ABI, functionName: 'observations', args: [BigInt((index + 1) % cardinality)], ...at })
  if (!oldest[3]) oldest = await client.readContract({ address, abi: V3_POOL_ABI, functionName: 'observations', args: [0n], ...at })
  const block = await client.getBlock(at.blockNumber === undefined ? {} : { blockNumber: at.blockNumber })
  const available = Number(block.timestamp) - oldest[0]
  if (available <= 0) return null
  const [older, newer] = await observe(available)
  return meanTick(older!, newer!, available)
}

const isRevert = (error: unknown): boolean =>
  error instanceof BaseError &&
  error.walk((e) => e instanceof ContractFunctionRevertedError || (e as { name?: string }).name === 'ExecutionRevertedError') !== null
