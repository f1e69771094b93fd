import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type DevBuyCandidate, type DevBuyLaunch, planDevBuy, quoteDevBuy } from '../../../../src/launch-methods/dev-buy/domain/dev-buy-eligibility.ts'
import { planWithQuotes } from '../../../../src/launch-methods/dev-buy/chain/plan-with-quotes.ts'
import { clankerProtocolFeeOf, clankerTotalFeeFraction } from '../../../../src/pricing/fee-fraction.ts'
import { fraction } from '../../../../src/pricing/fraction.ts'
import { getLiquidityForAmount0 } from '../../../../src/pricing/v4/liquidity-amounts.ts'
import { getSqrtPriceAtTick, maxUsableTick } from '../../../../src/pricing/v4/tick-math.ts'

/**
 * A Clanker-shaped launch: 100 billion tokens (currency0) placed single-sided from the starting tick up, paired with
 * WETH at $3,000, a 1% LP fee plus the hook's protocol fee (20% of it, taken from the input first).
 */
const SUPPLY = 100_000_000_000n * 10n ** 18n
const START = -230_400 // about $31k FDV at $3,000 per ETH
const SPACING = 200
const ETH_USD_ATOMS = 3000n * 10n ** 6n
const launch: DevBuyLaunch = {
  pool: {
    sqrtPriceX96: getSqrtPriceAtTick(START),
    tick: START,
    tickSpacing: SPACING,
    positions: [
      {
        tickLower: START,
        tickUpper: maxUsableTick(SPACING),
        liquidity: getLiquidityForAmount0(getSqrtPriceAtTick(START), getSqrtPriceAtTick(maxUsableTick(SPACING)), SUPPLY),
      },
    ],
  },
  tokenIsCurrency0: true,
  lpFeePips: 10_000,
  hookInputFee: (paired) => clankerProtocolFeeOf(paired, 10_000),
  totalFee: clankerTotalFeeFraction(10_000),
  totalSupply: SUPPLY,
  stableToPaired: (stable) => (stable * 10n ** 18n) / ETH_USD_ATOMS,
  pairedUsd: fraction(ETH_USD_ATOMS, 10n ** 18n),
}
const usd = (dollars: number): bigint => BigInt(Math.round(dollars * 1e6))
const order = (id: string, spendUsd: number, limitUsd: number | null): DevBuyCandidate => ({
  id,
  spend: usd(spendUsd),
  limitFdv: limitUsd === null ? null : usd(limitUsd),
})

describe('quoteDevBuy', () => {
  it('prices a buy from the launch pool: the average FDV is above the start and below the marginal effective cap', () => {
    const quote = quoteDevBuy(launch, usd(1000))!
    const startFdv = quoteDevBuy(launch, 1n)!.marginalCap!
    expect(quote.tokensOut > 0n).toBe(true)
    expect(quote.averageFdv > startFdv).toBe(true)
    expect(quote.averageFdv <= quote.marginalCap!).toBe(true)
    // $1,000 into a ~$31k pool moves the price by a few percent, not by nothing and not by multiples.
    expect(Number(quote.marginalCap!) / Number(startFdv)).toBeGreaterThan(1.02)
    expect(Number(quote.marginalCap!) / Number(startFdv)).toBeLessThan(1.2)
  })
})

