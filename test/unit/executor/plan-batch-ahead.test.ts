import fc from 'fast-check'
import { randomBatchBook } from '../../support/random-batch-book.ts'
import { describe, expect, it } from 'vitest'
import type { BatchPlannerContext } from '../../../daemon/executor/plan-batch.ts'
import { predictBatchBuys } from '../../../daemon/executor/predict-batch-total.ts'
import { batchEntryForm, prepareBatchEntryForms } from '../../../daemon/executor/batch-entry-forms.ts'
import { parseDecimal } from '../../../src/domain/decimal.ts'
import { planExecution } from '../../../src/domain/execution/executor-plan.ts'
import { spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import type { CandidateOrder } from '../../../src/domain/execution/prepared-book.ts'
import type { BuyToSubmit } from '../../../src/domain/execution/executor-plan.ts'
import { buysOf, candidateOf, countingPolicy, fixtureLaunch, fixtureTick, orderOf, plannerFixture } from './plan-batch-fixture.ts'

const maxOf = (c: CandidateOrder) => parseDecimal(c.order.maxSpendUsdc, 6)!
// 800 orders: more than one transaction's buyers (the fixture has no split operators), so some are left out for gas.
const N = 800
const book = (slug: string, limitOf: (i: number) => string | null = () => null) =>
  Array.from({ length: N }, (_, i) => candidateOf(orderOf(i, slug, limitOf(i)), i))
// Every fifth order spends less than its max (its wallet's balance).
const buys = (candidates: readonly CandidateOrder[]) => buysOf(candidates, (c) => (c.userIndex % 5 === 0 ? maxOf(c) / 2n : maxOf(c)))

/** A split with the walk ahead (over `predicted`) and one without, on fresh planners over the same orders. */
async function bothWays(candidates: readonly CandidateOrder[], actual: BuyToSubmit[], predicted: BuyToSubmit[], overrides: Partial<BatchPlannerContext> = {}) {
  const ahead = countingPolicy()
  const direct = countingPolicy()
  const a = plannerFixture({ policy: ahead.policy, ...overrides })
  const d = plannerFixture({ policy: direct.policy, ...overrides })
  prepareBatchEntryForms(candidates, a.idOf)
  await a.planner.clearAhead(fixtureTick, fixtureLaunch, Promise.resolve(), () => predicted)
  const keysAhead = ahead.counts.keys
  const withAhead = await a.planner.split(fixtureTick, fixtureLaunch, actual)
  const withoutAhead = await d.planner.split(fixtureTick, fixtureLaunch, actual)
  return { withAhead, withoutAhead, keysAhead, keysAtSplit: ahead.counts.keys - keysAhead, keysDirect: direct.counts.keys }
}

const stagesOf = () => {
  const stages: string[] = []
  return { stages, stage: (name: string) => stages.push(name) }
}

describe('the batch clearing walked while the quote is out (docs/execution.md §8, "The launch tick\'s CPU, ahead")', () => {
  it('runs no priority order and no walk at the split when the walk ahead was over the same inputs; same record, byte for byte', async () => {
    const candidates = book('ahead-same')
    const { stages, stage } = stagesOf()
    const r = await bothWays(candidates, buys(candidates), buys(candidates), { stage })
    expect(r.keysAhead).toBe(N)
    // The walk ran 0 times after the quote (without the walk ahead, the split computes every order's keys).
    expect(r.keysAtSplit).toBe(0)
    expect(r.keysDirect).toBe(N)
    expect(stages).toContain('executor.clearingAhead.used')
    const record = r.withAhead.batch!.record
    expect(record.excluded.some((e) => e.reason === 'gas_budget')).toBe(true)
    expect(record.clearing!.evaluations).toHaveLength(1)
    expect(JSON.stringify(record)).toBe(JSON.stringify(r.withoutAhead.batch!.record))
  })

  it('clears as always when the plan states other inputs: another spend, an order fewer, another order object', async () => {
    const candidates = book('ahead-differs')
    const predicted = buys(candidates)
    const cases: BuyToSubmit[][] = [
      predicted.map((b, i) => (i === 17 ? { ...b, spendAtoms: b.spendAtoms - 1n } : b)),
      predicted.slice(1),
      predicted.map((b, i) => (i === 3 ? { ...b, candidate: { ...b.candidate, order: { ...b.candidate.order } } } : b)),
    ]
    for (const actual of cases) {
      const { stages, stage } = stagesOf()
      const r = await bothWays(candidates, actual, predicted, { stage })
      expect(stages).toContain('executor.clearingAhead.differed')
      expect(r.keysAtSplit).toBe(actual.length)
      expect(JSON.stringify(r.withAhead.batch!.record)).toBe(JSON.stringify(r.withoutAhead.batch!.record))
    }
  })

  it('does not hold the split back for a walk still waiting for its forms: the split clears as always and the walk stops', async () => {
    const candidates = book('ahead-late')
    const counted = countingPolicy()
    const { stages, stage } = stagesOf()
    const { planner } = plannerFixture({ policy: counted.policy, stage })
    let formsReady!: () => void
    let predictions = 0
    const walk = planner.clearAhead(
      fixtureTick,
      fixtureLaunch,
      new Promise<void>((resolve) => {
        formsReady = resolve
      }),
      () => {
        predictions++
        return buys(candidates)
      },
    )
    const split = await planner.split(fixtureTick, fixtureLaunch, buys(candidates))
    expect(split.batch!.record.included.length).toBeGreaterThan(0)
    expect(stages).toContain('executor.clearingAhead.none')
    expect(counted.counts.keys).toBe(N)
    formsReady()
    await walk
    expect(predictions).toBe(0)
    expect(counted.counts.keys).toBe(N)
  })

  it('walks nothing ahead for a book whose walk meets a limit, and clears it as always', async () => {
    const candidates = book('ahead-limits', (i) => (i % 7 === 0 ? '900000' : null))
    const { stages, stage } = stagesOf()
    const r = await bothWays(candidates, buys(candidates), buys(candidates), { stage })
    expect(stages).toContain('executor.clearingAhead.none')
    expect(JSON.stringify(r.withAhead.batch!.record)).toBe(JSON.stringify(r.withoutAhead.batch!.record))
  })

  it('asks the quote the same one question, and falls back to the formula the same way when the quote fails', async () => {
    const candidates = book('ahead-quoted')
    const quoted = {
      quotes: { canQuote: () => true, tokensOut: async (_t: unknown, _l: unknown, usdcIn: bigint) => (usdcIn * 10n ** 27n) / (usdcIn + 10n ** 12n) },
    } as unknown as Partial<BatchPlannerContext>
    const q = await bothWays(candidates, buys(candidates), buys(candidates), quoted)
    expect(q.keysAtSplit).toBe(0)
    expect(q.withAhead.batch!.record.clearing!.pool).toBe('quote')
    expect(JSON.stringify(q.withAhead.batch!.record)).toBe(JSON.stringify(q.withoutAhead.batch!.record))
    const failing = {
      quotes: {
        canQuote: () => true,
        tokensOut: async () => {
          throw new Error('node down')
        },
      },
    } as unknown as Partial<BatchPlannerContext>
    const f = await bothWays(candidates, buys(candidates), buys(candidates), failing)
    expect(f.keysAtSplit).toBe(0)
    expect(f.withAhead.batch!.record.clearing!.pool).toBe('formula')
    expect(JSON.stringify(f.withAhead.batch!.record)).toBe(JSON.stringify(f.withoutAhead.batch!.record))
  })

  it('gives the record of the split without it for random books: limits, spends below the max or 0, the gas cut, a quote returning nothing', async () => {
    let slug = 0
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          ...randomBatchBook,
          perturb: fc.option(fc.nat(), { nil: undefined }),
        }),
        async (b) => {
          const s = `ahead-random-${slug++}`
          const candidates = b.orders.map((o, i) => candidateOf(orderOf(i * 13, s, b.withLimits && o.limited ? `${100_000 + i * 50_000}` : null), i))
          const predicted = buysOf(candidates, (c) => (maxOf(c) * BigInt(b.orders[c.userIndex]!.cut)) / 1000n)
          const actual =
            b.perturb === undefined ? predicted : predicted.map((x, i) => (i === b.perturb! % predicted.length ? { ...x, spendAtoms: x.spendAtoms + 1n } : x))
          const quotes =
            b.pool === 'formula'
              ? {}
              : {
                  quotes: {
                    canQuote: () => true,
                    tokensOut: async (_t: unknown, _l: unknown, usdcIn: bigint) => (b.pool === 'empty' ? 0n : usdcIn * 10n ** 15n),
                  },
                }
          const r = await bothWays(candidates, actual, predicted, {
            maxBuyersPerTransaction: b.maxBuyersPerTransaction,
            ...(quotes as Partial<BatchPlannerContext>),
          })
          expect(JSON.stringify(r.withAhead.batch?.record)).toBe(JSON.stringify(r.withoutAhead.batch?.record))
          if (!b.withLimits && b.perturb === undefined) expect(r.keysAtSplit).toBe(0)
        },
      ),
      { numRuns: 150 },
    )
  })
})

