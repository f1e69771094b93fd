import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { batchEntryForm, prepareBatchEntryForms } from '../../../daemon/executor/batch-entry-forms.ts'
import type { BatchPlannerContext } from '../../../daemon/executor/plan-batch.ts'
import { type ReadiedInputs, sameReadiedInputs } from '../../../daemon/executor/readied-clearing.ts'
import { completeShares, SHARES_PENDING, sharesPending } from '../../../daemon/executor/shares-later.ts'
import { parseDecimal } from '../../../src/domain/decimal.ts'
import type { BuyToSubmit } from '../../../src/domain/execution/executor-plan.ts'
import type { CandidateOrder } from '../../../src/domain/execution/prepared-book.ts'
import { buysOf, candidateOf, countingPolicy, fixtureLaunch, fixtureTick, orderOf, plannerFixture } from './plan-batch-fixture.ts'

const N = 300
const READIED_BLOCK = 99n
const book = (slug: string) => Array.from({ length: N }, (_, i) => candidateOf(orderOf(i, slug), i))
const maxOf = (c: CandidateOrder) => parseDecimal(c.order.maxSpendUsdc, 6)!
const buys = (candidates: readonly CandidateOrder[]) => buysOf(candidates, maxOf)

/** A planner whose allowances are `allowanceOf(wallet, block)`; stages recorded. */
function planner(allowanceOf: (wallet: string, block: bigint) => bigint = () => 10n ** 30n) {
  const counted = countingPolicy()
  const stages: string[] = []
  const fixture = plannerFixture({
    policy: counted.policy,
    stage: (name: string) => stages.push(name),
    batchReads: {
      allowances: async (_c: unknown, _s: unknown, wallets: readonly Address[], block: bigint) =>
        new Map(wallets.map((w) => [w.toLowerCase(), allowanceOf(w.toLowerCase(), block)])),
    },
  } as unknown as Partial<BatchPlannerContext>)
  return { ...fixture, counted, stages, allowanceOf }
}

/** Readies the launch of `candidates` as the readying pass does (its inputs given), counting the predictions. */
function readier(p: ReturnType<typeof planner>, candidates: readonly CandidateOrder[]) {
  const counts = { predictions: 0 }
  const ready = (input: { block?: bigint; book?: readonly unknown[]; balances?: bigint[]; reserved?: bigint[]; predicted?: BuyToSubmit[] } = {}) =>
    p.planner.readyClearing('base', fixtureLaunch.slug, input.block ?? READIED_BLOCK, {
      book: input.book ?? candidates,
      walletsLower: candidates.map((c) => c.wallet.toLowerCase()),
      // The readying pass's own read at its block (warm-allowances.ts `ahead`), handed in.
      allowances: new Map(candidates.map((c) => [c.wallet.toLowerCase(), p.allowanceOf(c.wallet.toLowerCase(), input.block ?? READIED_BLOCK)])),
      balances: input.balances ?? candidates.map((c) => c.balanceAtoms),
      reserved: input.reserved ?? candidates.map(() => 0n),
      predict: () => {
        counts.predictions++
        return input.predicted ?? buys(candidates)
      },
    })
  return { ready, counts }
}

/** The launch of `candidates` readied on `fixture`'s planner, then its fast commit's record (every input as readied). */
async function committedOnReadied(fixture: ReturnType<typeof plannerFixture>, candidates: readonly CandidateOrder[]) {
  const p = { ...fixture, counted: countingPolicy(), stages: [] as string[], allowanceOf: () => 10n ** 30n }
  readier(p, candidates).ready()
  const committed = await p.planner.clearReadied(
    fixtureTick,
    fixtureLaunch,
    candidates.map((c) => c.wallet),
    () => true,
  )
  return { p, committed }
}

const inputs = (): ReadiedInputs => ({ book: [1, 2], balances: [5n, 6n], reserved: [0n, 1n], allowances: [7n, 8n], maxBuyers: 10 })

