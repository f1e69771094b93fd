import fc from 'fast-check'
import { getAddress, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { compare, fraction, toNumber } from '../../../src/pricing/fraction.ts'
import { isqrt } from '../../../src/pricing/isqrt.ts'
import { compoundFees, priceThroughRoute, routeAssets, routeFee, routeProblem } from '../../../src/pricing/route-price.ts'

const address = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`)
const WETH = address(0x4200)
const ZORA = address(0x1111)
const COIN = address(0x0900)
const Q96 = 2n ** 96n
const ethZora = { currency0: zeroAddress, currency1: ZORA, fee: 3_000 }
// A second hop where the route's asset (ZORA) is currency1: COIN sorts first.
const zoraCoin = { currency0: COIN, currency1: ZORA, fee: 10_000 }

describe('routes through v4 pools (ZORA and beyond)', () => {
  it('walks the assets from native ETH or WETH, whichever side each pool holds', () => {
    expect(routeAssets([ethZora, zoraCoin], WETH)).toEqual([zeroAddress, ZORA, COIN])
    expect(routeAssets([{ currency0: WETH, currency1: ZORA, fee: 500 }], WETH)).toEqual([WETH, ZORA])
    expect(routeAssets([{ currency0: ZORA, currency1: WETH, fee: 500 }], WETH)).toEqual([WETH, ZORA])
    expect(() => routeAssets([zoraCoin, ethZora], WETH)).toThrow(/does not hold/)
  })

  it('names what is wrong with a route that cannot be used', () => {
    expect(routeProblem([ethZora], WETH, ZORA)).toBeUndefined()
    expect(routeProblem([], WETH, ZORA)).toMatch(/no pool/)
    expect(routeProblem([zoraCoin], WETH, ZORA)).toMatch(/native ETH or WETH/)
    expect(routeProblem([ethZora], WETH, COIN)).toMatch(/ends at/)
    expect(routeProblem([{ ...ethZora, fee: 0x800000 }], WETH, ZORA)).toMatch(/dynamic fee/)
    // A dynamic-fee pool is usable once the fee it is priced at is given (a Zora creator coin's pool: 1%).
    expect(routeProblem([ethZora, { ...zoraCoin, fee: 0x800000 }], WETH, COIN, [3_000, 10_000])).toBeUndefined()
    expect(routeProblem([ethZora, { currency0: COIN, currency1: address(0x2), fee: 0 }], WETH, COIN)).toMatch(/does not hold/)
  })

  it('prices the last asset in wei: the product of each hop output in its input', () => {
    // 100,000 ZORA per ETH (ETH is currency0): 1 ZORA = 1e-5 ETH.
    const zoraPerEth = isqrt(100_000n << 192n)
    const zoraInWei = priceThroughRoute([ethZora], [zoraPerEth], WETH)
    expect(toNumber(zoraInWei)).toBeCloseTo(1e-5, 12)
    // COIN is currency0 of its pool, priced 0.25 ZORA: 2.5e-6 ETH.
    const coinInZora = Q96 / 2n
    expect(toNumber(priceThroughRoute([ethZora, zoraCoin], [zoraPerEth, coinInZora], WETH))).toBeCloseTo(2.5e-6, 15)
  })

  it('charges every hop fee on what the previous hop kept, exactly', () => {
    expect(compare(routeFee([]), fraction(0n))).toBe(0)
    expect(compare(routeFee([ethZora]), fraction(3n, 1_000n))).toBe(0)
    // 1 - 0.997 x 0.99
    expect(compare(routeFee([ethZora, zoraCoin]), fraction(1_000_000n - (997_000n * 990n) / 1_000n, 1_000_000n))).toBe(0)
    expect(compare(routeFee([ethZora, { ...zoraCoin, fee: 0x800000 }], [3_000, 10_000]), routeFee([ethZora, zoraCoin]))).toBe(0)
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (a, b) => {
        const fa = fraction(BigInt(a), 1_000_000n)
        const fb = fraction(BigInt(b), 1_000_000n)
        const both = compoundFees(fa, fb)
        // Never less than either fee alone, never more than 100%, symmetric.
        expect(toNumber(both)).toBeGreaterThanOrEqual(Math.max(a, b) / 1e6 - 1e-12)
        expect(toNumber(both)).toBeLessThanOrEqual(1 + 1e-12)
        expect(toNumber(both)).toBeCloseTo(toNumber(compoundFees(fb, fa)), 12)
      }),
    )
  })
})
