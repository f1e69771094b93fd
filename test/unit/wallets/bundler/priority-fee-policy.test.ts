import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  bumpFees,
  isLaunchTick,
  NODE_MIN_TIP_WEI,
  percentileOf,
  policyFees,
  type PriorityFeePolicy,
  raisedForReplacement,
  tipCapPerGas,
  tipFromFeeHistory,
  withinTipCap,
} from '../../../../src/wallets/bundler/priority-fee-policy.ts'

const gwei = (n: number) => BigInt(Math.round(n * 1e9))
const policy = (over: Partial<PriorityFeePolicy> = {}): PriorityFeePolicy => ({
  tip: { kind: 'percentile', percentile: 75, blocks: 20 },
  maxTipWeiPerTx: 10n ** 15n,
  launch: { multiplier: 3, blocks: 25 },
  ...over,
})

describe('percentileOf', () => {
  it('takes the nearest rank', () => {
    expect(percentileOf([5n, 1n, 3n, 2n, 4n], 50)).toBe(3n)
    expect(percentileOf([5n, 1n, 3n, 2n, 4n], 75)).toBe(4n)
    expect(percentileOf([5n, 1n, 3n, 2n, 4n], 100)).toBe(5n)
    expect(percentileOf([5n, 1n, 3n, 2n, 4n], 1)).toBe(1n)
    expect(percentileOf([], 50)).toBeUndefined()
  })
  it('is always one of the values, and grows with the percentile', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 10n ** 20n }), { minLength: 1, maxLength: 50 }), fc.integer({ min: 1, max: 99 }), (values, p) => {
        const at = percentileOf(values, p)
        const above = percentileOf(values, p + 1)
        expect(at !== undefined && values.includes(at)).toBe(true)
        expect(at! <= above!).toBe(true)
      }),
    )
  })
})

describe('tipFromFeeHistory', () => {
  it('reads column 0 of the non-empty blocks', () => {
    const history = { reward: [[gwei(1)], [0n], [gwei(3)], [gwei(2)]], gasUsedRatio: [0.5, 0, 0.1, 0.9] }
    expect(tipFromFeeHistory(history, 50)).toBe(gwei(2))
    expect(tipFromFeeHistory(history, 100)).toBe(gwei(3))
  })
  it('has no answer when every block was empty or the node gave no rewards', () => {
    expect(tipFromFeeHistory({ reward: [[0n], [0n]], gasUsedRatio: [0, 0] }, 75)).toBeUndefined()
    expect(tipFromFeeHistory({ gasUsedRatio: [0.5] }, 75)).toBeUndefined()
  })
})

describe('policyFees', () => {
  const estimate = { maxFeePerGas: gwei(1.2) + gwei(0.01), maxPriorityFeePerGas: gwei(0.01) }
  it('uses the history tip and keeps the estimate room for the base fee', () => {
    expect(policyFees(policy(), { estimate, historyTip: gwei(0.5) }, false)).toEqual({ maxPriorityFeePerGas: gwei(0.5), maxFeePerGas: gwei(1.7) })
  })
  it("falls back on the node's suggestion when the history is empty", () => {
    expect(policyFees(policy(), { estimate, historyTip: undefined }, false).maxPriorityFeePerGas).toBe(gwei(0.01))
  })
  it('uses the fixed tip and multiplies it on a launch tick', () => {
    const fixed = policy({ tip: { kind: 'fixed', tipWei: gwei(0.02) }, launch: { multiplier: 2.5, blocks: 10 } })
    expect(policyFees(fixed, { estimate, historyTip: gwei(9) }, false).maxPriorityFeePerGas).toBe(gwei(0.02))
    expect(policyFees(fixed, { estimate, historyTip: gwei(9) }, true).maxPriorityFeePerGas).toBe(gwei(0.05))
  })
  it("never goes under the node's minimum tip, and the fee cap always covers the tip", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.option(fc.bigInt({ min: 0n, max: 10n ** 12n })),
        fc.boolean(),
        (room, suggested, historyTip, launch) => {
          const fees = policyFees(
            policy(),
            { estimate: { maxFeePerGas: room + suggested, maxPriorityFeePerGas: suggested }, historyTip: historyTip ?? undefined },
            launch,
          )
          expect(fees.maxPriorityFeePerGas >= NODE_MIN_TIP_WEI).toBe(true)
          expect(fees.maxFeePerGas - fees.maxPriorityFeePerGas).toBe(room)
        },
      ),
    )
  })
})

describe('isLaunchTick', () => {
  it('is the first `blocks` blocks from the launch block', () => {
    const p = policy({ launch: { multiplier: 2, blocks: 3 } })
    expect(isLaunchTick(p, 100n, 100n)).toBe(true)
    expect(isLaunchTick(p, 100n, 102n)).toBe(true)
    expect(isLaunchTick(p, 100n, 103n)).toBe(false)
    expect(isLaunchTick(p, 100n, 99n)).toBe(false)
    expect(isLaunchTick(p, undefined, 100n)).toBe(false)
  })
})

