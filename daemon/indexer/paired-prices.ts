import { isAddressEqual, type PublicClient, parseAbi } from 'viem'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import type { PairedAsset } from '../../src/launchpads/launchpad-adapter.ts'
import { poolIdOf } from '../../src/launchpads/pool-id.ts'
import { type Fraction, multiply } from '../../src/pricing/fraction.ts'
import { priceThroughRoute } from '../../src/pricing/route-price.ts'
import { readEthUsdBanded } from '../../src/chain/read-eth-usd.ts'
import type { EthUsdBandOutcome } from '../../src/pricing/eth-usd-band.ts'
import { STATE_VIEW } from './state-view-abi.ts'

const V3_POOL = parseAbi(['function token0() view returns (address)'])

/** USD prices of the assets launched tokens pair with, read at a block. */
export interface PairedPrices {
  /**
   * Stablecoin smallest units per smallest unit of the paired asset at `blockNumber` (whose `blockTimestamp`, when
   * given, spares the banded ETH/USD read a request on a pool younger than its TWAP window).
   */
  usd(paired: PairedAsset, blockNumber: bigint, blockTimestamp?: bigint): Promise<Fraction>
  /**
   * The price of `paired` the newest answered read found (its block's), without a read: what a launch's reads ahead
   * are hinted with before the launch block's own is read (issue 23 item 3). Undefined when none was read yet.
   */
  latest(paired: PairedAsset): { blockNumber: bigint; usd: Fraction } | undefined
}

/** A source for one kind of paired asset (ETH and WETH share the v3 WETH/stablecoin pool; ZORA adds its bridge). */
type PriceSource = (paired: PairedAsset, blockNumber: bigint, blockTimestamp?: bigint) => Promise<Fraction>

/** Blocks whose ETH/USD read is kept (the indexer asks for one block at a time, a launch tick ahead for the one before). */
const ETH_USD_BLOCKS_KEPT = 4

/**
 * The paired assets' USD prices on one chain. WETH and native ETH (one price: 1 wei of either) come from the v3
 * WETH/stablecoin pool's slot0 at the block, checked against the pool's TWAP (readEthUsdBanded). ZORA and a Zora creator coin are priced through their bridge (each v4
 * pool's slot0, read from the StateView at the block: ETH/ZORA, then ZORA/creator coin) times that ETH price: mid
 * prices; the bridge's fees are counted with the launch fee (computePriceTick). A kind without a source cannot be
 * priced (the adapter reports such launches as unsupported, so this is never reached for them).
 */
export async function createPairedPrices(
  chain: ChainConfig,
  client: PublicClient,
  /** Told of each block whose ETH spot is outside the band of its TWAP (the indexer logs it and counts it). */
  onOutOfBand?: (outcome: Extract<EthUsdBandOutcome, { status: 'out_of_band' }>, blockNumber: bigint) => void,
): Promise<PairedPrices> {
  const { ethUsdPool, weth } = chain.addresses
  const wethIsToken0 = isAddressEqual(await client.readContract({ address: ethUsdPool, abi: V3_POOL, functionName: 'token0' }), weth)
  // The spot checked against the pool's TWAP (issue 24): outside the band, the safe side of the two (eth-usd-band.ts).
  // One read per block, shared by every pair priced through ETH (WETH, native ETH, ZORA's and a coin's bridges): a block
  // with launches of several kinds asked it once per kind, each several round trips (issue 23 item 3). A failed read
  // is forgotten, so the block's next asking reads again.
  const ethUsdByBlock = new Map<bigint, Promise<Fraction>>()
  // The pool's oldest observation as the last read found it, while its history is shorter than the TWAP window (a young
  // pool): the next block's read checks it in its first round instead of reading the observations in a second.
  let oldestObservationAt: number | undefined
  const ethUsd: PriceSource = (_paired, blockNumber, blockTimestamp) => {
    const kept = ethUsdByBlock.get(blockNumber)
    if (kept) return kept
    const read = readEthUsdBanded(client, chain, {
      blockNumber,
      wethIsToken0,
      ...(blockTimestamp === undefined ? {} : { blockTimestamp }),
      ...(oldestObservationAt === undefined ? {} : { oldestObservationAt }),
      onOldestObservation: (at) => (oldestObservationAt = at),
    }).then((outcome) => {
      if (outcome.status === 'out_of_band') onOutOfBand?.(outcome, blockNumber)
      return outcome.price
    })
    ethUsdByBlock.set(blockNumber, read)
    read.catch(() => ethUsdByBlock.get(blockNumber) === read && ethUsdByBlock.delete(blockNumber))
    for (const block of ethUsdByBlock.keys()) if (ethUsdByBlock.size > ETH_USD_BLOCKS_KEPT) ethUsdByBlock.delete(block)
    return read
  }
  const bridged: PriceSource = async (paired, blockNumber, blockTimestamp) => {
    const bridge = paired.bridge ?? []
    if (bridge.length === 0) throw new Error(`the ${paired.kind} pair ${paired.address} has no bridge to price it through`)
    const [eth, ...slots] = await Promise.all([
      ethUsd(paired, blockNumber, blockTimestamp),
      ...bridge.map((key) =>
        client.readContract({ address: chain.addresses.stateView, abi: STATE_VIEW, functionName: 'getSlot0', args: [poolIdOf(key)], blockNumber }),
      ),
    ])
    const sqrtPrices = slots.map((slot) => (slot as readonly [bigint, ...unknown[]])[0])
    return multiply(eth as Fraction, priceThroughRoute(bridge, sqrtPrices, weth))
  }
  const sources: Partial<Record<PairedAsset['kind'], PriceSource>> = { weth: ethUsd, eth: ethUsd, zora: bridged, coin: bridged }
  // The newest answered price per source (ETH and WETH share one; a bridged pair its own, by address and route).
  const newest = new Map<string, { blockNumber: bigint; usd: Fraction }>()
  const sourceKey = (paired: PairedAsset): string =>
    paired.kind === 'eth' || paired.kind === 'weth'
      ? 'eth'
      : `${paired.kind}:${paired.address.toLowerCase()}:${(paired.bridge ?? []).map((key) => poolIdOf(key)).join(',')}`
  return {
    usd(paired, blockNumber, blockTimestamp) {
      const source = sources[paired.kind]
      if (!source) throw new Error(`no USD price source for ${paired.kind} pairs on ${chain.key}`)
      const read = source(paired, blockNumber, blockTimestamp)
      read
        .then((usd) => {
          const key = sourceKey(paired)
          const known = newest.get(key)
          if (!known || known.blockNumber <= blockNumber) newest.set(key, { blockNumber, usd })
        })
        .catch(() => undefined)
      return read
    },
    latest: (paired) => newest.get(sourceKey(paired)),
  }
}
