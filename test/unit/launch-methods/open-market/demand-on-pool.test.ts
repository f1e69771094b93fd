import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { demandOnPool } from '../../../../src/launch-methods/open-market/domain/demand-on-pool.ts'
import { quoteDevBuy } from '../../../../src/launch-methods/dev-buy/domain/dev-buy-eligibility.ts'
import { clankerDefaultStartFdv, clankerReferencePool } from '../../../../src/launchpads/reference-launch.ts'
import { effectiveMarketCap } from '../../../../src/pricing/effective-market-cap.ts'
import { fraction } from '../../../../src/pricing/fraction.ts'

const USD = 1_000_000n
// 3,000 USD per ETH, in micro-USD per wei.
const ETH_USD = fraction(3_000n * USD, 10n ** 18n)
const pool = clankerReferencePool(ETH_USD)

describe('demandOnPool on Clanker’s default pool', () => {
  it('the first slice meets the default start’s effective cap; each next one the cap after the demand ahead has bought', () => {
    const onPool = demandOnPool(pool, [{ spend: 5_000n * USD }, { spend: 20_000n * USD }, { spend: 1n * USD }])
    expect(onPool.map((s) => s.demandAhead)).toEqual([0n, 5_000n * USD, 25_000n * USD])
    // The start: ~$29.6k spot, ~$29.97k once the settled 1.1976% is counted (the pool's exact price, rounded once).
    const startCap = effectiveMarketCap(clankerDefaultStartFdv(ETH_USD), pool.totalFee)!
    expect(onPool[0]!.capWhenReached! - startCap).toBeLessThanOrEqual(1n)
    expect(onPool[0]!.capWhenReached! >= startCap).toBe(true)
    expect(onPool[1]!.capWhenReached).toBe(quoteDevBuy(pool, 5_000n * USD)!.marginalCap)
    expect(onPool[2]!.capWhenReached).toBe(quoteDevBuy(pool, 25_000n * USD)!.marginalCap)
    // $5k into a ~$30k pool lifts the cap by over a third; $25k more, to several times the start.
    expect(onPool[1]!.capWhenReached! > (startCap * 4n) / 3n).toBe(true)
    expect(onPool[2]!.capWhenReached! > startCap * 3n).toBe(true)
  })

  it('caps only rise with the demand ahead, and no slice is placed after the pool runs out', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 2_000_000n * USD }), { minLength: 1, maxLength: 8 }), (spends) => {
        const onPool = demandOnPool(
          pool,
          spends.map((spend) => ({ spend })),
        )
        let last = 0n
        let exhausted = false
        for (const slice of onPool) {
          if (slice.capWhenReached === null) exhausted = true
          else {
            expect(exhausted).toBe(false)
            expect(slice.capWhenReached >= last).toBe(true)
            last = slice.capWhenReached
          }
        }
      }),
      { numRuns: 40 },
    )
    // More stablecoin than the whole supply is worth at the top of the Standard range: the pool cannot absorb it.
    const drained = demandOnPool(pool, [{ spend: 10n ** 15n * USD }, { spend: USD }, { spend: USD }])
    expect(drained.map((s) => s.capWhenReached === null)).toEqual([false, true, true])
  })
})
