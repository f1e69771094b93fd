import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { allocateBatch } from '../../../src/domain/batch/batch-allocation.ts'
import { type BatchCandidate, clearBatch, clearBatchQuoted, maxBuyersPerBatch } from '../../../src/domain/batch/clear-batch.ts'
import { meetsLowestLimit } from '../../../src/domain/batch/clearing-bound.ts'
import { minTokensOut } from '../../../src/pricing/min-tokens-out.ts'
import { executableOrderOf } from './executable-order-of.ts'

/** 1 billion tokens of 18 decimals, as Clanker, Doppler and Zora launch them. */
const SUPPLY = 10n ** 27n

/**
 * A constant-product pool (x * y = k) with an LP fee in pips, exact input: the model of a v2-style or single-range v4
 * pool, floor-rounded like the real swap math. Its output is non-decreasing and its average price rises with the input.
 */
const constantProduct =
  (usdcReserve: bigint, tokenReserve: bigint, feePips: bigint) =>
  (usdcIn: bigint): bigint => {
    const inAfterFee = usdcIn * (1_000_000n - feePips)
    return (tokenReserve * inAfterFee) / (usdcReserve * 1_000_000n + inAfterFee)
  }

/** The spec's priority rule, written out independently: larger spend, then higher limit (none highest), then input order. */
const specRank = (candidates: readonly BatchCandidate[]): number[] =>
  candidates
    .map((_, i) => i)
    .sort((a, b) => {
      const x = candidates[a]!.order
      const y = candidates[b]!.order
      if (x.maxSpend !== y.maxSpend) return x.maxSpend > y.maxSpend ? -1 : 1
      if (x.limitFdv !== y.limitFdv) {
        if (x.limitFdv === null) return -1
        if (y.limitFdv === null) return 1
        return x.limitFdv > y.limitFdv ? -1 : 1
      }
      return a - b
    })

/** A random pool (starting FDV $10k to $2M, 10% to 90% of the supply in it, LP fee 0 to 10%) and book around it. */
const market = (maxOrders: number) =>
  fc
    .record({
      startFdv: fc.bigInt({ min: 10_000n * 10n ** 6n, max: 2_000_000n * 10n ** 6n }),
      poolShare: fc.integer({ min: 10, max: 90 }),
      feePips: fc.bigInt({ min: 0n, max: 100_000n }),
      orders: fc.array(
        fc.record({
          spend: fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 6n }), fc.bigInt({ min: 1n, max: 5_000n * 10n ** 6n }), fc.constant(0n)),
          // Limit as a multiple of the starting FDV, in per-mille; null: no limit.
          limitPerMille: fc.option(fc.integer({ min: 900, max: 4_000 }), { nil: null }),
          capAbove: fc.boolean(),
        }),
        { minLength: 0, maxLength: maxOrders },
      ),
      maxBuyersExtra: fc.integer({ min: -3, max: 2 }),
    })
    .map((m) => {
      const tokenReserve = (SUPPLY * BigInt(m.poolShare)) / 100n
      const usdcReserve = (m.startFdv * tokenReserve) / SUPPLY
      const candidates: BatchCandidate[] = m.orders.map((o, i) => {
        const limit = o.limitPerMille === null ? null : (m.startFdv * BigInt(o.limitPerMille)) / 1_000n
        // Sometimes the wallet's balance, not the cap, bounds the spend (the priority still goes by the cap).
        return { order: executableOrderOf(i, o.capAbove ? o.spend * 2n : o.spend, limit), spend: o.spend }
      })
      return {
        candidates,
        pool: constantProduct(usdcReserve, tokenReserve, m.feePips),
        maxBuyers: Math.max(0, m.orders.length + m.maxBuyersExtra),
      }
    })