describe('the buys predicted for the walk ahead', () => {
  it("are the plan's buys, in its order and with its spends, for a book without limits (wallets with several orders, short balances, reservations, ties)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ wallet: fc.integer({ min: 0, max: 9 }), spend: fc.constantFrom('1', '2.5', '10', '7'), active: fc.boolean() }), { maxLength: 60 }),
        fc.array(fc.bigInt({ min: 0n, max: 40n * 10n ** 6n }), { minLength: 10, maxLength: 10 }),
        fc.array(fc.bigInt({ min: 0n, max: 10n * 10n ** 6n }), { minLength: 10, maxLength: 10 }),
        fc.integer({ min: 1, max: 70 }),
        (rows, balances, reservations, maxBuys) => {
          const wallet = (w: number) => `0x${(w + 1).toString(16).padStart(40, 'a')}`
          const candidates: CandidateOrder[] = rows.map((r, i) => ({
            order: { ...orderOf(i, 'predicted'), maxSpendUsdc: r.spend, status: r.active ? 'active' : 'executing' },
            userIndex: i,
            wallet: wallet(r.wallet) as `0x${string}`,
            balanceAtoms: balances[r.wallet]!,
          }))
          const reservedByWallet = new Map(reservations.map((r, w) => [wallet(w).toLowerCase(), r]))
          const plan = planExecution({
            tick: { effectiveCapAtoms: null, swapsAllowed: true },
            launchedAt: 0,
            now: 1_000,
            totalSupply: 10n ** 27n,
            candidates,
            reservedByWallet,
            policy: spendThenLimitPolicy,
            maxBuys,
          })
          const predicted = predictBatchBuys({
            candidates,
            executableOf: (c) => batchEntryForm(c.order, c.wallet, (o) => `0x${o.keyId}` as `0x${string}`).executable,
            reservedByWallet,
            policy: spendThenLimitPolicy,
            launchedAt: 0,
            now: 1_000,
            maxBuys,
          })
          expect(predicted.map((b) => [b.candidate, b.spendAtoms])).toEqual(plan.buys.map((b) => [b.candidate, b.spendAtoms]))
        },
      ),
      { numRuns: 300 },
    )
  })
})
