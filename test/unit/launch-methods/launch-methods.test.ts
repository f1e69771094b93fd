import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { allocateDevBuy } from '../../../src/launch-methods/dev-buy/domain/dev-buy-allocation.ts'
import { settleOtc } from '../../../src/launch-methods/pooled-otc/domain/otc-fill.ts'
import { vestedAt, vestingState } from '../../../src/launch-methods/vesting/domain/vesting-schedule.ts'

const USDC = 1_000_000n
const TOKEN = 10n ** 18n

describe('dev-buy allocation: one buy, split pro rata', () => {
  it('table: the fee once on the whole buy, floors per buyer, the dust to the largest contributor', () => {
    // 1,000,003 tokens bought; fee floor(3%) = 30,000; net 970,003 shared 1:1:1.
    const result = allocateDevBuy(1_000_003n, [
      { id: 'a', amount: 100n },
      { id: 'b', amount: 100n },
      { id: 'c', amount: 100n },
    ])
    expect(result).toEqual({
      fee: 30_000n,
      net: 970_003n,
      allocations: [
        { id: 'a', contribution: 100n, tokens: 323_335n },
        { id: 'b', contribution: 100n, tokens: 323_334n },
        { id: 'c', contribution: 100n, tokens: 323_334n },
      ],
      dust: 1n,
      dustTo: 'a',
    })
    const uneven = allocateDevBuy(10_000n, [
      { id: 'small', amount: 1n },
      { id: 'big', amount: 2n },
    ])
    expect(uneven.allocations.map((a) => a.tokens)).toEqual([3233n, 6467n])
    expect(uneven).toMatchObject({ fee: 300n, net: 9_700n, dust: 1n, dustTo: 'big' })
  })

  it('nobody contributing shares nothing; negative inputs are refused', () => {
    expect(allocateDevBuy(100n, [{ id: 'a', amount: 0n }])).toMatchObject({ allocations: [{ id: 'a', tokens: 0n }], dustTo: null })
    expect(() => allocateDevBuy(-1n, [])).toThrow(RangeError)
    expect(() => allocateDevBuy(1n, [{ id: 'a', amount: -1n }])).toThrow(RangeError)
  })

  it('properties: tokens conserved, the service takes exactly its rounded-down 3%, nobody below their floor, dust fewer than buyers', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 1, maxLength: 60 }),
        (bought, amounts) => {
          const contributions = amounts.map((amount, i) => ({ id: `o${i}`, amount }))
          const result = allocateDevBuy(bought, contributions)
          const total = amounts.reduce((s, a) => s + a, 0n)
          const given = result.allocations.reduce((s, a) => s + a.tokens, 0n)
          // Conservation: buyers and fee add up to exactly what was bought, never more.
          expect(given + result.fee).toBe(total === 0n ? result.fee : bought)
          expect(result.fee).toBe((bought * 300n) / 10_000n)
          if (total === 0n) return
          expect(result.dust).toBeLessThan(BigInt(amounts.filter((a) => a > 0n).length || 1))
          for (const a of result.allocations) {
            const floor = (result.net * a.contribution) / total
            // Never below the pro-rata floor: no buyer pays more per token than the buy did (so not above its limit).
            expect(a.tokens).toBeGreaterThanOrEqual(floor)
            expect(a.tokens - floor).toBe(a.id === result.dustTo ? result.dust : 0n)
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('pooled OTC settlement', () => {
  // 1,000,000 tokens at an FDV of $1M: $1 a token; 100,000 tokens offered.
  const terms = { fdv: 1_000_000n * USDC, totalSupply: 1_000_000n * TOKEN, offered: 100_000n * TOKEN }

  it('undersubscribed: every eligible order buys what its contribution pays for; the rest returns to the project', () => {
    const result = settleOtc(terms, [
      { id: 'a', limitFdv: null, maxSpend: 500n * USDC, balance: 1_000n * USDC },
      { id: 'b', limitFdv: 2_000_000n * USDC, maxSpend: 900n * USDC, balance: 300n * USDC },
      { id: 'low', limitFdv: 999_999n * USDC, maxSpend: 100n * USDC, balance: 100n * USDC },
      { id: 'empty', limitFdv: null, maxSpend: 100n * USDC, balance: 0n },
    ])
    expect(result.oversubscribed).toBe(false)
    expect(result.demand).toBe(800n * USDC)
    expect(result.fills).toEqual([
      { id: 'a', spend: 500n * USDC, tokens: 500n * TOKEN, fee: 15n * TOKEN, credited: 485n * TOKEN },
      { id: 'b', spend: 300n * USDC, tokens: 300n * TOKEN, fee: 9n * TOKEN, credited: 291n * TOKEN },
    ])
    expect(result.skipped).toEqual([
      { id: 'low', reason: 'limit_below_otc' },
      { id: 'empty', reason: 'no_balance' },
    ])
    expect(result.unsold).toBe(99_200n * TOKEN)
    expect(result.fillRatio).toBe(0.008)
  })

  it('oversubscribed: contributions scaled down pro rata, the unspent part stays in the wallets, everything offered is sold', () => {
    const result = settleOtc({ ...terms, offered: 300n * TOKEN }, [
      { id: 'a', limitFdv: null, maxSpend: 400n * USDC, balance: 400n * USDC },
      { id: 'b', limitFdv: null, maxSpend: 200n * USDC, balance: 200n * USDC },
    ])
    expect(result.oversubscribed).toBe(true)
    expect(result.fills.map((f) => [f.id, f.tokens, f.spend])).toEqual([
      ['a', 200n * TOKEN, 200n * USDC],
      ['b', 100n * TOKEN, 100n * USDC],
    ])
    expect(result.unsold).toBe(0n)
    expect(result.fillRatio).toBe(1)
  })

  it('properties: never more tokens than offered, nobody pays more than it contributed or more than the OTC price, fees exact', () => {
    const order = fc.record({
      limitFdv: fc.option(fc.bigInt({ min: 1n, max: 10n ** 14n }), { nil: null }),
      maxSpend: fc.bigInt({ min: 0n, max: 10n ** 12n }),
      balance: fc.bigInt({ min: 0n, max: 10n ** 12n }),
    })
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        fc.bigInt({ min: 1n, max: 10n ** 28n }),
        fc.bigInt({ min: 0n, max: 10n ** 28n }),
        fc.array(order, { maxLength: 40 }),
        (fdv, totalSupply, offeredRaw, raw) => {
          const offered = offeredRaw > totalSupply ? totalSupply : offeredRaw
          const orders = raw.map((o, i) => ({ id: `o${i}`, ...o }))
          const result = settleOtc({ fdv, totalSupply, offered }, orders)
          const sold = result.fills.reduce((s, f) => s + f.tokens, 0n)
          expect(sold + result.unsold).toBe(offered)
          expect(result.unsold).toBeGreaterThanOrEqual(0n)
          for (const fill of result.fills) {
            const o = orders.find((x) => x.id === fill.id)!
            const contribution = o.maxSpend < o.balance ? o.maxSpend : o.balance
            expect(o.limitFdv === null || o.limitFdv >= fdv).toBe(true)
            expect(fill.spend).toBeLessThanOrEqual(contribution)
            // Pays what its tokens cost at the OTC price, rounded up by less than one stablecoin atom.
            expect(fill.spend * totalSupply).toBeGreaterThanOrEqual(fill.tokens * fdv)
            expect((fill.spend - 1n) * totalSupply).toBeLessThan(fill.tokens * fdv)
            expect(fill.fee).toBe((fill.tokens * 300n) / 10_000n)
            expect(fill.fee + fill.credited).toBe(fill.tokens)
          }
          for (const s of result.skipped) {
            const o = orders.find((x) => x.id === s.id)!
            if (s.reason === 'limit_below_otc') expect(o.limitFdv! < fdv).toBe(true)
            else expect(o.maxSpend === 0n || o.balance === 0n).toBe(true)
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('lock and vesting schedule', () => {
  const schedule = { total: 1_000n, start: 100, lockupEnd: 200, vestingSeconds: 1_000 }

  it('table: locked until the lockup ends, then linear, then all; none without vesting at lockupEnd', () => {
    expect([99, 100, 199, 200, 201, 700, 1_199, 1_200, 5_000].map((t) => vestedAt(schedule, t))).toEqual([0n, 0n, 0n, 0n, 1n, 500n, 999n, 1_000n, 1_000n])
    expect([199, 200].map((t) => vestedAt({ ...schedule, vestingSeconds: 0 }, t))).toEqual([0n, 1_000n])
    expect(vestingState(schedule, 700, 200n)).toEqual({ vested: 500n, locked: 500n, releasable: 300n })
    expect(() => vestingState(schedule, 700, 501n)).toThrow(RangeError)
    expect(() => vestedAt({ ...schedule, lockupEnd: 50 }, 0)).toThrow(RangeError)
  })

  it('properties: never decreases, never above the total, everything vested at the end', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.array(fc.integer({ min: 0, max: 2_200_000_000 }), { minLength: 2, maxLength: 20 }),
        (total, start, lockup, vestingSeconds, times) => {
          const s = { total, start, lockupEnd: start + lockup, vestingSeconds }
          const sorted = [...times].sort((a, b) => a - b)
          let last = 0n
          for (const t of sorted) {
            const v = vestedAt(s, t)
            expect(v).toBeGreaterThanOrEqual(last)
            expect(v).toBeLessThanOrEqual(total)
            if (t < s.lockupEnd) expect(v).toBe(0n)
            last = v
          }
          expect(vestedAt(s, s.lockupEnd + vestingSeconds)).toBe(total)
        },
      ),
      { numRuns: 300 },
    )
  })
})
