import { describe, expect, it } from 'vitest'
import { checkEligibility, withinLimit, type EligibilityContext } from '../../../src/domain/execution/eligibility.ts'
import { toExecutableOrder, type ExecutableOrder } from '../../../src/domain/execution/executable-order.ts'
import { planTick } from '../../../src/domain/execution/reference-planner.ts'
import { splitPlatformFee } from '../../../src/domain/execution/platform-fee.ts'
import { prioritiseOrders, spendThenLimitPolicy, type PrioritisationPolicy } from '../../../src/domain/execution/prioritisation.ts'
import { sizeSpend } from '../../../src/domain/execution/size-spend.ts'
import type { OrderRecord } from '../../../src/domain/records.ts'

const USD = 1_000_000n

const order = (overrides: Partial<ExecutableOrder> & { id: string }): ExecutableOrder => ({
  wallet: 'w1',
  status: 'active',
  maxSpend: 100n * USD,
  limitFdv: 400_000n * USD,
  expiresInMs: 60_000,
  ...overrides,
})

const ctx: EligibilityContext = { effectiveCap: 400_000n * USD, swapsAllowed: true, launchedAtMs: 1_000, nowMs: 2_000 }

describe('eligibility', () => {
  it('spec example: 400k effective cap, limits of 400k and above are eligible', () => {
    expect(checkEligibility(order({ id: 'a', limitFdv: 400_000n * USD }), ctx, 1n)).toEqual({ eligible: true })
    expect(checkEligibility(order({ id: 'b', limitFdv: 500_000n * USD }), ctx, 1n)).toEqual({ eligible: true })
    expect(checkEligibility(order({ id: 'c', limitFdv: 399_999_999_999n }), ctx, 1n)).toEqual({
      eligible: false,
      reason: 'limit_below_cap',
    })
  })

  it('no limit is always within the limit, even with an infinite cap', () => {
    expect(checkEligibility(order({ id: 'a', limitFdv: null }), { ...ctx, effectiveCap: null }, 1n).eligible).toBe(true)
    expect(withinLimit(10n ** 30n, null)).toBe(false)
    expect(withinLimit(null, null)).toBe(true)
  })

  it.each([
    ['deleted', { status: 'deleted' as const }, ctx, 1n, 'in_flight'],
    ['filled', { status: 'filled' as const }, ctx, 1n, 'in_flight'],
    ['executing', { status: 'executing' as const }, ctx, 1n, 'in_flight'],
    ['expired', { expiresInMs: 1_000 }, ctx, 1n, 'expired'],
    ['pool refuses swaps', {}, { ...ctx, swapsAllowed: false }, 1n, 'swaps_not_allowed'],
    ['empty wallet', {}, ctx, 0n, 'no_balance'],
  ])('%s', (_name, overrides, context, balance, reason) => {
    expect(checkEligibility(order({ id: 'x', ...overrides }), context, balance)).toEqual({ eligible: false, reason })
  })

  it('one millisecond before the deadline is still valid', () => {
    expect(checkEligibility(order({ id: 'x', expiresInMs: 1_001 }), ctx, 1n).eligible).toBe(true)
  })
})

describe('sizeSpend', () => {
  it.each([
    ['full cap when the balance covers it', 100n, 500n, 0n, 100n],
    ['partial balance: spend what there is', 100n, 60n, 0n, 60n],
    ['minus what other in-flight orders reserved', 100n, 150n, 80n, 70n],
    ['fully reserved', 100n, 150n, 150n, 0n],
    ['over-reserved never goes negative', 100n, 150n, 200n, 0n],
    ['empty wallet', 100n, 0n, 0n, 0n],
  ])('%s', (_name, max, balance, reserved, expected) => {
    expect(sizeSpend(max, balance, reserved)).toBe(expected)
  })
})

