import { describe, expect, it } from 'vitest'
import type { ExecutableOrder } from '../../../src/domain/execution/executable-order.ts'
import { bookBalances, filterOrderBook, prepareOrderBook, toSafeNumber } from '../../../src/domain/execution/order-book.ts'
import { planBookTick, reservedAfter, spendAt, TickWorkspace } from '../../../src/domain/execution/columnar-planner.ts'
import { planTick } from '../../../src/domain/execution/reference-planner.ts'
import { prioritiseOrders, spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import type { OrderStatus } from '../../../src/domain/records.ts'
import { seededRandom } from '../../support/seeded-random.ts'
import { asTickPlan, inBookOrder } from '../../support/book-plan.ts'

const rng = seededRandom

const USD = 1_000_000n
const STATUSES: OrderStatus[] = ['active', 'active', 'active', 'active', 'executing', 'filled']

interface Scenario {
  orders: ExecutableOrder[]
  balances: Map<string, bigint>
  reserved: Map<string, bigint>
  effectiveCap: bigint | null
  swapsAllowed: boolean
  launchedAtMs: number | null
  nowMs: number
}

function scenario(random: () => number, size: number): Scenario {
  const int = (max: number) => Math.floor(random() * max)
  const walletCount = 1 + int(size)
  // Few distinct values so ties (equal spend, equal limit) and shared wallets are common.
  const spends = [1n, 5n * USD, 10n * USD, 10n * USD + 1n, 250n * USD, 10_000_000n * USD]
  const limits = [null, 1n, 400_000n * USD, 500_000n * USD, 500_000n * USD + 1n, 10n ** 21n, 2n ** 60n + 1n, 2n ** 60n]
  const orders: ExecutableOrder[] = []
  for (let i = 0; i < size; i++) {
    orders.push({
      id: `o${i}`,
      wallet: `w${int(walletCount)}`,
      status: STATUSES[int(STATUSES.length)]!,
      maxSpend: spends[int(spends.length)]!,
      limitFdv: limits[int(limits.length)]!,
      expiresInMs: [1, 5_000, 10_000, 3_600_000][int(4)]!,
    })
  }
  const balances = new Map<string, bigint>()
  const balanceChoices = [0n, 1n, 7n * USD, 100n * USD, 20_000_000n * USD, 2n ** 53n - 1n, 2n ** 53n, 2n ** 70n]
  for (let w = 0; w < walletCount; w++) if (random() < 0.9) balances.set(`w${w}`, balanceChoices[int(balanceChoices.length)]!)
  const reserved = new Map<string, bigint>()
  for (let w = 0; w < walletCount; w++) if (random() < 0.3) reserved.set(`w${w}`, [1n, 5n * USD, 100n * USD, 2n ** 70n - 3n][int(4)]!)
  reserved.set('not-in-book', 5n * USD)
  const caps = [null, 0n, 1n, 400_000n * USD, 500_000n * USD, 10n ** 21n, 2n ** 60n, 2n ** 61n]
  return {
    orders,
    balances,
    reserved,
    effectiveCap: caps[int(caps.length)]!,
    swapsAllowed: random() < 0.85,
    launchedAtMs: random() < 0.2 ? null : 1_000_000,
    nowMs: 1_000_000 + [0, 4_999, 5_000, 9_999, 10_000][int(5)]!,
  }
}

describe('planBookTick (prepared book, numbers) agrees with planTick (bigint reference)', () => {
  it('on 400 random books with a fixed seed: same buys, spends, expiries, skip reasons and reservations', () => {
    const random = rng(20261122)
    let buys = 0
    for (let round = 0; round < 400; round++) {
      const s = scenario(random, 1 + Math.floor(random() * 60))
      const book = prepareOrderBook(s.orders, spendThenLimitPolicy)
      const ctx = { effectiveCap: s.effectiveCap, swapsAllowed: s.swapsAllowed, launchedAtMs: s.launchedAtMs, nowMs: s.nowMs }
      const reference = planTick({ ...ctx, prioritisedOrders: prioritiseOrders(s.orders, spendThenLimitPolicy), balances: s.balances, reserved: s.reserved })
      const fast = planBookTick({ ...ctx, book, balances: bookBalances(book, (w) => s.balances.get(w) ?? 0n), reserved: s.reserved })
      const ordered = inBookOrder(book, s.orders)
      expect(ordered).toEqual(prioritiseOrders(s.orders, spendThenLimitPolicy))
      expect(asTickPlan(fast, ordered)).toEqual({ buys: reference.buys, expired: reference.expired, skipped: reference.skipped })
      expect(reservedAfter(book, fast, s.reserved)).toEqual(reference.reserved)
      buys += reference.buys.length
    }
    // The generator must actually exercise buying, not only skips.
    expect(buys).toBeGreaterThan(1_000)
  })

  it('takes the exact number path for API-bounded books and the reference path beyond 2^53', () => {
    const order = (id: string, wallet: string, maxSpend: bigint): ExecutableOrder => ({
      id,
      wallet,
      status: 'active',
      maxSpend,
      limitFdv: null,
      expiresInMs: 60_000,
    })
    const ctx = { effectiveCap: 1n, swapsAllowed: true, launchedAtMs: 0, nowMs: 1 }
    expect(prepareOrderBook([order('a', 'w', 10_000_000n * USD)]).exact).toBe(true)
    // One wallet's orders together above 2^53: not exact as numbers.
    const many = Array.from({ length: 1_000 }, (_, i) => order(`o${i}`, 'w', 10_000_000n * USD))
    const huge = prepareOrderBook(many)
    expect(huge.exact).toBe(false)
    const balance = 2n ** 80n
    const plan = planBookTick({ ...ctx, book: huge, balances: bookBalances(huge, () => balance) })
    expect(plan.buys.length).toBe(1_000)
    expect(spendAt(plan, plan.buys[0]!)).toBe(10_000_000n * USD)
    // A single spend above 2^53 keeps its exact value through the reference path.
    const odd = prepareOrderBook([order('x', 'w', 2n ** 60n + 1n)])
    expect(odd.exact).toBe(false)
    const oddPlan = planBookTick({ ...ctx, book: odd, balances: bookBalances(odd, () => balance) })
    expect(spendAt(oddPlan, 0)).toBe(2n ** 60n + 1n)
  })

  it('filtering a book equals preparing the remaining orders (same priority, same decisions)', () => {
    const random = rng(99)
    for (let round = 0; round < 100; round++) {
      const s = scenario(random, 1 + Math.floor(random() * 40))
      const full = prepareOrderBook(s.orders)
      const gone = new Set(s.orders.filter(() => random() < 0.3))
      const fullOrdered = inBookOrder(full, s.orders)
      const { book, kept } = filterOrderBook(full, (p) => !gone.has(fullOrdered[p]!))
      const remaining = s.orders.filter((o) => !gone.has(o))
      const rest = prepareOrderBook(remaining)
      const restOrdered = inBookOrder(rest, remaining)
      // The filtered book keeps the full book's input indices.
      expect(inBookOrder(book, s.orders)).toEqual(restOrdered)
      expect(Array.from(kept, (p) => fullOrdered[p])).toEqual(restOrdered)
      const ctx = { effectiveCap: s.effectiveCap, swapsAllowed: s.swapsAllowed, launchedAtMs: s.launchedAtMs, nowMs: s.nowMs, reserved: s.reserved }
      const a = planBookTick({ ...ctx, book, balances: bookBalances(book, (w) => s.balances.get(w) ?? 0n) })
      const b = planBookTick({ ...ctx, book: rest, balances: bookBalances(rest, (w) => s.balances.get(w) ?? 0n) })
      expect(asTickPlan(a, inBookOrder(book, s.orders))).toEqual(asTickPlan(b, restOrdered))
    }
  })

  it('compares limits beyond 2^53 with the cap exactly (equal doubles, different bigints)', () => {
    const big = 2n ** 60n
    const orders: ExecutableOrder[] = [big - 1n, big, big + 1n, null].map((limitFdv, i) => ({
      id: `o${i}`,
      wallet: `w${i}`,
      status: 'active',
      maxSpend: USD,
      limitFdv,
      expiresInMs: 60_000,
    }))
    expect(Number(big - 1n)).toBe(Number(big + 1n))
    const book = prepareOrderBook(orders)
    const balances = bookBalances(book, () => 10n * USD)
    for (const effectiveCap of [big - 2n, big - 1n, big, big + 1n, big + 2n, null]) {
      const ctx = { effectiveCap, swapsAllowed: true, launchedAtMs: 0, nowMs: 1 }
      const fast = asTickPlan(planBookTick({ ...ctx, book, balances }), inBookOrder(book, orders))
      const reference = planTick({ ...ctx, prioritisedOrders: prioritiseOrders(orders), balances: new Map(orders.map((o) => [o.wallet, 10n * USD])) })
      expect(fast).toEqual({ buys: reference.buys, expired: reference.expired, skipped: reference.skipped })
    }
  })

  it('converts balances to safe numbers: non-positive to 0, above 2^53 - 1 clamped', () => {
    expect(toSafeNumber(-5n)).toBe(0)
    expect(toSafeNumber(0n)).toBe(0)
    expect(toSafeNumber(123_456_789n)).toBe(123_456_789)
    expect(toSafeNumber(2n ** 53n - 2n)).toBe(2 ** 53 - 2)
    expect(toSafeNumber(2n ** 53n + 10n)).toBe(Number.MAX_SAFE_INTEGER)
  })

  it('100,000 orders: a second tick over the same prepared book decides exactly as the first (no state left in the workspace)', () => {
    // How fast a tick is lives in the benchmark (npm run bench: ~1-3 ms for this book); a timed assertion here would
    // only measure the machine's load.
    const orders: ExecutableOrder[] = Array.from({ length: 100_000 }, (_, i) => ({
      id: `o${i}`,
      wallet: `w${i}`,
      status: 'active',
      maxSpend: BigInt(1 + (i % 500)) * USD,
      limitFdv: i % 7 === 0 ? null : BigInt(100_000 + ((i * 37) % 900_000)) * USD,
      expiresInMs: 3_600_000,
    }))
    const book = prepareOrderBook(orders)
    const balances = bookBalances(book, (_w, i) => BigInt(i % 10) * 100n * USD)
    const ctx = { effectiveCap: 500_000n * USD, swapsAllowed: true, launchedAtMs: 0, nowMs: 1_000 }
    const workspace = new TickWorkspace()
    const first = planBookTick({ ...ctx, book, balances, workspace })
    const firstVerdicts = Uint8Array.from(first.verdict)
    const firstBuys = Array.from(first.buys, (p) => [p, spendAt(first, p)])
    const second = planBookTick({ ...ctx, book, balances, workspace })
    expect(second.verdict).toEqual(firstVerdicts)
    expect(Array.from(second.buys, (p) => [p, spendAt(second, p)])).toEqual(firstBuys)
    expect(second.verdict.length).toBe(100_000)
    expect(firstBuys.length).toBeGreaterThan(0)
  })
})
