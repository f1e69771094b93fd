import fc from 'fast-check'
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { createBookCache } from '../../../src/domain/execution/book-cache.ts'
import { planExecution, type ExecutionPlan, type PlanInput } from '../../../src/domain/execution/executor-plan.ts'
import type { CandidateOrder } from '../../../src/domain/execution/prepared-book.ts'
import { spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import { moveRows, spliceRows } from '../../../src/domain/execution/splice-rows.ts'

const USDC = 1_000_000n
const WALLETS = 12
const wallet = (n: number) => `0x${(n + 1).toString(16).padStart(40, 'b')}` as Address

describe('spliceRows + moveRows: an in-place splice equals the naive one', () => {
  it('for random removals and arrivals', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (size, removedSeeds, arrivalSeeds) => {
          const removed = [...new Set(size === 0 ? [] : removedSeeds.map((r) => r % size))].sort((a, b) => a - b)
          const before = arrivalSeeds.map((a) => a % (size + 1)).sort((a, b) => a - b)
          // The naive splice: rows as labels, arrivals as negative labels.
          const expected: number[] = []
          let a = 0
          for (let p = 0; p <= size; p++) {
            while (a < before.length && before[a] === p) expected.push(-++a)
            if (p < size && !removed.includes(p)) expected.push(p)
          }
          const splice = spliceRows(size, removed, before)
          expect(splice.size).toBe(expected.length)
          const room = size + before.length
          const rows = Float64Array.from({ length: room }, (_, p) => (p < size ? p : -999))
          const bytes = Uint8Array.from({ length: room }, (_, p) => (p < size ? p : 255))
          moveRows([rows, bytes], splice)
          splice.arrivalAt.forEach((q, x) => {
            rows[q] = -(x + 1)
            bytes[q] = 200 + x
          })
          expect(Array.from(rows.subarray(0, splice.size))).toEqual(expected)
          expect(Array.from(bytes.subarray(0, splice.size))).toEqual(expected.map((v) => (v < 0 ? 200 - v - 1 : v)))
        },
      ),
      { numRuns: 500 },
    )
  })
})

type Step =
  | { kind: 'place'; key: number; wallet: number; spend: number; fdv: number | null; expires: boolean }
  | { kind: 'patch'; at: number; spend: number; fdv: number | null }
  | { kind: 'cancel'; at: number }
  | { kind: 'buys'; every: number }
  | { kind: 'balance'; wallet: number; atoms: number }
  | { kind: 'reload' }