describe('prioritisation', () => {
  it('larger spend first; equal spend: higher limit first, no limit highest; ties stable', () => {
    const orders = [
      order({ id: 'small', maxSpend: 10n }),
      order({ id: 'big-low', maxSpend: 50n, limitFdv: 100n }),
      order({ id: 'big-none-1', maxSpend: 50n, limitFdv: null }),
      order({ id: 'big-high', maxSpend: 50n, limitFdv: 900n }),
      order({ id: 'big-none-2', maxSpend: 50n, limitFdv: null }),
      order({ id: 'biggest', maxSpend: 51n, limitFdv: 1n }),
      order({ id: 'big-high-2', maxSpend: 50n, limitFdv: 900n }),
    ]
    expect(prioritiseOrders(orders).map((o) => o.id)).toEqual(['biggest', 'big-none-1', 'big-none-2', 'big-high', 'big-high-2', 'big-low', 'small'])
    expect(orders[0]?.id).toBe('small') // input untouched
  })

  it('the fast path agrees with the exact comparator, including limits beyond 2^53', () => {
    const huge = 10n ** 21n
    const orders = Array.from({ length: 2_000 }, (_, i) =>
      order({
        id: String(i),
        maxSpend: BigInt((i * 7919) % 17) * USD,
        limitFdv: i % 11 === 0 ? null : huge + BigInt((i * 104_729) % 5), // equal as doubles, different as bigints
      }),
    )
    const exactOnly: PrioritisationPolicy = { name: 'exact', compare: spendThenLimitPolicy.compare }
    expect(prioritiseOrders(orders).map((o) => o.id)).toEqual(prioritiseOrders(orders, exactOnly).map((o) => o.id))
  })

  it('a policy is swappable', () => {
    const smallestFirst: PrioritisationPolicy = {
      name: 'smallest-first',
      compare: (a, b) => (a.maxSpend < b.maxSpend ? -1 : a.maxSpend > b.maxSpend ? 1 : 0),
    }
    const orders = [order({ id: 'a', maxSpend: 5n }), order({ id: 'b', maxSpend: 1n })]
    expect(prioritiseOrders(orders, smallestFirst).map((o) => o.id)).toEqual(['b', 'a'])
  })
})

