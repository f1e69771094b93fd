import { describe, expect, it } from 'vitest'
import type { Address } from 'viem'
import type { OrderRecord } from '../../src/domain/records.ts'
import { limitAdmits, planTick, sizeSpend, type CandidateOrder } from '../../daemon/executor/plan-tick.ts'
import { largestSpendFirst, prioritiseOrders } from '../../daemon/executor/prioritise-orders.ts'

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

describe('prioritisation policy', () => {
  it('ranks larger spend first, then higher limit, no limit highest', () => {
    const ranked = prioritiseOrders(
      [
        { keyId: 'a', spendAtoms: 10n, limitAtoms: 5n, createdAt: 1 },
        { keyId: 'b', spendAtoms: 20n, limitAtoms: 1n, createdAt: 1 },
        { keyId: 'c', spendAtoms: 10n, limitAtoms: null, createdAt: 1 },
        { keyId: 'd', spendAtoms: 10n, limitAtoms: 9n, createdAt: 1 },
        { keyId: 'e', spendAtoms: 10n, limitAtoms: 9n, createdAt: 0 },
      ],
      largestSpendFirst,
    )
    expect(ranked.map((o) => o.keyId)).toEqual(['b', 'c', 'e', 'd', 'a'])
  })
})

describe('eligibility and sizing', () => {
  it('admits limit >= cap, null limit always, and only null limits when the cap is infinite', () => {
    expect(limitAdmits(400n, 400n)).toBe(true)
    expect(limitAdmits(399n, 400n)).toBe(false)
    expect(limitAdmits(null, 10n ** 30n)).toBe(true)
    expect(limitAdmits(10n ** 30n, null)).toBe(false)
    expect(limitAdmits(null, null)).toBe(true)
  })
  it('sizes spend as min(maxSpend, balance - reserved)', () => {
    expect(sizeSpend(100n, 1000n, 0n)).toBe(100n)
    expect(sizeSpend(100n, 60n, 0n)).toBe(60n)
    expect(sizeSpend(100n, 150n, 100n)).toBe(50n)
    expect(sizeSpend(100n, 100n, 150n)).toBe(0n)
  })
})

describe('planTick', () => {
  const base = { launchedAt: 1_000_000, now: 1_010_000, totalSupply: SUPPLY, reservedByWallet: new Map<string, bigint>(), policy: largestSpendFirst }

  it('gives every order a verdict and sizes, ranks and bounds the eligible ones', () => {
    const plan = planTick({
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

  it('attempts nothing while swaps are not allowed', () => {
    const plan = planTick({ ...base, tick: { effectiveCapAtoms: '1', swapsAllowed: false }, candidates: [candidate(order('a', '1', null), USDC)] })
    expect(plan.buys).toEqual([])
    expect(plan.decisions[0]!.verdict).toBe('swaps_not_allowed')
  })

  it('does not expire exactly at launchedAt + expiresInMs, only after', () => {
    const o = order('a', '1', null, { expiresInMs: 10_000 })
    expect(planTick({ ...base, now: 1_010_000, tick: { effectiveCapAtoms: '1', swapsAllowed: true }, candidates: [candidate(o, USDC)] }).expired).toEqual([])
    expect(planTick({ ...base, now: 1_010_001, tick: { effectiveCapAtoms: '1', swapsAllowed: true }, candidates: [candidate(o, USDC)] }).expired).toEqual([o])
  })
})
