import { describe, expect, it } from 'vitest'
import type { Address } from 'viem'
import { createBookCache, type BookUse } from '../../../src/domain/execution/book-cache.ts'
import { DEFAULT_MAX_BUYS, planExecution, sameVerdicts, type ExecutionPlan, type PlanInput } from '../../../src/domain/execution/executor-plan.ts'
import type { CandidateOrder } from '../../../src/domain/execution/prepared-book.ts'
import { toExecutableOrder, type ExecutableOrder } from '../../../src/domain/execution/executable-order.ts'
import { planTick } from '../../../src/domain/execution/reference-planner.ts'
import { prioritiseOrders, spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import type { OrderRecord } from '../../../src/domain/records.ts'
import type { OrderDecision } from '../../../src/journal/journal-records.ts'
import { minTokensOut } from '../../../src/pricing/min-tokens-out.ts'
import { seededRandom } from '../../support/seeded-random.ts'

/**
 * The oracle: the bigint reference planner (toExecutableOrder, prioritiseOrders, planTick) and the journal layout
 * written out independently of the executor's fast paths: expired first, then every other skip in priority order,
 * then the submitted buys, then the deferred ones.
 */
function referencePlan(input: PlanInput): ExecutionPlan {
  const byOrder = new Map<ExecutableOrder, CandidateOrder>()
  const parsed = input.candidates.map((c) => {
    const order = toExecutableOrder(c.order, c.wallet.toLowerCase())
    byOrder.set(order, c)
    return order
  })
  // Last candidate of a wallet carries its balance (one read per wallet per tick, so they agree in practice).
  const balances = new Map<string, bigint>()
  for (const c of input.candidates) balances.set(c.wallet.toLowerCase(), c.balanceAtoms)
  const prioritised = prioritiseOrders(parsed, input.policy)
  const plan = planTick({
    prioritisedOrders: prioritised,
    balances,
    reserved: input.reservedByWallet,
    effectiveCap: input.tick.effectiveCapAtoms === null ? null : BigInt(input.tick.effectiveCapAtoms),
    swapsAllowed: input.tick.swapsAllowed,
    launchedAtMs: input.launchedAt,
    nowMs: input.now,
  })
  const record = (o: ExecutableOrder) => byOrder.get(o)!.order
  const decisions: OrderDecision[] = []
  for (const o of plan.expired) decisions.push({ keyId: record(o).keyId, slug: record(o).slug, verdict: 'expired' })
  for (const s of plan.skipped) decisions.push({ keyId: record(s.order).keyId, slug: record(s.order).slug, verdict: s.reason })
  const limit = Math.min(plan.buys.length, input.maxBuys ?? DEFAULT_MAX_BUYS)
  const buys = plan.buys.slice(0, limit).map((b, rank) => {
    const min = minTokensOut({ spend: b.spend, limitFdv: b.order.limitFdv, totalSupply: input.totalSupply })
    const r = record(b.order)
    decisions.push({ keyId: r.keyId, slug: r.slug, verdict: 'submitted', spendAtoms: b.spend.toString(), minTokensOut: min.toString(), rank })
    // The cap the buy was decided on: the tick's (no quote in these plans).
    const capAtoms = input.tick.effectiveCapAtoms === null ? null : BigInt(input.tick.effectiveCapAtoms)
    return { candidate: byOrder.get(b.order)!, spendAtoms: b.spend, minTokensOut: min, rank, capAtoms }
  })
  for (const [i, b] of plan.buys.slice(limit).entries())
    decisions.push({ keyId: record(b.order).keyId, slug: record(b.order).slug, verdict: 'deferred', rank: limit + i })
  return { decisions, expired: plan.expired.map(record), buys, candidatesInPriority: () => prioritised.map((o) => byOrder.get(o)!) }
}

const rng = seededRandom

const USDC = 1_000_000n
const wallet = (n: number, upper = false) => {
  const hex = `0x${n.toString(16).padStart(40, 'a')}`
  return (upper ? hex.toUpperCase().replace('0X', '0x') : hex) as Address
}

describe('createBookCache: every path agrees with the bigint reference planner', () => {
  const summary = (plan: ExecutionPlan) => ({
    decisions: plan.decisions,
    expired: plan.expired,
    buys: plan.buys.map((b) => ({ ...b, candidate: b.candidate.order.keyId })),
    // What the journal records for a replay: every path's priority order is the reference's.
    priority: plan.candidatesInPriority().map((c) => c.order.keyId),
  })

  it('through random sequences of reloads, buys, cancellations, placements, PATCHes, balance moves and reorders', () => {
    const random = rng(20261122)
    const int = (max: number) => Math.floor(random() * max)
    const uses = new Map<BookUse, number>()
    let buys = 0
    for (let sequence = 0; sequence < 12; sequence++) {
      let next = 0
      const walletCount = 1 + int(40)
      const spends = ['1', '5', '10', '10.000001', '250', '0.000001', '10000000', '10000000000']
      // Limits: equal ones, none, and ones beyond 2^53 micro-USD (equal as doubles, different as integers).
      const limits = [null, null, '300000', '400000', '500000', '500000.000001', '10000000000', '1152921504606.846976', '1152921504606.846977']
      const fresh = (): CandidateOrder => {
        const w = 1 + int(walletCount)
        const order: OrderRecord = {
          keyId: `key_${String(next++).padStart(5, '0')}`,
          slug: 'proj',
          status: random() < 0.9 ? 'active' : 'executing',
          maxSpendUsdc: spends[int(random() < 0.05 ? spends.length : spends.length - 1)]!,
          maxFdvUsdc: limits[int(limits.length)]!,
          expiresInMs: [5_000, 60_000, 3_600_000][int(3)]!,
          createdAt: next,
          updatedAt: next,
        }
        // Shared wallets, sometimes spelt in another case.
        return { order, userIndex: w, wallet: wallet(w, random() < 0.1), balanceAtoms: BigInt([0, 0, 1, 7, 20, 400][int(6)]!) * USDC }
      }
      let candidates = Array.from({ length: 20 + int(200) }, fresh)
      const cache = createBookCache()
      for (let step = 0; step < 60; step++) {
        // A reload: the same order objects (the warm path between writes) or fresh copies (after a write).
        candidates = random() < 0.5 ? candidates.map((c) => ({ ...c })) : candidates.map((c) => ({ ...c, order: { ...c.order } }))
        const action = int(9)
        if (action === 0) candidates = candidates.filter(() => random() < 0.9) // buys and cancellations
        if (action === 1 && candidates.length > 0) {
          // A PATCH, sometimes without moving updatedAt.
          const i = int(candidates.length)
          const c = candidates[i]!
          candidates[i] = {
            ...c,
            order: { ...c.order, maxSpendUsdc: String(1 + int(300)), maxFdvUsdc: limits[int(limits.length)]!, updatedAt: c.order.updatedAt + int(2) },
          }
        }
        if (action === 2) for (let k = int(4); k >= 0; k--) candidates.splice(int(candidates.length + 1), 0, fresh()) // placements
        if (action === 3) candidates = candidates.map((c) => ({ ...c, balanceAtoms: BigInt([0, 1, 7, 20, 400][int(5)]!) * USDC }))
        if (action === 4 && candidates.length > 1) {
          // The store lists orders in another order: not a filter of the previous list.
          const i = int(candidates.length)
          const j = int(candidates.length)
          ;[candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!]
        }
        if (action === 5 && candidates.length > 0) {
          // An order back from executing: status and terms as before, a new arrival for the book.
          const i = int(candidates.length)
          candidates[i] = { ...candidates[i]!, order: { ...candidates[i]!.order, status: candidates[i]!.order.status === 'active' ? 'executing' : 'active' } }
        }
        if (action === 6) candidates = [...candidates.slice(0, int(candidates.length)), ...Array.from({ length: 80 }, fresh)] // many new
        const input: PlanInput = {
          tick: {
            effectiveCapAtoms: random() < 0.1 ? null : (BigInt([250_000, 300_000, 400_000, 500_000, 10_000_000_000][int(5)]!) * USDC).toString(),
            swapsAllowed: random() < 0.9,
          },
          launchedAt: 1_000_000,
          now: 1_000_000 + [0, 4_999, 5_000, 59_999, 60_000][int(5)]!,
          totalSupply: 10n ** 27n,
          candidates,
          reservedByWallet: new Map([[wallet(1 + int(walletCount)).toLowerCase(), BigInt(int(40)) * USDC]]),
          policy: spendThenLimitPolicy,
          maxBuys: 1 + int(30),
        }
        const plan = cache.plan('proj', input)
        const use = cache.lastUse('proj')!
        uses.set(use, (uses.get(use) ?? 0) + 1)
        expect(summary(plan), `sequence ${sequence} step ${step} (${use})`).toEqual(summary(referencePlan(input)))
        buys += plan.buys.length
      }
    }
    for (const use of ['rebuilt', 'reused', 'filtered', 'incremental'] as const) expect(uses.get(use) ?? 0, use).toBeGreaterThan(20)
    expect(buys).toBeGreaterThan(1_000)
  })

  it('keeps agreeing over many merges of a small book (the shared verdict records are compacted on the way)', () => {
    const random = rng(11)
    const make = (i: number, step: number): CandidateOrder => ({
      order: {
        keyId: `k${String(i).padStart(3, '0')}`,
        slug: 'proj',
        status: 'active',
        maxSpendUsdc: String(1 + ((i * 7 + step) % 13)),
        maxFdvUsdc: (i + step) % 3 === 0 ? null : String(300_000 + ((i * 31 + step) % 5) * 50_000),
        expiresInMs: 60_000,
        createdAt: i,
        updatedAt: step,
      },
      userIndex: i % 6,
      wallet: wallet(i % 6),
      balanceAtoms: BigInt(Math.floor(random() * 50)) * USDC,
    })
    let candidates = Array.from({ length: 20 }, (_, i) => make(i, 0))
    const cache = createBookCache()
    const uses = new Set<BookUse>()
    for (let step = 1; step <= 150; step++) {
      // Ten PATCHes per step: ten arrivals, ten new slots.
      candidates = candidates.map((c, i) => (i % 2 === step % 2 ? make(i, step) : { ...c }))
      const input: PlanInput = {
        tick: { effectiveCapAtoms: (400_000n * USDC).toString(), swapsAllowed: true },
        launchedAt: 0,
        now: 1,
        totalSupply: 10n ** 27n,
        candidates,
        reservedByWallet: new Map(),
        policy: spendThenLimitPolicy,
        maxBuys: 5,
      }
      expect(summary(cache.plan('proj', input)), `step ${step}`).toEqual(summary(referencePlan(input)))
      uses.add(cache.lastUse('proj')!)
    }
    expect([...uses]).toEqual(['rebuilt', 'incremental'])
  })

  it('planExecution (fresh book) agrees with the reference too, including amounts beyond 2^53 and equal terms', () => {
    const random = rng(7)
    for (let round = 0; round < 200; round++) {
      const candidates: CandidateOrder[] = Array.from({ length: 1 + Math.floor(random() * 30) }, (_, i) => ({
        order: {
          keyId: `k${i}`,
          slug: 'proj',
          status: 'active',
          maxSpendUsdc: ['10', '10', '20', '9007199254.740993', '10000000000'][Math.floor(random() * 5)]!,
          maxFdvUsdc: [null, '400000', '400000', '1152921504606.846977', '1152921504606.846976'][Math.floor(random() * 5)]!,
          expiresInMs: 60_000,
          createdAt: i,
          updatedAt: i,
        },
        userIndex: i % 4,
        wallet: wallet(i % 4),
        balanceAtoms: BigInt(Math.floor(random() * 3)) * 10n ** 17n,
      }))
      const input: PlanInput = {
        tick: { effectiveCapAtoms: ['1', '400000000000', '1152921504606846977', null][Math.floor(random() * 4)]!, swapsAllowed: true },
        launchedAt: 0,
        now: 1,
        totalSupply: 10n ** 27n,
        candidates,
        reservedByWallet: new Map(),
        policy: spendThenLimitPolicy,
      }
      expect(summary(planExecution(input))).toEqual(summary(referencePlan(input)))
    }
  })

  it('sameVerdicts: equal to comparing keyId:verdict signatures, mostly by identity on a kept book', () => {
    const random = rng(12)
    const signature = (plan: ExecutionPlan) => plan.decisions.map((d) => `${d.keyId}:${d.verdict}`).join(',')
    const candidates: CandidateOrder[] = Array.from({ length: 300 }, (_, i) => ({
      order: {
        keyId: `k${i}`,
        slug: 'proj',
        status: 'active',
        maxSpendUsdc: String(1 + (i % 7)),
        maxFdvUsdc: i % 3 ? '400000' : null,
        expiresInMs: 60_000,
        createdAt: i,
        updatedAt: i,
      },
      userIndex: i % 50,
      wallet: wallet(i % 50),
      balanceAtoms: BigInt(i % 4) * USDC,
    }))
    const cache = createBookCache()
    const input = (caps: string): PlanInput => ({
      tick: { effectiveCapAtoms: caps, swapsAllowed: true },
      launchedAt: 0,
      now: 1,
      totalSupply: 10n ** 27n,
      candidates: candidates.map((c) => ({ ...c })),
      reservedByWallet: new Map(),
      policy: spendThenLimitPolicy,
      maxBuys: 0,
    })
    // As decide-tick keeps them: a copy (a plan's decisions are the cache's reused array, valid until the next plan).
    const first = cache.plan('proj', input('500000000000'))
    let previous = { decisions: first.decisions.slice(), signature: signature(first) }
    for (let step = 0; step < 40; step++) {
      const next = cache.plan('proj', input(random() < 0.5 ? '500000000000' : '300000000000'))
      expect(sameVerdicts(previous.decisions, next.decisions)).toBe(previous.signature === signature(next))
      previous = { decisions: next.decisions.slice(), signature: signature(next) }
    }
    const fresh = planExecution(input('500000000000'))
    expect(sameVerdicts(cache.plan('proj', input('500000000000')).decisions, fresh.decisions)).toBe(true)
    expect(sameVerdicts(fresh.decisions, fresh.decisions.slice(1))).toBe(false)
  })

  it('reports a malformed amount as before (RangeError), on a rebuild and on a merge', () => {
    const base: Omit<PlanInput, 'candidates'> = {
      tick: { effectiveCapAtoms: '1', swapsAllowed: true },
      launchedAt: 0,
      now: 1,
      totalSupply: 10n ** 27n,
      reservedByWallet: new Map(),
      policy: spendThenLimitPolicy,
    }
    const good: CandidateOrder = {
      order: { keyId: 'a', slug: 'proj', status: 'active', maxSpendUsdc: '1', maxFdvUsdc: null, expiresInMs: 60_000, createdAt: 1, updatedAt: 1 },
      userIndex: 1,
      wallet: wallet(1),
      balanceAtoms: USDC,
    }
    const bad: CandidateOrder = { ...good, order: { ...good.order, keyId: 'b', maxSpendUsdc: '1e5' } }
    expect(() => createBookCache().plan('proj', { ...base, candidates: [good, bad] })).toThrow(RangeError)
    const cache = createBookCache()
    cache.plan('proj', { ...base, candidates: [good] })
    expect(() => cache.plan('proj', { ...base, candidates: [good, bad] })).toThrow(RangeError)
    // The cache still holds the last good book.
    expect(cache.plan('proj', { ...base, candidates: [good] }).buys).toHaveLength(1)
  })

  it('a large book: reload, buys, a placement and a PATCH take the cheap paths and stay exact', () => {
    const orders = 20_000
    const book: CandidateOrder[] = Array.from({ length: orders }, (_, i) => ({
      order: {
        keyId: `key_${String(i).padStart(6, '0')}`,
        slug: 'proj',
        status: 'active',
        maxSpendUsdc: String(1 + (i % 500)),
        maxFdvUsdc: i % 7 === 0 ? null : String(100_000 + ((i * 37) % 900_000)),
        expiresInMs: 3_600_000,
        createdAt: i,
        updatedAt: i,
      },
      userIndex: i,
      wallet: wallet(i + 1),
      balanceAtoms: BigInt((i % 10) * 100_000_000),
    }))
    const input = (candidates: CandidateOrder[]): PlanInput => ({
      tick: { effectiveCapAtoms: (500_000n * USDC).toString(), swapsAllowed: true },
      launchedAt: 0,
      now: 1_000,
      totalSupply: 10n ** 29n,
      candidates,
      reservedByWallet: new Map([[wallet(5).toLowerCase(), 100n * USDC]]),
      policy: spendThenLimitPolicy,
    })
    const cache = createBookCache()
    const steps: Array<[CandidateOrder[], BookUse]> = []
    const reloaded = book.map((c) => ({ ...c, order: { ...c.order } }))
    const afterBuys = reloaded.filter((_, i) => i % 100 !== 0)
    const withNew = [...afterBuys]
    withNew.splice(5_000, 0, { ...book[3]!, order: { ...book[3]!.order, keyId: 'key_0049995', maxSpendUsdc: '400' } })
    const patched = withNew.map((c, i) => (i === 777 ? { ...c, order: { ...c.order, maxSpendUsdc: '499.5', updatedAt: 9 } } : c))
    steps.push([book, 'rebuilt'], [reloaded, 'reused'], [afterBuys, 'filtered'], [withNew, 'incremental'], [patched, 'incremental'])
    for (const [candidates, use] of steps) {
      expect(summary(cache.plan('proj', input(candidates)))).toEqual(summary(referencePlan(input(candidates))))
      expect(cache.lastUse('proj')).toBe(use)
    }
    // Prepared ahead (the warm path before a launch): the tick then reuses the book.
    const ahead = createBookCache()
    expect(ahead.prepare('proj', { candidates: book, policy: spendThenLimitPolicy })).toBe('rebuilt')
    expect(ahead.prepare('proj', { candidates: withNew, policy: spendThenLimitPolicy })).toBe('incremental')
    const launchTick = withNew.map((c) => ({ ...c, balanceAtoms: c.balanceAtoms + USDC }))
    expect(summary(ahead.plan('proj', input(launchTick)))).toEqual(summary(referencePlan(input(launchTick))))
    expect(ahead.lastUse('proj')).toBe('reused')
  })
})

describe('createBookCache: each project has one decisions array, rewritten by every plan', () => {
  it('its length is the book size: no decision of a larger earlier book is left in it', () => {
    const candidates: CandidateOrder[] = Array.from({ length: 30 }, (_, i) => ({
      order: {
        keyId: `k${String(i).padStart(2, '0')}`,
        slug: 'proj',
        status: 'active',
        maxSpendUsdc: String(1 + (i % 5)),
        maxFdvUsdc: i % 4 ? '400000' : null,
        expiresInMs: 60_000,
        createdAt: i,
        updatedAt: i,
      },
      userIndex: i % 9,
      wallet: wallet(i % 9),
      balanceAtoms: BigInt(i % 3) * USDC,
    }))
    const input = (list: readonly CandidateOrder[]): PlanInput => ({
      tick: { effectiveCapAtoms: '500000000000', swapsAllowed: true },
      launchedAt: 0,
      now: 1,
      totalSupply: 10n ** 27n,
      candidates: list,
      reservedByWallet: new Map(),
      policy: spendThenLimitPolicy,
      maxBuys: 2,
    })
    const cache = createBookCache()
    const full = cache.plan('proj', input(candidates))
    const array = full.decisions
    expect(array).toHaveLength(30)
    // Ten orders leave (bought elsewhere, cancelled): the same array, shortened, equal to a fresh plan's.
    const fewer = candidates.filter((_, i) => i % 3 !== 0)
    const next = cache.plan('proj', input(fewer))
    expect(cache.lastUse('proj')).toBe('filtered')
    expect(next.decisions).toBe(array)
    expect(next.decisions).toEqual(planExecution(input(fewer)).decisions)
    // A book just built lives in rows of its own: its first PATCH is patched in place (not merged into new rows).
    const built = createBookCache()
    built.plan('proj', input(candidates))
    expect(built.lastUse('proj')).toBe('rebuilt')
    const patched = candidates.map((c, i) => (i === 7 ? { ...c, order: { ...c.order, maxSpendUsdc: '9', updatedAt: 99 } } : c))
    const afterPatch = built.plan('proj', input(patched))
    expect(built.lastUse('proj')).toBe('incremental')
    expect(built.lastPatchedInPlace('proj')).toBe(true)
    expect(afterPatch.decisions).toEqual(planExecution(input(patched)).decisions)
    expect(afterPatch.candidatesInPriority().map((c) => c.order.keyId)).toEqual(
      planExecution(input(patched))
        .candidatesInPriority()
        .map((c) => c.order.keyId),
    )
    // Another project has its own array; a plan without the cache allocates one.
    expect(cache.plan('other', input(candidates)).decisions).not.toBe(array)
    expect(planExecution(input(candidates)).decisions).not.toBe(planExecution(input(candidates)).decisions)
  })
})

describe("createBookCache: a built book has its ticks' scratch sized already (a book's first held ticks)", () => {
  const candidatesOf = (count: number, balance: (i: number) => bigint): CandidateOrder[] =>
    Array.from({ length: count }, (_, i) => ({
      order: {
        keyId: `k${String(i).padStart(5, '0')}`,
        slug: 'proj',
        status: 'active',
        maxSpendUsdc: String(1 + (i % 50)),
        maxFdvUsdc: i % 4 ? '900000' : null,
        expiresInMs: 60_000,
        createdAt: i,
        updatedAt: i,
      },
      userIndex: i % 700,
      wallet: wallet(i % 700),
      balanceAtoms: balance(i),
    }))
  const input = (list: readonly CandidateOrder[]): PlanInput => ({
    tick: { effectiveCapAtoms: '500000000000', swapsAllowed: true },
    launchedAt: 0,
    now: 1,
    totalSupply: 10n ** 27n,
    candidates: list,
    reservedByWallet: new Map(),
    policy: spendThenLimitPolicy,
  })

  it('prepare sizes the balance sets and index maps: the first reload, balance move and PATCH allocate none', () => {
    const candidates = candidatesOf(2_000, (i) => BigInt(i % 3) * USDC)
    const cache = createBookCache()
    expect(cache.prepare('proj', { candidates, policy: spendThenLimitPolicy })).toBe('rebuilt')
    // A reload whose balances moved (both balance sets in turn: each tick fills the one the book does not use), then a
    // PATCH, then the tick back: the first ticks of the book, each one its path.
    const moved = candidatesOf(2_000, (i) => BigInt((i + 1) % 3) * USDC)
    const ticks: Array<[readonly CandidateOrder[], string]> = [
      [moved, 'reused'],
      [candidates, 'reused'],
      [moved.map((c, i) => (i === 1_234 ? { ...c, order: { ...c.order, maxSpendUsdc: '77', updatedAt: 5_000 } } : c)), 'incremental'],
      [moved, 'incremental'],
    ]
    for (const [list, use] of ticks) {
      const plan = cache.plan('proj', input(list))
      expect(cache.lastUse('proj')).toBe(use)
      expect(plan.decisions).toEqual(planExecution(input(list)).decisions)
    }
    // Nothing grew in a tick: the scratch was sized when the book was built (it grew here before: on the first tick's
    // balance set and index map, and on the second's other balance set).
    expect(cache.scratchGrowths('proj')).toBe(0)
  })

  it('a tick that rebuilds sizes them too, for the ticks after it', () => {
    const cache = createBookCache()
    cache.plan('proj', input(candidatesOf(300, () => USDC)))
    expect(cache.lastUse('proj')).toBe('rebuilt')
    // Far more orders than the first book: rebuilt again, the scratch grown for it there, not in the ticks after.
    const larger = candidatesOf(3_000, (i) => BigInt(i % 2) * USDC)
    cache.plan('proj', input(larger))
    expect(cache.lastUse('proj')).toBe('rebuilt')
    cache.plan('proj', input(candidatesOf(3_000, (i) => BigInt((i + 1) % 2) * USDC)))
    cache.plan('proj', input(larger))
    expect(cache.lastUse('proj')).toBe('reused')
    expect(cache.scratchGrowths('proj')).toBe(0)
  })
})
