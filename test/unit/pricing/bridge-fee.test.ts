import { getAddress, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { PairedAsset } from '../../../src/domain/paired-asset.ts'
import { bridgeBuyDirections, bridgeRouteFee, bridgeSwapFeesPips, withBridgeHopProtocolFee, withBridgeProtocolFees } from '../../../src/pricing/bridge-fee.ts'
import { compare, fraction } from '../../../src/pricing/fraction.ts'
import { computePriceTick } from '../../../src/pricing/price-tick.ts'
import { routeFee } from '../../../src/pricing/route-price.ts'
import type { LaunchRecord } from '../../../src/journal/journal-records.ts'

const address = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`)
const ZORA = address(0x1111)
const CREATOR = address(0x0900) // sorts before ZORA: ZORA is currency1 of the creator coin's pool
const COIN = address(0x2222)
const ethZora = { currency0: zeroAddress, currency1: ZORA, fee: 3_000, tickSpacing: 60, hooks: zeroAddress }
const zoraCreator = { currency0: CREATOR, currency1: ZORA, fee: 0x800000, tickSpacing: 200, hooks: address(0x1080) }
const zoraPaired: PairedAsset = { kind: 'zora', address: ZORA, bridge: [ethZora] }
const creatorPaired: PairedAsset = { kind: 'coin', address: CREATOR, bridge: [ethZora, zoraCreator], bridgeFeePips: [3_000, 10_000] }

describe('the bridge pools protocol fee (v4 ProtocolFeeLibrary, per direction)', () => {
  it('finds the direction a buy crosses each bridge pool', () => {
    // ETH (currency0) -> ZORA: zeroForOne; ZORA (currency1) -> creator coin (currency0): oneForZero.
    expect(bridgeBuyDirections(zoraPaired)).toEqual([true])
    expect(bridgeBuyDirections(creatorPaired)).toEqual([true, false])
    expect(bridgeBuyDirections({ address: zeroAddress })).toEqual([])
  })

  it('takes the buy direction from slot0 packing (low 12 bits zeroForOne, high oneForZero); all zero leaves the field out', () => {
    const packed = (oneForZero: number, zeroForOne: number) => (oneForZero << 12) | zeroForOne
    expect(withBridgeProtocolFees(zoraPaired, [packed(200, 500)]).bridgeProtocolFeePips).toEqual([500])
    expect(withBridgeProtocolFees(creatorPaired, [packed(200, 500), packed(700, 100)]).bridgeProtocolFeePips).toEqual([500, 700])
    expect(withBridgeProtocolFees(zoraPaired, [packed(300, 0)])).toEqual(zoraPaired)
    // One pool's fee changes later (ProtocolFeeUpdated): the others stay.
    const both = withBridgeProtocolFees(creatorPaired, [packed(0, 500), packed(700, 0)])
    expect(withBridgeHopProtocolFee(both, 1, 0).bridgeProtocolFeePips).toEqual([500, 0])
    expect(withBridgeHopProtocolFee(withBridgeHopProtocolFee(both, 1, 0), 0, 0)).toEqual(creatorPaired)
  })

  it('charges each bridge pool p + lp - floor(p * lp / 1e6), compounded exactly over the route', () => {
    const withFee = withBridgeProtocolFees(creatorPaired, [500, 700 << 12])
    // 500 + 3,000 - floor(1.5) = 3,499; 700 + 10,000 - 7 = 10,693 (the creator coin's pool priced at 1%).
    expect(bridgeSwapFeesPips(withFee)).toEqual([3_499, 10_693])
    expect(compare(bridgeRouteFee(withFee), fraction(1_000_000n ** 2n - 996_501n * 989_307n, 1_000_000n ** 2n))).toBe(0)
    // Without a protocol fee: the LP fees alone, as before.
    expect(compare(bridgeRouteFee(creatorPaired), routeFee([ethZora, zoraCreator], [3_000, 10_000]))).toBe(0)
    expect(bridgeSwapFeesPips({})).toEqual([])
  })

  it('a price tick of a bridged launch counts the bridge pool protocol fee in its total fee', () => {
    const launch = {
      slug: 's',
      chain: 'base',
      launchpad: 'zora',
      token: COIN,
      symbol: 'C',
      name: 'C',
      decimals: 18,
      totalSupply: (10n ** 27n).toString(),
      paired: withBridgeProtocolFees(zoraPaired, [500]),
      poolKey: { currency0: ZORA, currency1: COIN, fee: 0x800000, tickSpacing: 200, hooks: address(0x1080) },
      poolId: `0x${'1'.repeat(64)}`,
      feeSources: {},
      feeSchedule: { kind: 'linear', startTime: 0, startFee: 10_000, endFee: 10_000, durationSeconds: 0 },
      blockNumber: '1',
      blockHash: `0x${'2'.repeat(64)}`,
      txHash: `0x${'3'.repeat(64)}`,
      launchedAt: 0,
    } satisfies LaunchRecord
    const tick = computePriceTick({
      launch,
      reason: 'block',
      pool: { sqrtPriceX96: 2n ** 96n, liquidity: 1n },
      pairedUsd: fraction(1n, 10n ** 12n),
      block: { number: 5n, hash: `0x${'4'.repeat(64)}`, timestamp: 100n },
      logIndex: -1,
      blockTimeSeconds: 2,
      at: 0,
    })
    expect(tick.totalFeeFraction).toBeCloseTo(1 - 0.99 * (1 - 0.003499), 12)
  })
})