describe('the launch readied before the launch (docs/execution.md §8, "The launch readied before the launch")', () => {
  it('keeps what was readied only for the same book array, balances, reservations, allowances and gas cut', () => {
    const a = inputs()
    expect(sameReadiedInputs(a, { ...a, balances: [...a.balances], reserved: [...a.reserved], allowances: [...a.allowances] })).toBe(true)
    // A written order: the warm snapshot hands a new array (even with the same content).
    expect(sameReadiedInputs(a, { ...a, book: [...a.book] })).toBe(false)
    expect(sameReadiedInputs(a, { ...a, balances: [5n, 5n] })).toBe(false)
    expect(sameReadiedInputs(a, { ...a, reserved: [0n, 0n] })).toBe(false)
    expect(sameReadiedInputs(a, { ...a, allowances: [7n, 0n] })).toBe(false)
    expect(sameReadiedInputs(a, { ...a, allowances: [7n] })).toBe(false)
    expect(sameReadiedInputs(a, { ...a, maxBuyers: 9 })).toBe(false)
  })

  it('walks again only when the book, a balance, a reservation or an allowance changed', async () => {
    const candidates = book('readied-rule')
    let revoked: string | undefined
    const p = planner((wallet) => (wallet === revoked ? 0n : 10n ** 30n))
    prepareBatchEntryForms(candidates, p.idOf)
    const r = readier(p, candidates)
    const first = await r.ready()
    expect(first?.walked).toBeDefined()
    expect(first?.batchable).toBe(N)
    expect(r.counts.predictions).toBe(1)
    await r.ready()
    expect(r.counts.predictions).toBe(1)
    await r.ready({ balances: candidates.map((c, i) => (i === 7 ? c.balanceAtoms - 1n : c.balanceAtoms)) })
    expect(r.counts.predictions).toBe(2)
    await r.ready({ reserved: candidates.map((_, i) => (i === 7 ? 1n : 0n)) })
    expect(r.counts.predictions).toBe(3)
    await r.ready()
    expect(r.counts.predictions).toBe(4)
    // Found unchanged at a later block: kept, its block moved on.
    expect((await r.ready({ block: READIED_BLOCK + 1n }))?.blockNumber).toBe(READIED_BLOCK + 1n)
    expect(r.counts.predictions).toBe(4)
    // An allowance revoked (read at the next block): walked again without that buyer.
    revoked = candidates[11]!.wallet.toLowerCase()
    const withRevoked = await r.ready({ block: READIED_BLOCK + 2n })
    expect(r.counts.predictions).toBe(5)
    expect(withRevoked?.batchable).toBe(N - 1)
    await r.ready({ block: READIED_BLOCK + 2n, book: [...candidates] })
    expect(r.counts.predictions).toBe(6)
  })

  it("the launch's split prices the readied walk (no priority order at the split), same record byte for byte", async () => {
    const candidates = book('readied-used')
    const p = planner()
    const direct = planner()
    prepareBatchEntryForms(candidates, p.idOf)
    await readier(p, candidates).ready()
    const keysReadied = p.counted.counts.keys
    expect(keysReadied).toBe(N)
    const split = await p.planner.split(fixtureTick, fixtureLaunch, buys(candidates))
    expect(p.stages).toContain('executor.clearingAhead.readied')
    expect(p.counted.counts.keys - keysReadied).toBe(0)
    const without = await direct.planner.split(fixtureTick, fixtureLaunch, buys(candidates))
    expect(direct.stages).toContain('executor.clearingAhead.none')
    expect(JSON.stringify(split.batch!.record)).toBe(JSON.stringify(without.batch!.record))
    // Taken by the launch's first split: a later tick of the launch clears its own book.
    expect(p.planner.readied('base', fixtureLaunch.slug)).toBeUndefined()
  })

  it("the launch's split takes the readied walk's candidates: no order id looked up, same record byte for byte", async () => {
    // Every executable order's `id` read is counted: the split used to build its candidates again with a map by order
    // id (one read per candidate) and look each cleared entry up in it (one more); on the readied walk's own
    // candidates it finds each entry's place by the walk's priority order at its rank, and reads none.
    const candidates = book('readied-candidates')
    const p = planner()
    const direct = planner()
    prepareBatchEntryForms(candidates, p.idOf)
    await readier(p, candidates).ready()
    let idReads = 0
    for (const c of candidates) {
      const executable = batchEntryForm(c.order, c.wallet, p.idOf).executable
      const id = executable.id
      Object.defineProperty(executable, 'id', {
        get: () => {
          idReads++
          return id
        },
      })
    }
    const split = await p.planner.split(fixtureTick, fixtureLaunch, buys(candidates))
    expect(p.stages).toContain('executor.clearingAhead.readied')
    expect(split.batch!.record.included).toHaveLength(N)
    expect(idReads).toBe(0)
    const without = await direct.planner.split(fixtureTick, fixtureLaunch, buys(candidates))
    expect(JSON.stringify(split.batch!.record)).toBe(JSON.stringify(without.batch!.record))
    expect([...split.batch!.buys.keys()]).toEqual([...without.batch!.buys.keys()])
  })

  it('clears as always when the launch finds another spend, an allowance gone or another order record', async () => {
    const candidates = book('readied-differs')
    const readiedBuys = buys(candidates)
    const cases: Array<{ actual: BuyToSubmit[]; allowanceOf?: (wallet: string, block: bigint) => bigint }> = [
      // A balance spent between the readied block and the launch: a smaller spend.
      { actual: readiedBuys.map((b, i) => (i === 17 ? { ...b, spendAtoms: b.spendAtoms - 1n } : b)) },
      // An allowance revoked at the tick's block: that buyer goes on alone, the batch's candidates differ.
      {
        actual: readiedBuys,
        allowanceOf: (wallet, block) => (block === BigInt(fixtureTick.blockNumber) && wallet === candidates[5]!.wallet.toLowerCase() ? 0n : 10n ** 30n),
      },
      // A PATCH: the order's record is a new object (its form too).
      { actual: readiedBuys.map((b, i) => (i === 3 ? { ...b, candidate: { ...b.candidate, order: { ...b.candidate.order } } } : b)) },
    ]
    for (const { actual, allowanceOf } of cases) {
      const p = planner(allowanceOf)
      const direct = planner(allowanceOf)
      prepareBatchEntryForms(candidates, p.idOf)
      await readier(p, candidates).ready({ predicted: readiedBuys })
      const split = await p.planner.split(fixtureTick, fixtureLaunch, actual)
      expect(p.stages).toContain('executor.clearingAhead.differed')
      const without = await direct.planner.split(fixtureTick, fixtureLaunch, actual)
      expect(JSON.stringify(split.batch!.record)).toBe(JSON.stringify(without.batch!.record))
      expect(split.perBuyer.map((b) => b.candidate.order.keyId)).toEqual(without.perBuyer.map((b) => b.candidate.order.keyId))
    }
  })

  it("a readied launch's fast commit and the same block's split price with one pool answer: the split asks the quoter nothing more", async () => {
    const candidates = book('fast-priced')
    let asked = 0
    const fixture = plannerFixture({
      quotes: {
        canQuote: () => true,
        tokensOut: async (_t: unknown, _l: unknown, usdcIn: bigint) => {
          asked++
          // The node gone after the first answer: the split must not ask again (a formula clearing would differ).
          if (asked > 1) throw new Error('the node is gone')
          return usdcIn * 10n ** 15n
        },
      },
    } as unknown as Partial<BatchPlannerContext>)
    const { p, committed } = await committedOnReadied(fixture, candidates)
    expect(committed?.clearing?.pool).toBe('quote')
    const split = await p.planner.split(fixtureTick, fixtureLaunch, buys(candidates))
    expect(asked).toBe(1)
    expect(JSON.stringify(split.batch?.record)).toBe(JSON.stringify(committed))
  })

  it("a readied split launch's record leaves its predicted shares pending until completed; completed, it is the split's record byte for byte", async () => {
    const candidates = book('fast-split')
    const fixture = plannerFixture({
      quotes: { canQuote: () => true, tokensOut: async (_t: unknown, _l: unknown, usdcIn: bigint) => usdcIn * 10n ** 15n + 7n },
      // A split batch (collects, then a settle): 50 buyers a transaction, one operator.
      maxBuyersPerTransaction: 50,
      batchOperators: { poolReady: () => false },
      splitReads: {},
      wallets: { operatorAddress: () => '0x00000000000000000000000000000000000000aa', sendCall: async () => '0x', sendFromAccount: async () => undefined },
    } as unknown as Partial<BatchPlannerContext>)
    const { p, committed } = await committedOnReadied(fixture, candidates)
    expect(committed?.split?.chunks.length).toBe(N / 50)
    expect(committed!.included).toHaveLength(N)
    // The entries the readying pass built for the walk, taken as they are (none built at the launch).
    expect(committed!.included).toBe(p.planner.readied('base', fixtureLaunch.slug)?.recordEntries?.included)
    // Nothing the sends read is pending: wallets and spends; the shares are, until completed.
    expect(committed!.included.every((e) => e.predicted === SHARES_PENDING)).toBe(true)
    expect(sharesPending(committed!)).toBe(true)
    completeShares(committed!)
    expect(sharesPending(committed!)).toBe(false)
    expect(committed!.included.some((e) => e.predicted === SHARES_PENDING)).toBe(false)
    const split = await p.planner.split(fixtureTick, fixtureLaunch, buys(candidates))
    expect(JSON.stringify(split.batch?.record)).toBe(JSON.stringify(committed))
    // Completed once: a second call changes nothing.
    const shares = committed!.included.map((e) => e.predicted)
    completeShares(committed!)
    expect(committed!.included.map((e) => e.predicted)).toEqual(shares)
    expect(committed!.included[0]!.predicted).toBe(shares[0])
  })

  it('a readied launch whose quote fails is not committed on the formula: the fast path gives way (the old path asks again)', async () => {
    const candidates = book('fast-unpriced')
    const fixture = plannerFixture({
      quotes: {
        canQuote: () => true,
        tokensOut: async () => {
          throw new Error('the node is gone')
        },
      },
    } as unknown as Partial<BatchPlannerContext>)
    const p = { ...fixture, counted: countingPolicy(), stages: [] as string[], allowanceOf: () => 10n ** 30n }
    readier(p, candidates).ready()
    expect(
      await p.planner.clearReadied(
        fixtureTick,
        fixtureLaunch,
        candidates.map((c) => c.wallet),
        () => true,
      ),
    ).toBeUndefined()
    // The readied walk is still there for the split.
    expect(p.planner.readied('base', fixtureLaunch.slug)?.walked).toBeDefined()
  })

  it('forgets a readied clearing on request', async () => {
    const candidates = book('readied-forget')
    const p = planner()
    await readier(p, candidates).ready()
    expect(p.planner.readied('base', fixtureLaunch.slug)).toBeDefined()
    p.planner.forgetReadied('base', fixtureLaunch.slug)
    expect(p.planner.readied('base', fixtureLaunch.slug)).toBeUndefined()
  })
})
