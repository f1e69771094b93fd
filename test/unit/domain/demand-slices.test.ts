import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { demandSlices } from '../../../src/domain/launch-methods/demand-slices.ts'

describe('demandSlices', () => {
  it('groups by limit, no limit first then highest first; funded spend is min(cap, balance); eligible spend accumulates downwards', () => {
    const slices = demandSlices([
      { id: 'a', maxSpend: 100n, limitFdv: 1_000n, balance: 1_000n },
      { id: 'b', maxSpend: 500n, limitFdv: null, balance: 200n },
      { id: 'c', maxSpend: 50n, limitFdv: 5_000n, balance: 0n },
      { id: 'd', maxSpend: 70n, limitFdv: 1_000n, balance: 70n },
    ])
    expect(slices).toEqual([
      { limitFdv: null, orders: 1, fundedSpend: 200n, eligibleFundedSpend: 200n },
      { limitFdv: 5_000n, orders: 1, fundedSpend: 0n, eligibleFundedSpend: 200n },
      { limitFdv: 1_000n, orders: 2, fundedSpend: 170n, eligibleFundedSpend: 370n },
    ])
    expect(demandSlices([])).toEqual([])
  })

  it('the last slice’s eligible spend is the whole funded book, and eligible spend never decreases down the slices', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            maxSpend: fc.bigInt({ min: 0n, max: 10n ** 9n }),
            limit: fc.option(fc.bigInt({ min: 1n, max: 100n }), { nil: null }),
            balance: fc.bigInt({ min: 0n, max: 10n ** 9n }),
          }),
        ),
        (raw) => {
          const orders = raw.map((r, i) => ({ id: String(i), maxSpend: r.maxSpend, limitFdv: r.limit, balance: r.balance }))
          const slices = demandSlices(orders)
          const funded = orders.reduce((sum, o) => sum + (o.maxSpend < o.balance ? o.maxSpend : o.balance), 0n)
          expect(slices.at(-1)?.eligibleFundedSpend ?? 0n).toBe(funded)
          for (let i = 1; i < slices.length; i++) expect(slices[i]!.eligibleFundedSpend >= slices[i - 1]!.eligibleFundedSpend).toBe(true)
          expect(slices.reduce((n, s) => n + s.orders, 0)).toBe(orders.length)
        },
      ),
    )
  })
})
