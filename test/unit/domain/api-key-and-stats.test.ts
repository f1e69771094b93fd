import { describe, expect, it } from 'vitest'
import { API_KEY_LENGTH, digestsEqual, formatApiKey, hashApiKey, isWellFormedApiKey } from '../../../src/domain/api-key.ts'
import { committedStats, filledStats, depthByPriceLimit, fundedSpend } from '../../../src/domain/project-stats.ts'
import type { OrderRecord } from '../../../src/domain/records.ts'
import { isValidSlug } from '../../../src/domain/slug.ts'

describe('API keys', () => {
  const bytes = new Uint8Array(32).map((_v, i) => i * 7)
  it('prebuy_ + 43 base62 + 6 checksum characters, deterministic for the bytes', () => {
    const key = formatApiKey(bytes)
    expect(key).toMatch(/^prebuy_[0-9A-Za-z]{49}$/)
    expect(key).toHaveLength(API_KEY_LENGTH)
    expect(formatApiKey(bytes)).toBe(key)
    expect(formatApiKey(new Uint8Array(32))).toMatch(/^prebuy_0{43}/)
    expect(formatApiKey(new Uint8Array(32).fill(255))).toHaveLength(API_KEY_LENGTH)
  })
  it('the checksum catches a changed character', () => {
    const key = formatApiKey(bytes)
    expect(isWellFormedApiKey(key)).toBe(true)
    const last = key.at(-10) === 'a' ? 'b' : 'a'
    expect(isWellFormedApiKey(key.slice(0, -10) + last + key.slice(-9))).toBe(false)
    expect(isWellFormedApiKey(key.replace('prebuy_', 'prebuz_'))).toBe(false)
    expect(isWellFormedApiKey(`${key}x`)).toBe(false)
    expect(isWellFormedApiKey('')).toBe(false)
  })
  it('needs 32 bytes', () => {
    expect(() => formatApiKey(new Uint8Array(16))).toThrow(RangeError)
  })
  it('hashes with sha256 and compares digests in constant time', () => {
    const hash = hashApiKey('prebuy_x')
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(digestsEqual(hash, hashApiKey('prebuy_x'))).toBe(true)
    expect(digestsEqual(hash, hashApiKey('prebuy_y'))).toBe(false)
    expect(digestsEqual(hash, hash.slice(0, 10))).toBe(false)
    expect(digestsEqual('', '')).toBe(false)
  })
})

it('slugs', () => {
  for (const ok of ['a', 'alpha-2', 'x'.repeat(64)]) expect(isValidSlug(ok), ok).toBe(true)
  for (const bad of ['', '-a', 'a-', 'a--b', 'A', 'a b', 'a!b', 'x'.repeat(65)]) expect(isValidSlug(bad), bad).toBe(false)
})

describe('project stats', () => {
  const o = (keyId: string, spend: string, fdv: string | null, status: OrderRecord['status'] = 'active'): OrderRecord => ({
    keyId,
    slug: 's',
    status,
    maxSpendUsdc: spend,
    maxFdvUsdc: fdv,
    expiresInMs: 1,
    createdAt: 0,
    updatedAt: 0,
  })
  const orders = [
    o('a', '100', '400000'),
    o('b', '50.5', null),
    o('c', '25', '200000'),
    o('d', '10', '400000', 'executing'),
    o('e', '999', null, 'deleted'),
    o('f', '7', '1', 'filled'),
  ]
  it('committed: live (active, executing) orders only', () => {
    expect(committedStats(orders)).toEqual({ orderCount: 4, committedSpendUsdc: '185.5' })
  })
  it('filled: filled orders and the stablecoin they actually spent', () => {
    const execution = (spentUsdc: string) => ({ spentUsdc, tokensReceived: '1', feeTokens: '0', txHash: '0x1', executedAt: 1 })
    const withFills = [
      ...orders,
      { ...o('g', '100', null, 'filled'), execution: execution('60.25') },
      { ...o('h', '5', null, 'filled'), execution: execution('5') },
    ]
    expect(filledStats(withFills)).toEqual({ filledOrderCount: 3, filledSpendUsdc: '65.25' })
    expect(filledStats([])).toEqual({ filledOrderCount: 0, filledSpendUsdc: '0' })
  })
  it('funded: min(spend, balance) per order', () => {
    const balances = new Map([
      ['a', 40_000_000n],
      ['b', 100_000_000n],
      ['e', 1_000_000_000n],
    ])
    expect(fundedSpend(orders, balances)).toBe('90.5')
  })
  it('depth by price limit, ascending, no-limit last, eligible spend cumulative from above', () => {
    expect(depthByPriceLimit(orders)).toEqual([
      { maxFdvUsdc: '200000', orderCount: 1, spendUsdc: '25', eligibleSpendUsdc: '185.5' },
      { maxFdvUsdc: '400000', orderCount: 2, spendUsdc: '110', eligibleSpendUsdc: '160.5' },
      { maxFdvUsdc: null, orderCount: 1, spendUsdc: '50.5', eligibleSpendUsdc: '50.5' },
    ])
  })
})

describe('publicAmount', () => {
  it('keeps whole USDC, rounded down to two significant figures', async () => {
    const { publicAmount } = await import('../../../src/domain/project-stats.ts')
    const cases: Array<[string, string]> = [
      ['0', '0'],
      ['0.999999', '0'],
      ['9.99', '9'],
      ['80', '80'],
      ['150', '150'],
      ['185.5', '180'],
      ['1037.5', '1000'],
      ['123456.78', '120000'],
      ['99999999', '99000000'],
    ]
    for (const [exact, shown] of cases) expect(publicAmount(exact), exact).toBe(shown)
  })
})
