import { describe, expect, it } from 'vitest'
import { effectiveMarketCap } from '../../../src/pricing/effective-market-cap.ts'
import { fdvUsd, fdvUsdAtomic } from '../../../src/pricing/fdv.ts'
import { clankerProtocolFeeOf, clankerTotalFeeFraction, feeFractionFromPips } from '../../../src/pricing/fee-fraction.ts'
import { ceilOf, floorOf, fraction, toNumber } from '../../../src/pricing/fraction.ts'
import { minTokensOut } from '../../../src/pricing/min-tokens-out.ts'
import { ethUsdFromV3Slot0, humanPriceFromSqrtPriceX96, priceFromSqrtPriceX96, tokenPriceInPaired } from '../../../src/pricing/sqrt-price.ts'

const Q96 = 1n << 96n
const USD = 1_000_000n // stablecoin units per dollar

/** sqrtPriceX96 for a float price, good to ~1e-15 relative: enough for the approximate checks below. */
const sqrtX96 = (price: number): bigint => BigInt(Math.round(Math.sqrt(price) * 2 ** 48)) * (1n << 48n)

describe('priceFromSqrtPriceX96', () => {
  it.each([
    [Q96, 1n, 1n],
    [2n * Q96, 4n, 1n],
    [Q96 / 2n, 1n, 4n],
    [3n * Q96, 9n, 1n],
  ])('sqrtPriceX96 %s -> %s/%s exactly', (sqrtPrice, num, den) => {
    const p = priceFromSqrtPriceX96(sqrtPrice)
    expect(p.numerator * den).toBe(p.denominator * num)
  })

  it('refuses a zero price', () => {
    expect(() => priceFromSqrtPriceX96(0n)).toThrow(RangeError)
  })

  it('scales by decimals for the human price', () => {
    // raw 3000e6 USDC units per 1e18 wei = 3e-9; human: x 10^(18 - 6) = 3000 USDC per ETH.
    const human = humanPriceFromSqrtPriceX96(sqrtX96(3e-9), 18, 6)
    expect(toNumber(human)).toBeCloseTo(3000, 6)
    const inverse = humanPriceFromSqrtPriceX96(sqrtX96(1 / 3e-9), 6, 18)
    expect(toNumber(inverse)).toBeCloseTo(1 / 3000, 12)
  })
})

describe('ETH/USD from the v3 pool, both token orders', () => {
  it('token0 = WETH (Base): the price of currency0', () => {
    const ethUsd = ethUsdFromV3Slot0(sqrtX96(3000e6 / 1e18), true)
    expect(Number(floorOf({ numerator: ethUsd.numerator * 10n ** 18n, denominator: ethUsd.denominator })) / 1e6).toBeCloseTo(3000, 4)
  })

  it('token0 = stablecoin: the inverse', () => {
    const ethUsd = ethUsdFromV3Slot0(sqrtX96(1e18 / 3000e6), false)
    expect(Number(floorOf({ numerator: ethUsd.numerator * 10n ** 18n, denominator: ethUsd.denominator })) / 1e6).toBeCloseTo(3000, 4)
  })

  it('tokenPriceInPaired inverts when the token is currency1', () => {
    const s = 5n * Q96
    expect(tokenPriceInPaired(s, true)).toEqual(fraction(25n * Q96 * Q96, Q96 * Q96))
    const inv = tokenPriceInPaired(s, false)
    expect(inv.numerator * 25n).toBe(inv.denominator)
  })
})

describe('fdvUsd', () => {
  it('exact: 100B tokens at 1e-10 WETH and 3000 USD/ETH is 30,000 USD', () => {
    const fdv = fdvUsdAtomic({
      tokenPriceInPaired: fraction(1n, 10n ** 10n),
      pairedUsd: fraction(3000n * USD, 10n ** 18n),
      totalSupply: 100_000_000_000n * 10n ** 18n,
    })
    expect(fdv).toBe(30_000n * USD)
  })

  it('from real pool prices, token on either side', () => {
    const ethUsd = ethUsdFromV3Slot0(sqrtX96(3000e6 / 1e18), true)
    const supply = 1_000_000_000n * 10n ** 18n
    const asCurrency0 = fdvUsd({ tokenPriceInPaired: tokenPriceInPaired(sqrtX96(1e-9), true), pairedUsd: ethUsd, totalSupply: supply })
    const asCurrency1 = fdvUsd({ tokenPriceInPaired: tokenPriceInPaired(sqrtX96(1e9), false), pairedUsd: ethUsd, totalSupply: supply })
    // 1e9 tokens x 1e-9 ETH x 3000 = 3000 USD
    expect(toNumber(asCurrency0) / 1e6).toBeCloseTo(3000, 3)
    expect(toNumber(asCurrency1) / 1e6).toBeCloseTo(3000, 3)
  })

  it('keeps precision for huge supplies and tiny prices (no float anywhere)', () => {
    const fdv = fdvUsdAtomic({ tokenPriceInPaired: fraction(7n, 10n ** 30n), pairedUsd: fraction(3n, 10n ** 9n), totalSupply: 10n ** 40n })
    expect(fdv).toBe(210n) // 1e40 * 7e-30 * 3e-9 = 210
  })
})