describe('clearBatch: one price for every included order (property tests, constant-product pools)', () => {
  it('never clears above an included limit, per buyer after rounding as the router checks it; allocations sum exactly to the output', () => {
    fc.assert(
      fc.property(market(40), ({ candidates, pool, maxBuyers }) => {
        const c = clearBatch({ candidates, tokensOut: pool, totalSupply: SUPPLY, maxBuyers })
        expect(c.included.length).toBeLessThanOrEqual(maxBuyers)
        expect(c.included.length + c.excluded.length).toBe(candidates.length)
        expect(c.totalIn).toBe(c.included.reduce((sum, i) => sum + i.candidate.spend, 0n))
        expect(c.tokensOut).toBe(c.included.length === 0 ? 0n : pool(c.totalIn))
        for (const inc of c.included) {
          const limit = inc.candidate.order.limitFdv
          if (limit === null) continue
          // The clearing FDV (totalIn * supply / tokensOut) within the limit...
          expect(c.totalIn * SUPPLY).toBeLessThanOrEqual(limit * c.tokensOut)
          // ...and the buyer's own rounded share meets PrebuyBuyRouter's minimum for its spend and limit.
          expect(inc.gross).toBeGreaterThanOrEqual(minTokensOut({ spend: inc.candidate.spend, limitFdv: limit, totalSupply: SUPPLY }))
          expect(c.lowestLimit).not.toBeNull()
          expect(c.lowestLimit!).toBeLessThanOrEqual(limit)
        }
        // The dust rule: floors to the buyers, the rest (fees and fewer atoms than buyers) to the fee recipient.
        const net = c.included.reduce((sum, i) => sum + i.net, 0n)
        const fees = c.included.reduce((sum, i) => sum + i.fee, 0n)
        expect(net + c.feeTotal).toBe(c.tokensOut)
        expect(c.feeTotal).toBe(fees + c.dust)
        expect(c.dust).toBeGreaterThanOrEqual(0n)
        expect(c.dust).toBeLessThan(BigInt(Math.max(1, c.included.length)))
        for (const inc of c.included) {
          expect(inc.gross).toBe((c.tokensOut * inc.candidate.spend) / c.totalIn)
          expect(inc.fee).toBe((inc.gross * 300n) / 10_000n)
          // Everyone at one price: no share is above its exact pro-rata part.
          expect(inc.gross * c.totalIn).toBeLessThanOrEqual(c.tokensOut * inc.candidate.spend)
        }
      }),
      { numRuns: 400 },
    )
  })

  it('includes the set the priority rule picks: the lexicographically first feasible set in priority order (brute force)', () => {
    fc.assert(
      fc.property(market(9), ({ candidates, pool, maxBuyers }) => {
        const c = clearBatch({ candidates, tokensOut: pool, totalSupply: SUPPLY, maxBuyers })
        const ranked = specRank(candidates)
        // The ranks the clearing reports are the spec's order.
        const byRank = [...c.included, ...c.excluded].sort((a, b) => a.rank - b.rank)
        expect(byRank.map((x) => candidates.indexOf(x.candidate))).toEqual(ranked)
        // Every subset of the orders with something to spend, as a bit mask over priority positions (bit n-1-rank: the
        // first in priority is the most significant), feasible when within the buyer budget and clearing within limits.
        const n = ranked.length
        let best = -1
        for (let mask = 0; mask < 1 << n; mask++) {
          let totalIn = 0n
          let lowest: bigint | null = null
          let minSpend = 0n
          let count = 0
          let usable = true
          for (let rank = 0; rank < n; rank++) {
            if (!(mask & (1 << (n - 1 - rank)))) continue
            const cand = candidates[ranked[rank]!]!
            if (cand.spend === 0n) usable = false
            count++
            totalIn += cand.spend
            const limit = cand.order.limitFdv
            if (limit !== null && (lowest === null || limit < lowest)) lowest = limit
            if (count === 1 || cand.spend < minSpend) minSpend = cand.spend
          }
          if (!usable || count > maxBuyers) continue
          const feasible = count === 0 || meetsLowestLimit({ totalIn, tokensOut: pool(totalIn), lowestLimit: lowest, minSpend, totalSupply: SUPPLY })
          if (feasible && mask > best) best = mask
        }
        const chosen = c.included.reduce((mask, inc) => mask | (1 << (n - 1 - inc.rank)), 0)
        expect(chosen).toBe(best)
      }),
      { numRuns: 400 },
    )
  })

  it('says why each order is out: gas only once the batch is full, a limit only when it would break the set ranked above it', () => {
    fc.assert(
      fc.property(market(40), ({ candidates, pool, maxBuyers }) => {
        const c = clearBatch({ candidates, tokensOut: pool, totalSupply: SUPPLY, maxBuyers })
        for (const ex of c.excluded) {
          const above = c.included.filter((i) => i.rank < ex.rank)
          if (ex.reason === 'no_spend') {
            expect(ex.candidate.spend).toBe(0n)
            continue
          }
          if (ex.reason === 'gas_budget') {
            expect(above.length).toBe(maxBuyers)
            continue
          }
          expect(ex.reason).toBe('limit_below_clearing')
          expect(above.length).toBeLessThan(maxBuyers)
          const set = [...above.map((i) => i.candidate), ex.candidate]
          const totalIn = set.reduce((s, x) => s + x.spend, 0n)
          const limits = set.map((x) => x.order.limitFdv).filter((l): l is bigint => l !== null)
          const lowest = limits.length === 0 ? null : limits.reduce((a, b) => (a < b ? a : b))
          const minSpend = set.map((x) => x.spend).reduce((a, b) => (a < b ? a : b))
          expect(meetsLowestLimit({ totalIn, tokensOut: pool(totalIn), lowestLimit: lowest, minSpend, totalSupply: SUPPLY })).toBe(false)
        }
      }),
      { numRuns: 300 },
    )
  })
  it('decides the same with a pool function that answers asynchronously (a quote)', async () => {
    await fc.assert(
      fc.asyncProperty(market(20), async ({ candidates, pool, maxBuyers }) => {
        const sync = clearBatch({ candidates, tokensOut: pool, totalSupply: SUPPLY, maxBuyers })
        const quoted = await clearBatchQuoted({ candidates, tokensOut: async (x) => pool(x), totalSupply: SUPPLY, maxBuyers })
        expect(quoted).toEqual(sync)
      }),
      { numRuns: 100 },
    )
  })
})

