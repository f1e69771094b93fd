import { describe, expect, it } from 'vitest'
import { parseDecimal } from '../../../src/domain/decimal.ts'
import { atomsNumber } from '../../../src/domain/execution/atoms-number.ts'
import type { ExecutableOrder } from '../../../src/domain/execution/executable-order.ts'
import {
  BookStorage,
  bookBalances,
  columnsOf,
  mergeOrderBook,
  prepareOrderBook,
  spendLimitPermutation,
  type InsertedOrders,
  type OrderBook,
} from '../../../src/domain/execution/order-book.ts'
import { TickWorkspace, planBookTick, reservedAfter } from '../../../src/domain/execution/columnar-planner.ts'
import { planTick } from '../../../src/domain/execution/reference-planner.ts'
import { priorityPermutation, prioritiseOrders, spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import { indexWallets } from '../../../src/domain/execution/wallet-index.ts'
import { seededRandom } from '../../support/seeded-random.ts'
import { asTickPlan, inBookOrder } from '../../support/book-plan.ts'

const rng = seededRandom

const USD = 1_000_000n
const BIG = 2n ** 60n

/** Few distinct values, so equal spends, equal limits, shared wallets and limits equal as doubles are all common. */
function randomOrders(random: () => number, size: number, prefix = 'o'): ExecutableOrder[] {
  const int = (max: number) => Math.floor(random() * max)
  const wallets = 1 + int(size)
  const spends = [1n, 5n * USD, 10n * USD, 10n * USD + 1n, 250n * USD, 10_000_000n * USD, 0n]
  const limits = [null, 1n, 400_000n * USD, 500_000n * USD, 500_000n * USD + 1n, 10n ** 21n, BIG - 1n, BIG, BIG + 1n]
  return Array.from({ length: size }, (_, i) => ({
    id: `${prefix}${i}`,
    wallet: `w${int(wallets)}`,
    status: random() < 0.8 ? 'active' : 'executing',
    maxSpend: spends[int(spends.length)]!,
    limitFdv: random() < 0.7 ? limits[int(3)]! : limits[int(limits.length)]!,
    expiresInMs: [1, 5_000, 10_000, 3_600_000][int(4)]!,
  }))
}

/** A random tick on `orders` planned from the book and by the reference planner, compared decision by decision. */
function expectSameTick(random: () => number, book: OrderBook, orders: readonly ExecutableOrder[], workspace?: TickWorkspace): number {
  const int = (max: number) => Math.floor(random() * max)
  const balances = new Map<string, bigint>()
  const choices = [0n, 1n, 7n * USD, 100n * USD, 20_000_000n * USD, 2n ** 53n, 2n ** 70n]
  for (const o of orders) if (random() < 0.8) balances.set(o.wallet, choices[int(choices.length)]!)
  const reserved = new Map<string, bigint>()
  for (const o of orders) if (random() < 0.2) reserved.set(o.wallet, [1n, 5n * USD, 100n * USD][int(3)]!)
  const caps = [null, 0n, 1n, 400_000n * USD, 500_000n * USD, 10n ** 21n, BIG - 1n, BIG, BIG + 1n]
  const ctx = {
    effectiveCap: caps[int(caps.length)]!,
    swapsAllowed: random() < 0.9,
    launchedAtMs: random() < 0.2 ? null : 1_000_000,
    nowMs: 1_000_000 + [0, 4_999, 5_000, 10_000][int(4)]!,
  }
  const reference = planTick({ ...ctx, prioritisedOrders: prioritiseOrders(orders), balances, reserved })
  const ordered = inBookOrder(book, orders)
  const fast = planBookTick({ ...ctx, book, balances: bookBalances(book, (w) => balances.get(w) ?? 0n), reserved, ...(workspace ? { workspace } : {}) })
  expect(asTickPlan(fast, ordered)).toEqual({ buys: reference.buys, expired: reference.expired, skipped: reference.skipped })
  expect(reservedAfter(book, fast, reserved)).toEqual(reference.reserved)
  return reference.buys.length
}

describe('atomsNumber (decimal strings straight to numbers)', () => {
  it('agrees with parseDecimal on well-formed, malformed and huge amounts', () => {
    const random = rng(1)
    const samples = ['0', '1', '00', '1.5', '0.000001', '0.0000001', '12.', '.5', '', '1e5', '-1', '+1', '1.2.3', '١', ' 1', '1 ']
    samples.push('9007199254.740991', '9007199254.740992', '9007199254', '9007199255', '10000000000000000', '123456789012345678901234')
    for (let i = 0; i < 2_000; i++) {
      const whole = String(Math.floor(random() * 10 ** Math.floor(random() * 12)))
      const fraction = random() < 0.5 ? '' : `.${String(Math.floor(random() * 10 ** 7)).slice(0, 1 + Math.floor(random() * 7))}`
      samples.push(whole + fraction)
    }
    for (const value of samples) {
      const exact = parseDecimal(value, 6)
      const fast = atomsNumber(value, 6)
      if (exact === undefined) expect(fast, value).toBeNaN()
      else if (exact > BigInt(Number.MAX_SAFE_INTEGER)) expect(fast, value).toBe(Number.POSITIVE_INFINITY)
      else expect(fast, value).toBe(Number(exact))
    }
  })
})

describe('indexWallets (bulk wallet index)', () => {
  it('groups equal wallets exactly like a Map, also when hashes collide', () => {
    const random = rng(2)
    // Same length and same last 12 characters: equal hashes, different wallets.
    const tail = 'abcdef012345'
    const pool = ['x', 'y', 'z', 'w1', 'w2', `0a${tail}`, `0b${tail}`, `0c${tail}`, '0xAbC', '0xabc', '']
    for (let round = 0; round < 50; round++) {
      const wallets = Array.from({ length: Math.floor(random() * 200) }, () => pool[Math.floor(random() * pool.length)]!)
      const { index, walletOf } = indexWallets(wallets)
      const reference = new Map<string, number>()
      for (const w of wallets) if (!reference.has(w)) reference.set(w, reference.size)
      expect(index.names).toEqual([...reference.keys()])
      expect(Array.from(walletOf)).toEqual(wallets.map((w) => reference.get(w)))
      for (const w of pool) expect(index.indexOf(w)).toBe(reference.get(w) ?? -1)
      // Wallets added later keep their index and are found.
      const added = index.intern('late-wallet')
      expect(added).toBe(reference.size)
      expect(index.intern('late-wallet')).toBe(added)
      expect(index.indexOf('late-wallet')).toBe(added)
      if (wallets.length > 0) expect(index.intern(wallets[0]!)).toBe(0)
    }
  })
})

describe('spendLimitPermutation (radix prioritisation on columns)', () => {
  it('equals the policy sort on random books with ties, no-limit orders and amounts beyond 2^53', () => {
    const random = rng(3)
    for (let round = 0; round < 300; round++) {
      const orders = randomOrders(random, Math.floor(random() * 80))
      if (random() < 0.2) orders.push({ ...orders[0]!, id: 'huge', maxSpend: 2n ** 60n + 3n } as ExecutableOrder)
      if (random() < 0.2) orders.push({ id: 'huge2', wallet: 'w', status: 'active', maxSpend: 2n ** 60n + 1n, limitFdv: null, expiresInMs: 1 })
      const permutation = spendLimitPermutation(columnsOf(orders))
      expect(Array.from(permutation)).toEqual(Array.from(priorityPermutation(orders, spendThenLimitPolicy)))
    }
  })
})

describe('planBookTick with a reused TickWorkspace', () => {
  it('gives the reference decisions tick after tick, books of any size', () => {
    const random = rng(4)
    const workspace = new TickWorkspace()
    let buys = 0
    for (let round = 0; round < 200; round++) {
      const orders = randomOrders(random, 1 + Math.floor(random() * (round % 3 === 0 ? 300 : 30)))
      buys += expectSameTick(random, prepareOrderBook(orders), orders, workspace)
    }
    expect(buys).toBeGreaterThan(500)
  })
})

describe('mergeOrderBook (incremental book)', () => {
  /** Old orders, which of them stay, and new ones (edited or new) interleaved at random places of the new list. */
  function scenario(random: () => number) {
    const old = randomOrders(random, Math.floor(random() * 60))
    const keep = old.map(() => random() < 0.8)
    const arrivals = randomOrders(random, Math.floor(random() * (random() < 0.3 ? 0 : 12)), 'n')
    // An edit: the same id with other terms arrives, the old version leaves.
    for (let i = 0; i < old.length; i++) {
      if (keep[i] && random() < 0.1) {
        keep[i] = false
        arrivals.push({ ...old[i]!, maxSpend: old[i]!.maxSpend + 1n, limitFdv: random() < 0.5 ? null : BIG + 1n })
      }
    }
    // The new list: survivors in their old relative order, arrivals anywhere.
    const next: ExecutableOrder[] = []
    const newIndexOfOld = new Int32Array(old.length).fill(-1)
    const arrivalIndex: number[] = []
    let a = 0
    for (let i = 0; i <= old.length; i++) {
      while (a < arrivals.length && random() < 0.3) {
        arrivalIndex.push(next.length)
        next.push(arrivals[a++]!)
      }
      if (i < old.length && keep[i]) {
        newIndexOfOld[i] = next.length
        next.push(old[i]!)
      }
    }
    while (a < arrivals.length) {
      arrivalIndex.push(next.length)
      next.push(arrivals[a++]!)
    }
    return { old, next, newIndexOfOld, arrivalIndex }
  }

  function merge(book: OrderBook, newIndexOfOld: Int32Array, next: readonly ExecutableOrder[], arrivalIndex: number[], storage?: BookStorage) {
    const newIndexOf = Int32Array.from(book.permutation, (i) => newIndexOfOld[i]!)
    // Arrival columns share the book's wallet index, as the executor builds them.
    const arrivals = arrivalIndex.map((i) => next[i]!)
    const parsed = columnsOf(arrivals)
    const walletOf = Uint32Array.from(arrivals, (o) => book.wallets.intern(o.wallet))
    const inserted: InsertedOrders = { ...parsed, walletOf, wallets: book.wallets, inputIndex: Uint32Array.from(arrivalIndex) }
    return mergeOrderBook(book, newIndexOf, inserted, storage)
  }

  it('equals preparing the new order list from scratch: same priority order, same decisions', () => {
    const random = rng(5)
    const storages = [new BookStorage(4), new BookStorage(200)]
    let merged = 0
    let buys = 0
    for (let round = 0; round < 400; round++) {
      const { old, next, newIndexOfOld, arrivalIndex } = scenario(random)
      const book = prepareOrderBook(old)
      const result = merge(book, newIndexOfOld, next, arrivalIndex, random() < 0.5 ? storages[round % 2] : undefined)
      if (!result) {
        // Only when an arriving limit beyond 2^53 meets a book that keeps no exact limits.
        expect(book.limitExact).toBeUndefined()
        continue
      }
      merged++
      const fresh = prepareOrderBook(next)
      expect(Array.from(result.book.permutation)).toEqual(Array.from(fresh.permutation))
      expect(result.book.size).toBe(next.length)
      expect(result.book.exact).toBe(fresh.exact)
      // Sources: old positions for survivors, arrivals otherwise.
      for (let q = 0; q < result.book.size; q++) {
        const from = result.source[q]!
        if (from >= 0) expect(newIndexOfOld[book.permutation[from]!]).toBe(result.book.permutation[q])
        else expect(arrivalIndex[-from - 1]).toBe(result.book.permutation[q])
      }
      buys += expectSameTick(random, result.book, next)
    }
    expect(merged).toBeGreaterThan(300)
    expect(buys).toBeGreaterThan(300)
  })

  it('an arrival that takes one wallet beyond 2^53 of spends makes the book inexact (reference planner); elsewhere it stays exact', () => {
    const max = 10_000_000n * USD
    const old: ExecutableOrder[] = Array.from({ length: 900 }, (_, i) => ({
      id: `o${i}`,
      wallet: 'w',
      status: 'active',
      maxSpend: max,
      limitFdv: null,
      expiresInMs: 60_000,
    }))
    const book = prepareOrderBook(old)
    expect(book.exact).toBe(true)
    const newIndexOfOld = Int32Array.from(old, (_, i) => i)
    for (const [wallet, exact] of [
      ['other', true],
      ['w', false],
    ] as const) {
      const next = [...old, { id: 'late', wallet, status: 'active', maxSpend: max, limitFdv: null, expiresInMs: 60_000 } as ExecutableOrder]
      const result = merge(book, newIndexOfOld, next, [old.length])!
      expect(result.book.exact).toBe(exact)
      expect(prepareOrderBook(next).exact).toBe(exact)
      expectSameTick(rng(9), result.book, next)
    }
  })

  it('removals alone keep any policy; arrivals need the spec policy', () => {
    const random = rng(6)
    const smallestFirst = {
      name: 'smallest-first',
      compare: (a: ExecutableOrder, b: ExecutableOrder) => (a.maxSpend < b.maxSpend ? -1 : a.maxSpend > b.maxSpend ? 1 : 0),
    }
    const orders = randomOrders(random, 40)
    const book = prepareOrderBook(orders, smallestFirst)
    const keep = orders.map((_, i) => i % 3 !== 0)
    const next = orders.filter((_, i) => keep[i])
    let j = 0
    const newIndexOfOld = Int32Array.from(keep, (k) => (k ? j++ : -1))
    const filtered = merge(book, newIndexOfOld, next, [])
    expect(filtered).toBeDefined()
    expect(Array.from(filtered!.book.permutation)).toEqual(Array.from(prepareOrderBook(next, smallestFirst).permutation))
    expect(merge(book, newIndexOfOld, [...next, orders[0]!], [next.length])).toBeUndefined()
  })
})