describe('planTick', () => {
  const base = { effectiveCap: 400_000n * USD, swapsAllowed: true, launchedAtMs: 1_000, nowMs: 2_000 }

  it('two orders of one wallet never together spend more than it holds; priority gets the funds first', () => {
    const orders = prioritiseOrders([order({ id: 'second', maxSpend: 60n * USD }), order({ id: 'first', maxSpend: 80n * USD })])
    const plan = planTick({ ...base, prioritisedOrders: orders, balances: new Map([['w1', 100n * USD]]) })
    expect(plan.buys.map((b) => [b.order.id, b.spend])).toEqual([
      ['first', 80n * USD],
      ['second', 20n * USD],
    ])
    expect(plan.reserved.get('w1')).toBe(100n * USD)
  })

  it('reservations from earlier ticks (another launch) count', () => {
    const plan = planTick({
      ...base,
      prioritisedOrders: [order({ id: 'a' })],
      balances: new Map([['w1', 100n * USD]]),
      reserved: new Map([['w1', 100n * USD]]),
    })
    expect(plan.buys).toEqual([])
    expect(plan.skipped).toEqual([{ order: expect.objectContaining({ id: 'a' }), reason: 'fully_reserved' }])
  })

  it('sorts out expired, above-limit and empty wallets', () => {
    const orders = prioritiseOrders([
      order({ id: 'ok', wallet: 'rich' }),
      order({ id: 'late', wallet: 'rich', expiresInMs: 500 }),
      order({ id: 'cheap', wallet: 'rich', limitFdv: 1n }),
      order({ id: 'broke', wallet: 'poor' }),
    ])
    const plan = planTick({ ...base, prioritisedOrders: orders, balances: new Map([['rich', 1_000n * USD]]) })
    expect(plan.buys.map((b) => b.order.id)).toEqual(['ok'])
    expect(plan.expired.map((o) => o.id)).toEqual(['late'])
    expect(plan.skipped.map((s) => [s.order.id, s.reason])).toEqual([
      ['broke', 'no_balance'],
      ['cheap', 'limit_below_cap'],
    ])
  })

  it('100,000 orders: priority order kept, no wallet overspent, every order accounted for', () => {
    const wallets = 20_000
    const orders = Array.from({ length: 100_000 }, (_, i) =>
      order({
        id: String(i),
        wallet: `w${i % wallets}`,
        maxSpend: BigInt(1 + ((i * 7919) % 1_000)) * USD,
        limitFdv: i % 10 === 0 ? null : BigInt(100_000 + ((i * 104_729) % 900_000)) * USD,
      }),
    )
    const balances = new Map<string, bigint>(Array.from({ length: wallets }, (_, i) => [`w${i}`, BigInt(i % 7) * 300n * USD]))
    const prioritised = prioritiseOrders(orders)
    let outOfOrder = 0
    for (let i = 1; i < prioritised.length; i++) {
      if (spendThenLimitPolicy.compare(prioritised[i - 1] as ExecutableOrder, prioritised[i] as ExecutableOrder) > 0) outOfOrder++
    }
    expect(outOfOrder).toBe(0)
    const plan = planTick({ ...base, effectiveCap: 500_000n * USD, prioritisedOrders: prioritised, balances })
    expect(plan.buys.length + plan.expired.length + plan.skipped.length).toBe(orders.length)
    expect(plan.buys.length).toBeGreaterThan(1_000)
    const spent = new Map<string, bigint>()
    let badBuys = 0
    for (const buy of plan.buys) {
      if (buy.spend <= 0n || buy.spend > buy.order.maxSpend || !withinLimit(buy.order.limitFdv, 500_000n * USD)) badBuys++
      spent.set(buy.order.wallet, (spent.get(buy.order.wallet) ?? 0n) + buy.spend)
    }
    expect(badBuys).toBe(0)
    const overspent = [...spent].filter(([wallet, total]) => total > (balances.get(wallet) ?? 0n))
    expect(overspent).toEqual([])
    const positions = new Map(prioritised.map((o, i) => [o.id, i]))
    const buyPositions = plan.buys.map((b) => positions.get(b.order.id) ?? -1)
    expect(buyPositions).toEqual([...buyPositions].sort((a, b) => a - b))
  })
})

describe('platform fee', () => {
  it.each([
    [100n, 3n, 97n],
    [33n, 0n, 33n],
    [34n, 1n, 33n],
    [0n, 0n, 0n],
    [10n ** 18n, 3n * 10n ** 16n, 97n * 10n ** 16n],
    [123_456_789_012_345_678_901n, 3_703_703_670_370_370_367n, 119_753_085_341_975_308_534n],
  ])('%s tokens -> fee %s, buyer %s', (received, fee, buyer) => {
    const split = splitPlatformFee(received)
    expect(split).toEqual({ fee, buyer })
    expect(split.fee + split.buyer).toBe(received)
  })

  it('refuses nonsense', () => {
    expect(() => splitPlatformFee(-1n)).toThrow(RangeError)
    expect(() => splitPlatformFee(1n, 10_001n)).toThrow(RangeError)
  })
})

describe('toExecutableOrder', () => {
  const record: OrderRecord = {
    keyId: 'k1',
    slug: 'proj',
    status: 'active',
    maxSpendUsdc: '12.5',
    maxFdvUsdc: '400000.000001',
    expiresInMs: 5_000,
    createdAt: 1,
    updatedAt: 1,
  }

  it('parses decimal strings into smallest units once', () => {
    expect(toExecutableOrder(record, '0xabc')).toEqual({
      id: 'k1:proj',
      wallet: '0xabc',
      status: 'active',
      maxSpend: 12_500_000n,
      limitFdv: 400_000_000_001n,
      expiresInMs: 5_000,
    })
    expect(toExecutableOrder({ ...record, maxFdvUsdc: null }, '0xabc').limitFdv).toBeNull()
  })

  it('refuses a malformed amount', () => {
    expect(() => toExecutableOrder({ ...record, maxSpendUsdc: '1e5' }, '0xabc')).toThrow(RangeError)
  })
})
