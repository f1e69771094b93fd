import { describe, expect, it } from 'vitest'
import type { Address } from 'viem'
import type { OrderRecord } from '../../src/domain/records.ts'
import { planExecution, type CandidateOrder } from '../../daemon/executor/plan-tick.ts'
import { spendThenLimitPolicy } from '../../src/domain/execution/prioritisation.ts'

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
    expect(planExecution({ ...base, now: 1_009_999, tick: { effectiveCapAtoms: '1', swapsAllowed: true }, candidates: [candidate(o, USDC)] }).expired).toEqual([])
    expect(planExecution({ ...base, now: 1_010_000, tick: { effectiveCapAtoms: '1', swapsAllowed: true }, candidates: [candidate(o, USDC)] }).expired).toEqual([o])
  })
})
