import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { allocateBatch } from '../../../src/domain/batch/batch-allocation.ts'
import { splitProRata } from '../../../src/domain/batch/pro-rata.ts'
import { splitPlatformFee } from '../../../src/domain/execution/platform-fee.ts'
import { allocateDevBuy } from '../../../src/launch-methods/dev-buy/domain/dev-buy-allocation.ts'
import { settleOtc } from '../../../src/launch-methods/pooled-otc/domain/otc-fill.ts'

const amounts = fc.bigInt({ min: 0n, max: 10n ** 30n })
const weights = fc.array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 1, maxLength: 40 })

describe('splitProRata: the one pro-rata rule of the batch, the dev buy and the OTC settlement', () => {
  it('rounds every part down, never above its exact share, and leaves fewer atoms than paying participants', () => {
    fc.assert(
      fc.property(amounts, weights, (amount, ws) => {
        const { parts, totalWeight, remainder } = splitProRata(amount, ws)
        expect(totalWeight).toBe(ws.reduce((a, b) => a + b, 0n))
        expect(parts.reduce((a, b) => a + b, 0n) + remainder).toBe(amount)
        if (totalWeight === 0n) {
          expect(parts.every((p) => p === 0n)).toBe(true)
          return
        }
        for (const [i, p] of parts.entries()) {
          // p <= amount * w / W < p + 1
          expect(p * totalWeight).toBeLessThanOrEqual(amount * ws[i]!)
          expect((p + 1n) * totalWeight).toBeGreaterThan(amount * ws[i]!)
        }
        expect(remainder).toBeGreaterThanOrEqual(0n)
        expect(remainder).toBeLessThan(BigInt(Math.max(1, ws.filter((w) => w > 0n).length)))
      }),
      { numRuns: 500 },
    )
  })

  it('is what the three pooled purchases split with; each keeps its own fee and remainder rule', () => {
    fc.assert(
      fc.property(amounts, weights, (amount, ws) => {
        const total = ws.reduce((a, b) => a + b, 0n)
        fc.pre(total > 0n)
        // The batch: gross shares of the swap output; the fee per share; the rest to the fee recipient.
        const batch = allocateBatch(amount, ws)
        const split = splitProRata(amount, ws)
        expect(batch.shares.map((s) => s.gross)).toEqual(split.parts)
        expect(batch.dust).toBe(split.remainder)
        // The dev buy: the fee on the whole buy first, then the same split of the rest; the remainder to the largest.
        const dev = allocateDevBuy(
          amount,
          ws.map((w, i) => ({ id: `c${i}`, amount: w })),
        )
        const net = splitPlatformFee(amount).buyer
        const devSplit = splitProRata(net, ws)
        const largest = ws.indexOf(ws.reduce((a, b) => (b > a ? b : a)))
        expect(dev.allocations.map((a) => a.tokens)).toEqual(devSplit.parts.map((p, i) => (i === largest ? p + devSplit.remainder : p)))
        expect(dev.dust).toBe(devSplit.remainder)
      }),
      { numRuns: 300 },
    )
  })

  it('splits an oversubscribed OTC offer by contribution, the remainder back to the project', () => {
    const totalSupply = 10n ** 27n
    const fdv = 1_000_000n * 10n ** 6n
    const offered = 1_000_003n * 10n ** 18n
    const contributions = [7_000n, 5_000n, 3_333n].map((usd) => usd * 10n ** 6n)
    const result = settleOtc(
      { fdv, totalSupply, offered },
      contributions.map((c, i) => ({ id: `o${i}`, limitFdv: null, maxSpend: c, balance: c })),
    )
    expect(result.oversubscribed).toBe(true)
    const split = splitProRata(offered, contributions)
    expect(result.fills.map((f) => f.tokens)).toEqual(split.parts)
    expect(result.unsold).toBe(split.remainder)
  })
})