// Few distinct amounts: equal terms (ties broken by load order) are the rule, not the exception.
const spendOf = fc.integer({ min: 1, max: 8 })
const fdvOf = fc.option(fc.constantFrom(1_000, 5_000, 20_000, 1_000_000), { nil: null })
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      key: fc.nat(),
      wallet: fc.nat(WALLETS - 1),
      spend: spendOf,
      fdv: fdvOf,
      expires: fc.boolean(),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('patch' as const), at: fc.nat(), spend: spendOf, fdv: fdvOf }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('buys' as const), every: fc.integer({ min: 2, max: 9 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('balance' as const), wallet: fc.nat(WALLETS - 1), atoms: fc.integer({ min: 0, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reload' as const) }) },
)

const summary = (plan: ExecutionPlan) => ({
  decisions: plan.decisions.map((d) => ({ ...d })),
  expired: plan.expired.map((o) => o.keyId),
  buys: plan.buys.map((b) => ({ ...b, candidate: b.candidate.order.keyId })),
  priority: plan.candidatesInPriority().map((c) => c.order.keyId),
})

describe('createBookCache: a book patched in place equals a rebuild', () => {
  it('for random sequences of placements, PATCHes, cancellations, buys, balance moves and reloads', () => {
    let patchedInPlace = 0
    let ticks = 0
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 120 }), fc.array(step, { minLength: 1, maxLength: 40 }), (initial, steps) => {
        const balances = Array.from({ length: WALLETS }, (_, w) => BigInt(w % 4) * 4n * USDC)
        let updatedAt = 0
        const candidate = (keyId: string, w: number, spend: number, fdv: number | null, expiresInMs: number): CandidateOrder => ({
          order: {
            keyId,
            slug: 'proj',
            status: 'active',
            maxSpendUsdc: String(spend),
            maxFdvUsdc: fdv === null ? null : String(fdv),
            expiresInMs,
            createdAt: 0,
            updatedAt: ++updatedAt,
          },
          userIndex: w,
          wallet: wallet(w),
          balanceAtoms: balances[w]!,
        })
        // The loader's order: by keyId.
        let book: CandidateOrder[] = Array.from({ length: initial }, (_, i) =>
          candidate(`key_${String(i * 1_000).padStart(9, '0')}`, i % WALLETS, 1 + (i % 5), i % 3 === 0 ? null : 5_000, 3_600_000),
        )
        const input = (candidates: CandidateOrder[]): PlanInput => ({
          tick: { effectiveCapAtoms: (4_000n * USDC).toString(), swapsAllowed: true },
          launchedAt: 0,
          now: 10_000,
          totalSupply: 10n ** 27n,
          candidates,
          reservedByWallet: new Map([[wallet(1).toLowerCase(), 2n * USDC]]),
          policy: spendThenLimitPolicy,
          maxBuys: 7,
        })
        const cache = createBookCache()
        const check = () => {
          expect(summary(cache.plan('proj', input(book)))).toEqual(summary(planExecution(input(book))))
          ticks++
          if (cache.lastPatchedInPlace('proj')) patchedInPlace++
        }
        check()
        for (const s of steps) {
          if (s.kind === 'place') {
            const keyId = `key_${String(s.key % 1_000_000_000).padStart(9, '0')}`
            if (book.some((c) => c.order.keyId === keyId)) continue
            const at = book.findIndex((c) => c.order.keyId > keyId)
            book = [...book]
            book.splice(at < 0 ? book.length : at, 0, candidate(keyId, s.wallet, s.spend, s.fdv, s.expires ? 5_000 : 3_600_000))
          } else if (s.kind === 'patch' && book.length > 0) {
            const i = s.at % book.length
            const was = book[i]!
            book = [...book]
            book[i] = {
              ...was,
              order: { ...was.order, maxSpendUsdc: String(s.spend), maxFdvUsdc: s.fdv === null ? null : String(s.fdv), updatedAt: ++updatedAt },
            }
          } else if (s.kind === 'cancel' && book.length > 0) {
            const i = s.at % book.length
            book = book.filter((_, j) => j !== i)
          } else if (s.kind === 'buys') {
            book = book.filter((_, j) => j % s.every !== 0)
          } else if (s.kind === 'balance') {
            balances[s.wallet] = BigInt(s.atoms) * USDC
            book = book.map((c) => (c.userIndex === s.wallet ? { ...c, balanceAtoms: balances[s.wallet]! } : c))
          } else if (s.kind === 'reload') {
            book = book.map((c) => ({ ...c, order: { ...c.order } }))
          }
          check()
        }
      }),
      { numRuns: 300 },
    )
    // The property is about the in-place path: most edits must have taken it.
    expect(patchedInPlace).toBeGreaterThan(ticks / 4)
  })

  it('a large book: a PATCH moves an order far up and far down the ranks in place, equal to a rebuild', () => {
    const n = 5_000
    let book: CandidateOrder[] = Array.from({ length: n }, (_, i) => ({
      order: {
        keyId: `key_${String(i).padStart(6, '0')}`,
        slug: 'proj',
        status: 'active',
        maxSpendUsdc: String(1 + (i % 50)),
        maxFdvUsdc: i % 4 === 0 ? null : String(10_000 + (i % 13) * 1_000),
        expiresInMs: 3_600_000,
        createdAt: i,
        updatedAt: i,
      },
      userIndex: i % 700,
      wallet: wallet(i % 700),
      balanceAtoms: BigInt(i % 9) * USDC,
    }))
    const input = (candidates: CandidateOrder[]): PlanInput => ({
      tick: { effectiveCapAtoms: (15_000n * USDC).toString(), swapsAllowed: true },
      launchedAt: 0,
      now: 1_000,
      totalSupply: 10n ** 27n,
      candidates,
      reservedByWallet: new Map(),
      policy: spendThenLimitPolicy,
    })
    const cache = createBookCache()
    cache.plan('proj', input(book))
    // The first merge moves the book into rows of its own; every later edit patches them.
    book = book.filter((_, i) => i !== 10)
    cache.plan('proj', input(book))
    const edits: Array<[number, string, string | null]> = [
      [4_000, '1000', null],
      [4_000, '0.5', '1000'],
      [17, '25', '12000'],
      [2_500, '50', '22000'],
    ]
    for (const [at, spend, fdv] of edits) {
      const was = book[at]!
      book = [...book]
      book[at] = { ...was, order: { ...was.order, maxSpendUsdc: spend, maxFdvUsdc: fdv, updatedAt: was.order.updatedAt + 1 } }
      expect(summary(cache.plan('proj', input(book)))).toEqual(summary(planExecution(input(book))))
      expect(cache.lastUse('proj')).toBe('incremental')
      expect(cache.lastPatchedInPlace('proj')).toBe(true)
    }
  })

  it('one long run of equal terms: hundreds of placements and cancellations at once land in candidate order', () => {
    const order = (i: number, spend = '100'): CandidateOrder => ({
      order: {
        keyId: `key_${String(i).padStart(7, '0')}`,
        slug: 'proj',
        status: 'active',
        maxSpendUsdc: spend,
        maxFdvUsdc: null,
        expiresInMs: 3_600_000,
        createdAt: i,
        updatedAt: i,
      },
      userIndex: i % 300,
      wallet: wallet(i % 300),
      balanceAtoms: BigInt(i % 5) * 100n * USDC,
    })
    // Everyone asks the same: ties broken by load order only, one run of 3,000 equal rows.
    let book = Array.from({ length: 3_000 }, (_, i) => order(i * 10))
    const input = (candidates: CandidateOrder[]): PlanInput => ({
      tick: { effectiveCapAtoms: null, swapsAllowed: true },
      launchedAt: 0,
      now: 1_000,
      totalSupply: 10n ** 27n,
      candidates,
      reservedByWallet: new Map(),
      policy: spendThenLimitPolicy,
      maxBuys: 50,
    })
    const cache = createBookCache()
    cache.plan('proj', input(book))
    book = book.slice(1)
    cache.plan('proj', input(book))
    for (let round = 1; round <= 3; round++) {
      // 400 placements between existing keys (one with another spend), 300 cancellations spread over the list.
      const placed = Array.from({ length: 400 }, (_, j) => order(j * 70 + round, j === 17 ? '250' : '100'))
      book = [...book.filter((_, i) => i % 10 !== round), ...placed].sort((a, b) => (a.order.keyId < b.order.keyId ? -1 : 1))
      expect(summary(cache.plan('proj', input(book)))).toEqual(summary(planExecution(input(book))))
      expect(cache.lastPatchedInPlace('proj')).toBe(true)
    }
  })
})