describe('effectiveMarketCap', () => {
  it.each<[string, bigint, [bigint, bigint], bigint | null]>([
    ['spec example: 200k with a 50% tax -> 400k', 200_000n * USD, [1n, 2n], 400_000n * USD],
    ['no fee', 200_000n * USD, [0n, 1n], 200_000n * USD],
    ['1% LP fee', 99n * USD, [1n, 100n], 100n * USD],
    ['rounds up, never down', 100n, [1n, 7n], 117n],
    ['99% tax', 1_000n * USD, [99n, 100n], 100_000n * USD],
    ['fee of 100%: no finite cap', 1n, [1n, 1n], null],
    ['fee above 100%: no finite cap', 1n, [3n, 2n], null],
  ])('%s', (_name, fdv, [num, den], expected) => {
    expect(effectiveMarketCap(fdv, fraction(num, den))).toBe(expected)
  })

  it('accepts an exact fraction FDV and rounds once at the end', () => {
    expect(effectiveMarketCap(fraction(1n, 3n), fraction(1n, 2n))).toBe(1n) // 2/3 -> 1
    expect(effectiveMarketCap(fraction(10n, 3n), fraction(1n, 2n))).toBe(7n) // 20/3 -> 7
  })

  it('with pips from a pool fee', () => {
    expect(effectiveMarketCap(200_000n * USD, feeFractionFromPips(500_000))).toBe(400_000n * USD)
  })
})

describe('Clanker total fee: 1 - (1 - f)/(1 + 0.2 f)', () => {
  it.each([10_000, 41_673, 50_000, 100_000, 666_777, 800_000])('lp fee %i pips', (pips) => {
    const f = pips / 1e6
    expect(toNumber(clankerTotalFeeFraction(pips))).toBeCloseTo(1 - (1 - f) / (1 + 0.2 * f), 12)
  })

  it('is exact: 1% -> 6/501', () => {
    const t = clankerTotalFeeFraction(10_000)
    expect(t.numerator * 501n).toBe(t.denominator * 6n)
  })

  it('protocol fee taken from the input is 20% of the LP fee applied to what remains', () => {
    const amountIn = 10n ** 18n
    const taken = clankerProtocolFeeOf(amountIn, 10_000)
    // 1e18 * 1e4 / 5.01e6 = 1996007984031936.1...
    expect(taken).toBe(1_996_007_984_031_936n)
    expect(Number(taken) / Number(amountIn - taken)).toBeCloseTo(0.002, 12)
  })
})

describe('minTokensOut', () => {
  it('spend / (limit / supply)', () => {
    // 100 USD at a 1M USD FDV limit of a 100B supply: 1e-5 USD per token -> 10M tokens
    expect(minTokensOut({ spend: 100n * USD, limitFdv: 1_000_000n * USD, totalSupply: 100_000_000_000n * 10n ** 18n })).toBe(10_000_000n * 10n ** 18n)
  })

  it('rounds up so the buyer never pays above the limit', () => {
    expect(minTokensOut({ spend: 1n, limitFdv: 3n, totalSupply: 10n })).toBe(4n)
    expect(minTokensOut({ spend: 3n, limitFdv: 3n, totalSupply: 10n })).toBe(10n)
  })

  it('no limit: anything goes', () => {
    expect(minTokensOut({ spend: 100n, limitFdv: null, totalSupply: 10n })).toBe(0n)
  })

  it('refuses a non-positive limit', () => {
    expect(() => minTokensOut({ spend: 1n, limitFdv: 0n, totalSupply: 1n })).toThrow(RangeError)
  })

  it('a buy at exactly the minimum pays exactly the limit price', () => {
    const spend = 123_456_789n
    const limitFdv = 987_654_321_000n
    const supply = 10n ** 27n
    const min = minTokensOut({ spend, limitFdv, totalSupply: supply })
    // paid price per token (spend/min) <= limit/supply  <=>  spend * supply <= limit * min
    expect(spend * supply <= limitFdv * min).toBe(true)
    expect(spend * supply > limitFdv * (min - 1n)).toBe(true)
  })
})

describe('fraction helpers', () => {
  it('floor and ceil of negatives and positives', () => {
    expect(floorOf(fraction(7n, 2n))).toBe(3n)
    expect(ceilOf(fraction(7n, 2n))).toBe(4n)
    expect(floorOf(fraction(-7n, 2n))).toBe(-4n)
    expect(ceilOf(fraction(-7n, 2n))).toBe(-3n)
    expect(ceilOf(fraction(6n, 2n))).toBe(3n)
  })

  it('normalises a negative denominator and refuses zero', () => {
    expect(fraction(1n, -2n)).toEqual({ numerator: -1n, denominator: 2n })
    expect(() => fraction(1n, 0n)).toThrow(RangeError)
  })
})
