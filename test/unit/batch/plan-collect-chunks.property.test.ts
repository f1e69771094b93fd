import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { planCollectChunks } from '../../../src/domain/batch/plan-collect-chunks.ts'

const CAP = 1n << 24n

const inputs = fc.record({
  buyers: fc.integer({ min: 1, max: 20_000 }),
  perBuyerGas: fc.bigInt({ min: 5_000n, max: 60_000n }),
  collectFixedGas: fc.bigInt({ min: 30_000n, max: 200_000n }),
  settleGas: fc.bigInt({ min: 200_000n, max: 2_000_000n }),
  operators: fc.integer({ min: 1, max: 8 }),
  blockGasLimit: fc.option(fc.bigInt({ min: 20_000_000n, max: 300_000_000n }), { nil: undefined }),
  margin: fc.constantFrom(0.8, 0.9, 1),
})

describe('planCollectChunks (pure)', () => {
  it('partitions the buyers in order into the fewest even chunks under the cap, spread over the operators, settle last', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const plan = planCollectChunks({ ...input, txGasCap: CAP })
        const usable = BigInt(Math.floor(Number(CAP) * input.margin))
        // The fewest chunks: the largest chunk count one more buyer each would not fit.
        const perChunk = Number((usable - input.collectFixedGas) / input.perBuyerGas)
        expect(plan.maxBuyersPerChunk).toBe(perChunk)
        expect(plan.collects.length).toBe(Math.ceil(input.buyers / perChunk))
        // Contiguous, in order, every buyer once, chunk ids 0..k-1.
        let next = 0
        for (const [i, c] of plan.collects.entries()) {
          expect(c.chunk).toBe(i)
          expect(c.from).toBe(next)
          expect(c.to).toBeGreaterThan(c.from)
          next = c.to
          // Under the cap, with the estimate inside the margin.
          expect(input.collectFixedGas + input.perBuyerGas * BigInt(c.to - c.from)).toBeLessThanOrEqual(usable)
          expect(c.gasLimit).toBeLessThanOrEqual(CAP)
          expect(c.gasLimit).toBeGreaterThanOrEqual(input.collectFixedGas + input.perBuyerGas * BigInt(c.to - c.from))
        }
        expect(next).toBe(input.buyers)
        // Even sizes.
        const sizes = plan.collects.map((c) => c.to - c.from)
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
        // Per operator: consecutive nonces from its next one; counts differ by at most one.
        const perOperator = Array.from({ length: input.operators }, (_, o) => plan.collects.filter((c) => c.operator === o))
        for (const sent of perOperator) expect(sent.map((c) => c.nonceOffset)).toEqual(sent.map((_, i) => i))
        const counts = perOperator.map((sent) => sent.length)
        expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1)
        // Settle: from an operator with the fewest collects, after them.
        expect(counts[plan.settle.operator]).toBe(Math.min(...counts))
        expect(plan.settle.nonceOffset).toBe(counts[plan.settle.operator])
        expect(plan.settle.gasLimit).toBeGreaterThanOrEqual(input.settleGas)
        expect(plan.settle.gasLimit).toBeLessThanOrEqual(CAP)
        expect(plan.totalGasLimit).toBe(plan.collects.reduce((s, c) => s + c.gasLimit, plan.settle.gasLimit))
        // Blocks: one when everything fits the block, else at least what the total needs.
        if (input.blockGasLimit === undefined || plan.totalGasLimit <= input.blockGasLimit) expect(plan.blocks).toBe(1)
        else {
          expect(plan.blocks).toBeGreaterThan(1)
          expect(BigInt(plan.blocks) * input.blockGasLimit).toBeGreaterThanOrEqual(plan.totalGasLimit)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('plans 5,000 buyers at the measured figures into a handful of collects in one block', () => {
    const plan = planCollectChunks({
      buyers: 5_000,
      perBuyerGas: 14_000n,
      collectFixedGas: 60_000n,
      settleGas: 450_000n,
      txGasCap: CAP,
      operators: 2,
      blockGasLimit: 150_000_000n,
    })
    expect(plan.collects.length).toBe(5)
    expect(plan.collects.map((c) => c.operator)).toEqual([0, 1, 0, 1, 0])
    expect(plan.settle).toMatchObject({ operator: 1, nonceOffset: 2 })
    expect(plan.blocks).toBe(1)
  })

  it('refuses what it cannot plan', () => {
    const base = { buyers: 10, perBuyerGas: 14_000n, collectFixedGas: 60_000n, settleGas: 450_000n, txGasCap: CAP, operators: 1 }
    expect(() => planCollectChunks({ ...base, buyers: 0 })).toThrow(RangeError)
    expect(() => planCollectChunks({ ...base, operators: 0 })).toThrow(RangeError)
    expect(() => planCollectChunks({ ...base, settleGas: CAP })).toThrow(RangeError)
    expect(() => planCollectChunks({ ...base, collectFixedGas: CAP })).toThrow(RangeError)
    expect(() => planCollectChunks({ ...base, blockGasLimit: 100_000n })).toThrow(RangeError)
  })
})