describe('planDevBuy', () => {
  it('takes the highest limits first and stops at the first order whose limit the buy including it would pass', () => {
    const start = quoteDevBuy(launch, 1n)!.marginalCap!
    const orders = [
      order('low', 500, (Number(start) / 1e6) * 1.01), // a limit barely above the start: left out once others buy first
      order('none', 2000, null),
      order('high', 1000, 1_000_000),
      order('mid', 800, (Number(start) / 1e6) * 1.3),
      order('empty', 0, null),
    ]
    const plan = planDevBuy(launch, orders)
    expect(plan.included.map((c) => c.id)).toEqual(['none', 'high', 'mid'])
    expect(plan.excluded).toEqual([
      { id: 'empty', reason: 'nothing_to_spend' },
      { id: 'low', reason: 'limit_below_price' },
    ])
    expect(plan.quote!.stableIn).toBe(usd(3800))
    // The cap after the included buy is within the lowest included limit; with 'low' it would pass low's limit.
    expect(plan.quote!.marginalCap! <= orders[3]!.limitFdv!).toBe(true)
    expect(quoteDevBuy(launch, usd(4300))!.marginalCap! > orders[0]!.limitFdv!).toBe(true)
    const allocation = plan.allocation!
    expect(allocation.allocations.reduce((sum, a) => sum + a.tokens, 0n) + allocation.fee).toBe(plan.quote!.tokensOut)
  })

  it('stops at the first misfit even when a later, smaller order would fit (a lower limit never jumps a higher one)', () => {
    const start = Number(quoteDevBuy(launch, 1n)!.marginalCap!) / 1e6
    const plan = planDevBuy(launch, [order('big', 20_000, start * 1.5), order('small', 1, start * 1.2)])
    expect(plan.included).toEqual([])
    expect(plan.excluded).toEqual([
      { id: 'big', reason: 'limit_below_price' },
      { id: 'small', reason: 'after_cutoff' },
    ])
    expect(plan.quote).toBeNull()
    expect(plan.allocation).toBeNull()
  })

  it('leaves out what the pool cannot absorb', () => {
    // More ETH than the whole supply is worth up to the last usable tick is not a price: the pool runs dry.
    const plan = planDevBuy({ ...launch, pool: { ...launch.pool, positions: [{ ...launch.pool.positions[0]!, tickUpper: START + 2000 }] } }, [
      order('a', 10, null),
      order('b', 10_000_000, 10 ** 12), // a limit nothing reaches; 'a' (no limit) goes first
    ])
    expect(plan.included.map((c) => c.id)).toEqual(['a'])
    expect(plan.excluded).toEqual([{ id: 'b', reason: 'liquidity_exhausted' }])
  })

  it('properties: a prefix in priority order, nobody above their limit, the next order would pass its own, tokens conserved', () => {
    const start = Number(quoteDevBuy(launch, 1n)!.marginalCap!) / 1e6
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            spend: fc.integer({ min: 0, max: 50_000 }),
            limit: fc.option(fc.double({ min: 0.5, max: 4, noNaN: true }), { nil: null }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (raw) => {
          const orders = raw.map((r, i) => order(`o${i}`, r.spend, r.limit === null ? null : start * r.limit))
          const plan = planDevBuy(launch, orders)
          expect(plan.included.length + plan.excluded.length).toBe(orders.length)
          if (plan.quote === null) {
            expect(plan.included).toEqual([])
            return
          }
          for (const c of plan.included) {
            expect(c.spend > 0n).toBe(true)
            if (c.limitFdv !== null) expect(plan.quote.marginalCap! <= c.limitFdv).toBe(true)
          }
          expect(plan.quote.stableIn).toBe(plan.included.reduce((sum, c) => sum + c.spend, 0n))
          const misfit = plan.excluded.find((e) => e.reason === 'limit_below_price')
          if (misfit) {
            const next = orders.find((o) => o.id === misfit.id)!
            expect(quoteDevBuy(launch, plan.quote.stableIn + next.spend)!.marginalCap! > next.limitFdv!).toBe(true)
          }
          const a = plan.allocation!
          expect(a.allocations.reduce((sum, x) => sum + x.tokens, 0n) + a.fee).toBe(plan.quote.tokensOut)
        },
      ),
      { numRuns: 60 },
    )
  })
})

describe('planWithQuotes (the stablecoin swap quoted asynchronously, as on chain)', () => {
  it('makes the same plan as planDevBuy, asking for O(log n) quotes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50_000 }), fc.option(fc.integer({ min: 20_000, max: 2_000_000 }), { nil: null })), {
          minLength: 1,
          maxLength: 200,
        }),
        async (specs) => {
          const candidates = specs.map(([spend, limit], i) => order(`o${i}`, spend, limit))
          const asked: bigint[] = []
          const { plan, quotes } = await planWithQuotes(launch, candidates, async (stable) => {
            asked.push(stable)
            return launch.stableToPaired(stable)
          })
          expect(plan).toEqual(planDevBuy(launch, candidates))
          // Each amount quoted once, and only the bisection's path (plus the first excluded order's check).
          expect(new Set(asked).size).toBe(asked.length)
          expect(quotes.size).toBe(asked.length)
          expect(asked.length).toBeLessThanOrEqual(Math.ceil(Math.log2(candidates.length + 1)) + 2)
        },
      ),
      { numRuns: 60 },
    )
  })
})
