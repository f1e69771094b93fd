import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { amountToPrice, clearBatchAfter, clearBatchAhead, sameClearingInputs } from '../../../src/domain/batch/clear-batch-ahead.ts'
import { type BatchCandidate, clearBatch } from '../../../src/domain/batch/clear-batch.ts'
import { type PrioritisationPolicy, spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import { executableOrderOf } from './executable-order-of.ts'

const SUPPLY = 10n ** 27n

const constantProduct = (usdcReserve: bigint, tokenReserve: bigint) => (usdcIn: bigint) => (tokenReserve * usdcIn) / (usdcReserve + usdcIn)

/**
 * Random books: max spends with many ties (the priority order's input-order tie-break), spends at the max or below it
 * (a wallet short of its orders' caps) or 0, limits on some orders or none, a gas cut from 0 to past the book.
 */
const book = fc.record({
  orders: fc.array(
    fc.record({
      maxSpend: fc.oneof(fc.constantFrom(10n ** 6n, 5n * 10n ** 6n, 100n * 10n ** 6n), fc.bigInt({ min: 1n, max: 5_000n * 10n ** 6n })),
      spendCut: fc.oneof(fc.constant(1000), fc.integer({ min: 0, max: 1000 })),
      limitFdv: fc.option(fc.bigInt({ min: 10_000n * 10n ** 6n, max: 10_000_000n * 10n ** 6n }), { nil: null, freq: 3 }),
    }),
    { maxLength: 60 },
  ),
  maxBuyers: fc.integer({ min: 0, max: 70 }),
  withLimits: fc.boolean(),
  usdcReserve: fc.bigInt({ min: 1n, max: 10n ** 12n }),
  tokenReserve: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: SUPPLY })),
})

type Book = typeof book extends fc.Arbitrary<infer T> ? T : never

const candidatesOf = (b: Book): BatchCandidate[] =>
  b.orders.map((o, i) => ({
    order: executableOrderOf(i, o.maxSpend, b.withLimits ? o.limitFdv : null),
    spend: (o.maxSpend * BigInt(o.spendCut)) / 1000n,
  }))

describe('the clearing walked ahead of the quote', () => {
  it('gives exactly what clearBatch gives, whenever it gives anything; and gives something for every book without limits', () => {
    fc.assert(
      fc.property(book, (b) => {
        const candidates = candidatesOf(b)
        const pool = constantProduct(b.usdcReserve, b.tokenReserve)
        const asked: bigint[] = []
        const direct = clearBatch({
          candidates,
          totalSupply: SUPPLY,
          maxBuyers: b.maxBuyers,
          tokensOut: (usdcIn) => {
            asked.push(usdcIn)
            return pool(usdcIn)
          },
        })
        const ahead = clearBatchAhead({ candidates, maxBuyers: b.maxBuyers })
        if (!b.withLimits) expect(ahead).toBeDefined()
        if (!ahead) {
          // Only a walk that had to price a limited order on its way is refused.
          expect(candidates.some((c) => c.order.limitFdv !== null && c.spend > 0n)).toBe(true)
          return
        }
        // The same question to the pool (what the batch record keeps as its evaluations), and the same answer.
        const amount = amountToPrice(ahead)
        expect(amount === undefined ? [] : [amount]).toEqual(asked)
        const after = clearBatchAfter(ahead, amount === undefined ? 0n : pool(amount))
        expect(after).toEqual(direct)
        expect(sameClearingInputs(ahead, candidates, b.maxBuyers)).toBe(true)
      }),
      { numRuns: 400 },
    )
  })

  it('is refused for any other inputs: another order object, another spend, another gas cut or policy', () => {
    const candidates: BatchCandidate[] = [1, 2, 3].map((i) => ({ order: executableOrderOf(i, BigInt(i) * 10n ** 6n, null), spend: BigInt(i) * 10n ** 6n }))
    const ahead = clearBatchAhead({ candidates, maxBuyers: 10 })!
    expect(sameClearingInputs(ahead, candidates.slice(), 10)).toBe(true)
    expect(sameClearingInputs(ahead, candidates, 9)).toBe(false)
    const other: PrioritisationPolicy = { ...spendThenLimitPolicy, name: 'other' }
    expect(sameClearingInputs(ahead, candidates, 10, other)).toBe(false)
    expect(sameClearingInputs(ahead, candidates.slice(0, 2), 10)).toBe(false)
    expect(sameClearingInputs(ahead, [candidates[1]!, candidates[0]!, candidates[2]!], 10)).toBe(false)
    // Same values, another object: a record written since (its form is a new object) is not trusted.
    expect(sameClearingInputs(ahead, [{ ...candidates[0]!, order: { ...candidates[0]!.order } }, candidates[1]!, candidates[2]!], 10)).toBe(false)
    expect(sameClearingInputs(ahead, [{ ...candidates[0]!, spend: 1n }, candidates[1]!, candidates[2]!], 10)).toBe(false)
  })

  it('walks past limited orders it never reaches (no spend, past the gas budget) and stops at the first it reaches', () => {
    const unlimited = { order: executableOrderOf(0, 9n * 10n ** 6n, null), spend: 9n * 10n ** 6n }
    const noSpend = { order: executableOrderOf(1, 8n * 10n ** 6n, 10n ** 12n), spend: 0n }
    const pastBudget = { order: executableOrderOf(2, 7n * 10n ** 6n, 10n ** 12n), spend: 7n * 10n ** 6n }
    expect(clearBatchAhead({ candidates: [unlimited, noSpend, pastBudget], maxBuyers: 1 })?.walk.excluded.map((e) => e.reason)).toEqual([
      'no_spend',
      'gas_budget',
    ])
    expect(clearBatchAhead({ candidates: [unlimited, noSpend, pastBudget], maxBuyers: 2 })).toBeUndefined()
  })
})
