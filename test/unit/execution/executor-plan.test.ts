import { describe, expect, it } from 'vitest'
import type { Address } from 'viem'
import type { OrderRecord } from '../../../src/domain/records.ts'
import { createBookCache } from '../../../src/domain/execution/book-cache.ts'
import { planExecution, type PlanInput } from '../../../src/domain/execution/executor-plan.ts'
import type { CandidateOrder } from '../../../src/domain/execution/prepared-book.ts'
import { spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import { seededRandom } from '../../support/seeded-random.ts'

const order = (keyId: string, maxSpendUsdc: string, maxFdvUsdc: string | null, extra: Partial<OrderRecord> = {}): OrderRecord => ({
  keyId,
  slug: 'proj',
  status: 'active',
  maxSpendUsdc,
  maxFdvUsdc,
  expiresInMs: 60_000,
  createdAt: 1,
  updatedAt: 1,
  ...extra,
})
const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const candidate = (o: OrderRecord, balance: bigint, w = 1): CandidateOrder => ({ order: o, userIndex: w, wallet: wallet(w), balanceAtoms: balance })
const USDC = 1_000_000n
const SUPPLY = 100_000_000_000n * 10n ** 18n

describe('planExecution (domain policy + min-out + journal verdicts)', () => {
  const base = { launchedAt: 1_000_000, now: 1_010_000, totalSupply: SUPPLY, reservedByWallet: new Map<string, bigint>(), policy: spendThenLimitPolicy }

  it('gives every order a verdict and sizes, ranks and bounds the eligible ones', () => {
    const plan = planExecution({
      ...base,
      tick: { effectiveCapAtoms: (400_000n * USDC).toString(), swapsAllowed: true },
      candidates: [
        candidate(order('low-limit', '100', '399999.999999'), 1000n * USDC, 1),
        candidate(order('partial', '100', '400000'), 40n * USDC, 2),
        candidate(order('empty', '100', null), 0n, 3),
        candidate(order('nolimit', '100', null), 500n * USDC, 4),
        candidate(order('expired', '100', null, { expiresInMs: 9_999 }), 500n * USDC, 5),
        candidate(order('reserved', '100', null), 100n * USDC, 6),
      ],
      reservedByWallet: new Map([[wallet(6).toLowerCase(), 100n * USDC]]),
    })
    const verdict = Object.fromEntries(plan.decisions.map((d) => [d.keyId, d.verdict]))
    expect(verdict).toEqual({
      'low-limit': 'limit_below_cap',
      partial: 'submitted',
      empty: 'no_balance',
      nolimit: 'submitted',
      expired: 'expired',
      reserved: 'fully_reserved',
    })
    expect(plan.expired.map((o) => o.keyId)).toEqual(['expired'])
    expect(plan.buys.map((b) => [b.candidate.order.keyId, b.spendAtoms, b.rank])).toEqual([
      ['nolimit', 100n * USDC, 0],
      ['partial', 40n * USDC, 1],
    ])
    // 40 USDC at a 400k FDV limit on 100B tokens: at least 10M tokens.
    expect(plan.buys[1]!.minTokensOut).toBe(10_000_000n * 10n ** 18n)
    expect(plan.buys[0]!.minTokensOut).toBe(0n)
  })

  it('submits at most maxBuys per tick, the rest deferred in priority order', () => {
    const plan = planExecution({
      ...base,
      maxBuys: 1,
      tick: { effectiveCapAtoms: '1', swapsAllowed: true },
      candidates: [candidate(order('small', '10', null), 100n * USDC, 1), candidate(order('big', '50', null), 100n * USDC, 2)],
    })
    expect(plan.buys.map((b) => b.candidate.order.keyId)).toEqual(['big'])
    expect(plan.decisions.find((d) => d.keyId === 'small')).toMatchObject({ verdict: 'deferred', rank: 1 })
  })

  it('attempts nothing while swaps are not allowed', () => {
    const plan = planExecution({ ...base, tick: { effectiveCapAtoms: '1', swapsAllowed: false }, candidates: [candidate(order('a', '1', null), USDC)] })
    expect(plan.buys).toEqual([])
    expect(plan.decisions[0]!.verdict).toBe('swaps_not_allowed')
  })

  it('expires from launchedAt + expiresInMs on, not before', () => {
    const o = order('a', '1', null, { expiresInMs: 10_000 })
    expect(planExecution({ ...base, now: 1_009_999, tick: { effectiveCapAtoms: '1', swapsAllowed: true }, candidates: [candidate(o, USDC)] }).expired).toEqual(
      [],
    )
    expect(planExecution({ ...base, now: 1_010_000, tick: { effectiveCapAtoms: '1', swapsAllowed: true }, candidates: [candidate(o, USDC)] }).expired).toEqual([
      o,
    ])
  })
})

describe('createBookCache (prepared books kept between ticks)', () => {
  const input = (candidates: CandidateOrder[], extra: Partial<PlanInput> = {}): PlanInput => ({
    tick: { effectiveCapAtoms: (400_000n * USDC).toString(), swapsAllowed: true },
    launchedAt: 1_000_000,
    now: 1_010_000,
    totalSupply: SUPPLY,
    reservedByWallet: new Map(),
    policy: spendThenLimitPolicy,
    candidates,
    ...extra,
  })
  // What a reload from the store yields: fresh objects with the same content.
  const reload = (candidates: CandidateOrder[]): CandidateOrder[] => candidates.map((c) => ({ ...c, order: { ...c.order } }))
  const book = (): CandidateOrder[] => [
    candidate(order('a', '10', null), 100n * USDC, 1),
    candidate(order('b', '20', '500000'), 100n * USDC, 2),
    candidate(order('c', '30', '300000'), 100n * USDC, 3),
    candidate(order('d', '40', null), 15n * USDC, 4),
  ]
  const summary = (plan: ReturnType<typeof planExecution>) => ({
    decisions: plan.decisions,
    expired: plan.expired,
    buys: plan.buys.map((b) => ({ ...b, candidate: b.candidate.order.keyId })),
  })

  it('reuses the book for an unchanged reload, with the fresh candidates and balances', () => {
    const cache = createBookCache()
    const first = book()
    cache.plan('proj', input(first))
    expect(cache.lastUse('proj')).toBe('rebuilt')
    const second = reload(first)
    second[3] = { ...second[3]!, balanceAtoms: 40n * USDC }
    const plan = cache.plan('proj', input(second))
    expect(cache.lastUse('proj')).toBe('reused')
    expect(summary(plan)).toEqual(summary(planExecution(input(second))))
    expect(plan.buys[0]!.candidate).toBe(second[3])
    expect(plan.buys[0]!.spendAtoms).toBe(40n * USDC)
  })

  it('drops bought or cancelled orders without re-sorting, and picks up a PATCH edit (even with an unchanged updatedAt)', () => {
    const cache = createBookCache()
    const first = book()
    cache.plan('proj', input(first))
    const fewer = reload(first).filter((c) => c.order.keyId !== 'b')
    expect(summary(cache.plan('proj', input(fewer)))).toEqual(summary(planExecution(input(fewer))))
    expect(cache.lastUse('proj')).toBe('filtered')

    const edited = reload(fewer)
    edited[0] = { ...edited[0]!, order: { ...edited[0]!.order, maxSpendUsdc: '90' } }
    const plan = cache.plan('proj', input(edited))
    // The edited order is parsed again and merged into the book, not the whole book re-sorted.
    expect(cache.lastUse('proj')).toBe('incremental')
    expect(plan.buys.map((b) => b.candidate.order.keyId)).toEqual(['a', 'd'])
    expect(summary(plan)).toEqual(summary(planExecution(input(edited))))

    const added = [...reload(edited), candidate(order('e', '50', null), 100n * USDC, 5)]
    expect(summary(cache.plan('proj', input(added)))).toEqual(summary(planExecution(input(added))))
    expect(cache.lastUse('proj')).toBe('incremental')
    // Another policy: rebuilt.
    const otherPolicy = { ...spendThenLimitPolicy, name: 'other' }
    expect(summary(cache.plan('proj', input(added, { policy: otherPolicy })))).toEqual(summary(planExecution(input(added, { policy: otherPolicy }))))
    expect(cache.lastUse('proj')).toBe('rebuilt')
  })

  it('agrees with a fresh plan through a seeded random sequence of reloads, edits, removals, additions and balance moves', () => {
    const random = seededRandom(7)
    const int = (max: number) => Math.floor(random() * max)
    let next = 0
    const fresh = (): CandidateOrder =>
      candidate(
        order(`k${String(next++).padStart(4, '0')}`, String(1 + int(5) * 10), [null, '300000', '400000', '500000'][int(4)]!, {
          expiresInMs: [5_000, 60_000][int(2)]!,
        }),
        BigInt(int(4) * 20) * USDC,
        1 + int(12),
      )
    let candidates = Array.from({ length: 40 }, fresh)
    const cache = createBookCache()
    const uses = new Set<string>()
    for (let step = 0; step < 300; step++) {
      candidates = reload(candidates)
      const action = int(5)
      if (action === 0) candidates = candidates.filter(() => random() < 0.9)
      if (action === 1 && candidates.length > 0) {
        const i = int(candidates.length)
        candidates[i] = { ...candidates[i]!, order: { ...candidates[i]!.order, maxSpendUsdc: String(1 + int(60)), updatedAt: step } }
      }
      if (action === 2) candidates.push(fresh())
      if (action === 3) candidates = candidates.map((c) => ({ ...c, balanceAtoms: BigInt(int(4) * 20) * USDC }))
      const extra: Partial<PlanInput> = {
        now: 1_000_000 + int(70_000),
        tick: { effectiveCapAtoms: random() < 0.1 ? null : (BigInt(250_000 + int(300_000)) * USDC).toString(), swapsAllowed: random() < 0.9 },
        reservedByWallet: new Map([[wallet(1 + int(12)).toLowerCase(), BigInt(int(40)) * USDC]]),
        maxBuys: 1 + int(10),
      }
      expect(summary(cache.plan('proj', input(candidates, extra)))).toEqual(summary(planExecution(input(candidates, extra))))
      uses.add(cache.lastUse('proj')!)
    }
    expect([...uses].sort()).toEqual(['filtered', 'incremental', 'rebuilt', 'reused'])
  })
})