describe('allocateBatch and the gas budget', () => {
  it('gives a skipped buyer (spend 0) nothing and keeps the sum exact', () => {
    const a = allocateBatch(1_000_003n, [3n, 0n, 7n])
    expect(a.shares.map((s) => s.gross)).toEqual([300_000n, 0n, 700_002n])
    expect(a.shares.map((s) => s.net)).toEqual([291_000n, 0n, 679_002n])
    expect(a.dust).toBe(1n)
    expect(a.feeTotal).toBe(1_000_003n - 291_000n - 679_002n)
  })

  it('refuses tokens out of a swap nobody paid into, and bad fees', () => {
    expect(() => allocateBatch(5n, [0n])).toThrow(RangeError)
    expect(() => allocateBatch(5n, [1n], 10_001n)).toThrow(RangeError)
    expect(allocateBatch(0n, []).feeTotal).toBe(0n)
  })

  it('turns a gas cap into a buyer count, and none when the fixed cost does not fit', () => {
    expect(maxBuyersPerBatch({ txGasCap: 2n ** 24n, fixedGas: 400_000n, perBuyerGas: 15_000n, margin: 1 })).toBe(Math.floor((2 ** 24 - 400_000) / 15_000))
    expect(maxBuyersPerBatch({ txGasCap: 1_000n, fixedGas: 5_000n, perBuyerGas: 10n })).toBe(0)
    expect(() => maxBuyersPerBatch({ txGasCap: 1_000n, fixedGas: 0n, perBuyerGas: 0n })).toThrow(RangeError)
  })

  it('meetsLowestLimit: exactly at the clearing bound a buyer rounded down would pay above it, so it is refused', () => {
    // 10 atoms in, 1,000 tokens out, supply 1,000: FDV exactly 10 = the limit; the smallest spend 3 would get
    // floor(1000 * 3 / 10) = 300 tokens, fine, but the bound must also hold with rounding for every spend.
    expect(meetsLowestLimit({ totalIn: 10n, tokensOut: 1_000n, lowestLimit: 10n, minSpend: 3n, totalSupply: 1_000n })).toBe(false)
    expect(meetsLowestLimit({ totalIn: 10n, tokensOut: 1_010n, lowestLimit: 10n, minSpend: 3n, totalSupply: 1_000n })).toBe(true)
    expect(meetsLowestLimit({ totalIn: 10n, tokensOut: 0n, lowestLimit: null, minSpend: 3n, totalSupply: 1_000n })).toBe(false)
  })
})