describe('the per-transaction tip cap', () => {
  it('lowers tip and fee cap together', () => {
    const p = policy({ maxTipWeiPerTx: 1_000_000n })
    expect(withinTipCap(p, { maxPriorityFeePerGas: 100n, maxFeePerGas: 1_100n }, 20_000n)).toEqual({ maxPriorityFeePerGas: 50n, maxFeePerGas: 1_050n })
    expect(withinTipCap(p, { maxPriorityFeePerGas: 10n, maxFeePerGas: 1_010n }, 20_000n)).toEqual({ maxPriorityFeePerGas: 10n, maxFeePerGas: 1_010n })
  })
  it('never lets tip × gas exceed the cap, nor the fee cap fall under the tip', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 21_000n, max: 2n ** 24n }),
        fc.bigInt({ min: 2n ** 24n, max: 10n ** 18n }),
        (tip, room, gas, cap) => {
          const fees = withinTipCap(policy({ maxTipWeiPerTx: cap }), { maxPriorityFeePerGas: tip, maxFeePerGas: tip + room }, gas)
          expect(fees.maxPriorityFeePerGas * gas <= cap).toBe(true)
          expect(fees.maxPriorityFeePerGas >= NODE_MIN_TIP_WEI).toBe(true)
          expect(fees.maxFeePerGas >= fees.maxPriorityFeePerGas).toBe(true)
          expect(fees.maxFeePerGas - fees.maxPriorityFeePerGas).toBe(room)
        },
      ),
    )
  })
})

describe('bumpFees', () => {
  it("raises tip and fee cap by geth's 10% at least", () => {
    const bump = bumpFees(policy(), { maxPriorityFeePerGas: 100n, maxFeePerGas: 1_000n }, { maxPriorityFeePerGas: 1n, maxFeePerGas: 500n }, 21_000n)
    expect(bump).toEqual({ kind: 'bumped', fees: { maxPriorityFeePerGas: 110n, maxFeePerGas: 1_100n } })
    expect(raisedForReplacement(15n)).toBe(17n)
  })
  it('takes fresher, higher fees when the base fee rose', () => {
    const bump = bumpFees(policy(), { maxPriorityFeePerGas: 100n, maxFeePerGas: 1_000n }, { maxPriorityFeePerGas: 300n, maxFeePerGas: 5_300n }, 21_000n)
    expect(bump).toEqual({ kind: 'bumped', fees: { maxPriorityFeePerGas: 300n, maxFeePerGas: 5_300n } })
  })
  it('is capped when the replacement tip would exceed the per-transaction cap', () => {
    const p = policy({ maxTipWeiPerTx: 105n * 21_000n })
    expect(bumpFees(p, { maxPriorityFeePerGas: 100n, maxFeePerGas: 1_000n }, { maxPriorityFeePerGas: 1n, maxFeePerGas: 500n }, 21_000n)).toEqual({
      kind: 'capped',
      tipCap: 105n,
    })
  })
  it('is always accepted as a replacement by geth, and never above the cap', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 11n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 11n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 21_000n, max: 2n ** 24n }),
        fc.bigInt({ min: 2n ** 24n, max: 10n ** 18n }),
        (oldTip, oldRoom, freshTip, freshRoom, gas, cap) => {
          const previous = { maxPriorityFeePerGas: oldTip, maxFeePerGas: oldTip + oldRoom }
          const bump = bumpFees(policy({ maxTipWeiPerTx: cap }), previous, { maxPriorityFeePerGas: freshTip, maxFeePerGas: freshTip + freshRoom }, gas)
          if (bump.kind === 'capped') {
            expect(raisedForReplacement(oldTip) * gas > cap).toBe(true)
            return
          }
          // geth's list.go: underpriced when the new fee cap or tip is under old × 110 / 100 (integer division).
          expect(bump.fees.maxPriorityFeePerGas >= (oldTip * 110n) / 100n).toBe(true)
          expect(bump.fees.maxFeePerGas >= ((oldTip + oldRoom) * 110n) / 100n).toBe(true)
          expect(bump.fees.maxPriorityFeePerGas > oldTip).toBe(true)
          expect(bump.fees.maxPriorityFeePerGas <= tipCapPerGas(policy({ maxTipWeiPerTx: cap }), gas)).toBe(true)
          expect(bump.fees.maxFeePerGas >= bump.fees.maxPriorityFeePerGas).toBe(true)
          expect(bump.fees.maxFeePerGas - bump.fees.maxPriorityFeePerGas >= freshRoom).toBe(true)
        },
      ),
    )
  })
})
