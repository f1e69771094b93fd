import { type Address, BaseError, ContractFunctionRevertedError, isAddressEqual, type PublicClient, parseAbi } from 'viem'
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
 * At `blockNumber` when given (the indexer's block, with its `blockTimestamp` when known), the latest otherwise.
 *
 * Round trips (issue 23 item 3: the indexer's launch tick waits for this read): the spot and the TWAP over the full
 * window are asked at once, **one round** where the pool's oracle covers the window (Base's WETH/USDC pool). A pool
 * with less history (a young devnet pool: the window reverts 'OLD') takes **one more**: its latest, next and first
 * observations (and the block's time when not given) at once, from which the TWAP over the history it has is computed
 * as the pool's own `observe([available, 0])` would return it (twapFromObservations). It was six serial round trips
 * (slot0, observe, the next observation, the first, the block, observe again): 300 ms at 50 ms a request.
 *
 * A caller reading block after block (the indexer) passes the oldest observation's time an earlier read reported
 * (`onOldestObservation`) as `oldestObservationAt`, with the block's time: the window of exactly that history, and
 * one second more, are then asked in the first round too. The first answering and the second reverting 'OLD' prove
 * the oldest observation is still at that time (observe requires its target at or after the oldest observation's, v3-core
 * Oracle.sol), so the TWAP over the history the pool has is known in one round; a ring that wrapped since, or a
 * reorg, fails that proof and takes the second round.
 */
export async function readEthUsdBanded(
  client: PublicClient,
  chain: Pick<ChainConfig, 'addresses'> & { ethUsdBand?: EthUsdBand | undefined },
  options: {
    blockNumber?: bigint
    blockTimestamp?: bigint
    wethIsToken0?: boolean
    /** The oldest observation's time as an earlier read reported it (with `blockTimestamp`: see above). */
    oldestObservationAt?: number
    /** Told the oldest observation's time when the pool's history is shorter than the window. */
    onOldestObservation?: (at: number) => void
  } = {},
): Promise<EthUsdBandOutcome> {
  const { ethUsdPool: address, weth } = chain.addresses
  const band = chain.ethUsdBand ?? DEFAULT_ETH_USD_BAND
  const at = options.blockNumber === undefined ? {} : { blockNumber: options.blockNumber }
  const hinted =
    options.oldestObservationAt === undefined || options.blockTimestamp === undefined ? undefined : Number(options.blockTimestamp) - options.oldestObservationAt
  const history = hinted !== undefined && hinted >= 1 && hinted < band.twapSeconds ? hinted : undefined
  const [slot0, wethIsToken0, window, exactly, oneMore] = await Promise.all([
    client.readContract({ address, abi: V3_POOL_ABI, functionName: 'slot0', ...at }) as Promise<V3Slot0>,
    options.wethIsToken0 ?? client.readContract({ address, abi: V3_POOL_ABI, functionName: 'token0' }).then((t) => isAddressEqual(t, weth)),
    observeWindow(client, address, band.twapSeconds, at),
    history === undefined ? undefined : observeWindow(client, address, history, at),
    history === undefined ? undefined : observeWindow(client, address, history + 1, at),
  ])
  const spot = ethUsdFromV3Slot0(slot0[0], wethIsToken0)
  let twapTick: number | null | undefined = window
  if (twapTick === undefined && exactly !== undefined && oneMore === undefined) {
    twapTick = exactly
    options.onOldestObservation?.(options.oldestObservationAt!)
  }
  twapTick ??= await twapOverHistory(client, address, slot0, options.blockTimestamp, at, options.onOldestObservation)
  const twap = twapTick === null ? null : ethUsdFromV3Slot0(getSqrtPriceAtTick(twapTick), wethIsToken0)
  return bandEthUsd(spot, twap, band)
}

/** ETH's price for eligibility: the banded price (readEthUsdBanded). */
export async function readEthUsd(client: PublicClient, chain: Pick<ChainConfig, 'addresses'> & { ethUsdBand?: EthUsdBand | undefined }): Promise<Fraction> {
  return (await readEthUsdBanded(client, chain)).price
}

/**
 * The pool's mean tick over the last `seconds` (observe([seconds, 0])); undefined when its oracle holds less history
 * (a young pool, or one whose observation cardinality holds less: v3 reverts 'OLD'). Base's WETH/USDC 0.05% pool keeps
 * hundreds of observations (its cardinality), far more than ten minutes of swaps; the devnet's pool has its
 * cardinality raised at deployment (devnet/chain/deploy-fixtures.ts).
 */
async function observeWindow(client: PublicClient, address: Address, seconds: number, at: { blockNumber?: bigint }): Promise<number | undefined> {
  try {
    const [older, newer] = (await client.readContract({ address, abi: V3_POOL_ABI, functionName: 'observe', args: [[seconds, 0]], ...at }))[0]
    return meanTick(older!, newer!, seconds)
  } catch (error) {
    if (!isRevert(error)) throw error
    return undefined
  }
}

/**
 * The mean tick over the history the pool has (a window longer than it reverted), or null with no history before this
 * block. The oldest observation is the one after the latest in the ring, or the first while the ring is not yet full.
 */
async function twapOverHistory(
  client: PublicClient,
  address: Address,
  slot0: V3Slot0,
  blockTimestamp: bigint | undefined,
  at: { blockNumber?: bigint },
  onOldestObservation: ((at: number) => void) | undefined,
): Promise<number | null> {
  const [index, cardinality] = [slot0[2], slot0[3]]
  const observation = (i: number) =>
    client.readContract({ address, abi: V3_POOL_ABI, functionName: 'observations', args: [BigInt(i)], ...at }) as Promise<V3Observation>
  const nextIndex = (index + 1) % cardinality
  const [latest, next, first, time] = await Promise.all([
    observation(index),
    observation(nextIndex),
    // The first slot is the oldest while the ring is not yet full (the next slot is then uninitialized).
    nextIndex === 0 ? undefined : observation(0),
    blockTimestamp ?? client.getBlock(at.blockNumber === undefined ? {} : { blockNumber: at.blockNumber }).then((b) => b.timestamp),
  ])
  const oldest = next[3] || !first ? next : first
  onOldestObservation?.(oldest[0])
  return twapFromObservations({ latest, oldest, tick: slot0[1], time: Number(time) })
}

/** An observation as the v3 pool's `observations(i)` returns it: (blockTimestamp, tickCumulative, secondsPerLiquidity, initialized). */
export type V3Observation = readonly [number, bigint, bigint, boolean]

/**
 * The mean tick from the oldest observation to `time`, exactly as `observe([time - oldest.blockTimestamp, 0])` returns
 * the cumulatives (Uniswap v3-core `contracts/libraries/Oracle.sol`, observeSingle): at the oldest observation's own
 * time the target is that observation (observations have distinct timestamps: `write` keeps one per block), and at
 * `time` it is the latest observation, carried forward by the current tick when it is older (`transform`:
 * tickCumulative + tick × elapsed). Null when no time has passed since the oldest observation.
 */
export function twapFromObservations(input: { latest: V3Observation; oldest: V3Observation; tick: number; time: number }): number | null {
  const { latest, oldest, tick, time } = input
  const available = time - oldest[0]
  if (available <= 0) return null
  const newer = latest[0] === time ? latest[1] : latest[1] + BigInt(tick) * BigInt(time - latest[0])
  return meanTick(oldest[1], newer, available)
}

const isRevert = (error: unknown): boolean =>
  error instanceof BaseError &&
  error.walk((e) => e instanceof ContractFunctionRevertedError || (e as { name?: string }).name === 'ExecutionRevertedError') !== null
