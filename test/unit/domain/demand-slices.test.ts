import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { demandSlices } from '../../../src/domain/demand-slices.ts'

describe('demandSlices', () => {
  it('groups by limit, no limit first then highest first; eligible spend accumulates downwards', () => {
    const slices = demandSlices([
      { limitFdv: 1_000n, spend: 100n },
      { limitFdv: null, spend: 200n },
      { limitFdv: 5_000n, spend: 0n },
      { limitFdv: 1_000n, spend: 70n },
    ])
    expect(slices).toEqual([
      { limitFdv: null, orders: 1, spend: 200n, eligibleSpend: 200n },
      { limitFdv: 5_000n, orders: 1, spend: 0n, eligibleSpend: 200n },
      { limitFdv: 1_000n, orders: 2, spend: 170n, eligibleSpend: 370n },
    ])
    expect(demandSlices([])).toEqual([])
  })

  it('the last slice’s eligible spend is the whole book, and eligible spend never decreases down the slices', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ spend: fc.bigInt({ min: 0n, max: 10n ** 9n }), limitFdv: fc.option(fc.bigInt({ min: 1n, max: 100n }), { nil: null }) })),
        (items) => {
          const slices = demandSlices(items)
          expect(slices.at(-1)?.eligibleSpend ?? 0n).toBe(items.reduce((sum, i) => sum + i.spend, 0n))
          for (let i = 1; i < slices.length; i++) expect(slices[i]!.eligibleSpend >= slices[i - 1]!.eligibleSpend).toBe(true)
          expect(slices.reduce((n, s) => n + s.orders, 0)).toBe(items.length)
        },
      ),
    )
  })
})
