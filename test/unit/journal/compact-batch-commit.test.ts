import fc from 'fast-check'
import { randomBatchBook } from '../../support/random-batch-book.ts'
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { prepareBatchEntryForms } from '../../../daemon/executor/batch-entry-forms.ts'
import type { BatchPlannerContext } from '../../../daemon/executor/plan-batch.ts'
import type { PreparedContent, PreparedEntries } from '../../../daemon/executor/prepared-entries.ts'
import { parseDecimal } from '../../../src/domain/decimal.ts'
import type { BuyToSubmit } from '../../../src/domain/execution/executor-plan.ts'
import type { CandidateOrder } from '../../../src/domain/execution/prepared-book.ts'
import type { BatchRecord } from '../../../src/journal/batch-records.ts'
import {
  commitExpandsTo,
  compactBatchCommit,
  compactCommitFromWalk,
  expandBatchCommit,
  type PreparedBatchEntries,
} from '../../../src/journal/compact-batch-commit.ts'
import type { LaunchRecord } from '../../../src/journal/journal-records.ts'
import { buysOf, candidateOf, fixtureLaunch, fixtureTick, orderOf, plannerFixture } from '../executor/plan-batch-fixture.ts'

const maxOf = (c: CandidateOrder) => parseDecimal(c.order.maxSpendUsdc, 6)!
/** What is stored and read back: JSON text (the store's encoding). */
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/**
 * A launch readied by the readying pass (its entries offered, captured here as the prepared entries written) and then
 * split by its launch tick over `actual`: the record the tick builds and the prepared entries its commit can name.
 */
async function readiedThenSplit(
  slug: string,
  candidates: readonly CandidateOrder[],
  predicted: BuyToSubmit[],
  actual: BuyToSubmit[],
  overrides: Partial<BatchPlannerContext> = {},
): Promise<{ record: BatchRecord | undefined; prepared: PreparedBatchEntries | undefined; byRank: ArrayLike<number> | undefined }> {
  let offered: PreparedContent | undefined
  const preparedEntries = { offer: (_c: unknown, _s: unknown, content: PreparedContent) => (offered = content), forget() {} } as unknown as PreparedEntries
  const p = plannerFixture({ preparedEntries, ...overrides } as Partial<BatchPlannerContext>)
  prepareBatchEntryForms(candidates, p.idOf)
  const launch = { ...fixtureLaunch, slug } as LaunchRecord
  p.planner.readyClearing('base', slug, 99n, {
    book: candidates,
    walletsLower: candidates.map((c) => c.wallet.toLowerCase()),
    allowances: new Map(candidates.map((c) => [c.wallet.toLowerCase(), 10n ** 30n])),
    balances: candidates.map((c) => c.balanceAtoms),
    reserved: candidates.map(() => 0n),
    predict: () => predicted,
  })
  const split = await p.planner.split(fixtureTick, launch, actual)
  const prepared = offered ? { key: `base!${slug}!t-1`, chain: 'base' as const, slug, rows: offered.rows, entries: offered.entries } : undefined
  return { record: split.batch?.record, prepared, byRank: offered?.byRank }
}

const indexOf = (prepared: PreparedBatchEntries) => new Map(prepared.rows.map((row, i) => [row[0], i]))

describe('the compact commit (docs/execution.md §8, "The compact commit"): the launch record named by its entries prepared ahead', () => {
  it('expands to the record the tick built, byte for byte, for random books: limits, spends below the max, the gas cut, a quote returning nothing, entries changed since they were prepared', async () => {
    let n = 0
    let fromWalks = 0
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          ...randomBatchBook,
          /** What changed between the readying and the launch: a spend, an order fewer, an order more, a wallet. */
          change: fc.option(fc.record({ kind: fc.constantFrom('spend', 'fewer', 'more', 'wallet'), at: fc.nat() }), { nil: undefined }),
        }),
        async (b) => {
          const slug = `compact-${n++}`
          const limitOf = (i: number) => (b.withLimits && b.orders[i]?.limited ? `${100_000 + i * 50_000}` : null)
          const candidates = b.orders.map((_, i) => candidateOf(orderOf(i * 13, slug, limitOf(i)), i))
          const predicted = buysOf(candidates, (c) => (maxOf(c) * BigInt(b.orders[c.userIndex]!.cut)) / 1000n)
          let actual = predicted
          const at = b.change ? b.change.at % predicted.length : 0
          if (b.change?.kind === 'spend') actual = predicted.map((x, i) => (i === at ? { ...x, spendAtoms: x.spendAtoms + 1n } : x))
          if (b.change?.kind === 'fewer') actual = predicted.filter((_, i) => i !== at)
          if (b.change?.kind === 'more') {
            const extra = candidateOf(orderOf(999, slug), 77)
            actual = [...predicted, ...buysOf([extra], maxOf)]
          }
          if (b.change?.kind === 'wallet')
            actual = predicted.map((x, i) => (i === at ? { ...x, candidate: { ...x.candidate, wallet: `0x${'e'.repeat(40)}` as Address } } : x))
          const quotes =
            b.pool === 'formula'
              ? {}
              : {
                  quotes: {
                    canQuote: () => true,
                    tokensOut: async (_t: unknown, _l: unknown, usdcIn: bigint) => (b.pool === 'empty' ? 0n : usdcIn * 10n ** 15n),
                  },
                }
          const { record, prepared, byRank } = await readiedThenSplit(slug, candidates, predicted, actual, {
            maxBuyersPerTransaction: b.maxBuyersPerTransaction,
            ...(quotes as Partial<BatchPlannerContext>),
          })
          if (!record || !prepared) return
          // With the readied walk's priority order as the hint (as the executor passes it), and without.
          const commit = compactBatchCommit(record, prepared, indexOf(prepared), byRank)
          expect(commit).toBeDefined()
          expect(compactBatchCommit(record, prepared, indexOf(prepared))).toEqual(commit)
          // What the journal stores and the roll forward reads back: JSON text of both.
          const expanded = expandBatchCommit(stored(commit!), stored(prepared))
          expect(JSON.stringify(expanded)).toBe(JSON.stringify(record))
          // Written straight from the walk (readied-launch.ts): where the record is the walk's (nothing changed), the
          // same commit as the compared one, and it expands to the record; where it is not, the check after the sends
          // (commitExpandsTo) says so exactly when it is not the compared commit.
          const fromWalk = compactCommitFromWalk(record, prepared, byRank!)
          if (!b.change) {
            expect(fromWalk).toEqual(commit)
            expect(JSON.stringify(expandBatchCommit(stored(fromWalk!), stored(prepared)))).toBe(JSON.stringify(record))
          }
          if (fromWalk) {
            fromWalks++
            expect(commitExpandsTo(stored(fromWalk), stored(prepared), record)).toBe(JSON.stringify(fromWalk) === JSON.stringify(commit))
          }
          // Nothing changed since the readying: every entry, exclusion and row is named, none written out.
          if (!b.change) {
            expect(commit!.included.every((k) => k >= 0)).toBe(true)
            expect(commit!.writtenOut).toEqual([])
            expect(commit!.excluded.every(Array.isArray)).toBe(true)
            expect(commit!.candidates!.every((c) => typeof c === 'number')).toBe(true)
          }
        },
      ),
      { numRuns: 200 },
    )
    // The construction was tried on a third of the runs or more (a batch, its candidates the prepared ones in number).
    expect(fromWalks).toBeGreaterThan(40)
  })

  it('is a small part of the record for 2,000 orders prepared unchanged (its size counted), and writes out only the entries that changed', async () => {
    const slug = 'compact-size'
    const candidates = Array.from({ length: 2_000 }, (_, i) => candidateOf(orderOf(i, slug), i))
    const predicted = buysOf(candidates, maxOf)
    const { record, prepared } = await readiedThenSplit(slug, candidates, predicted, predicted, {
      maxBuyersPerTransaction: 500,
    } as Partial<BatchPlannerContext>)
    const commit = compactBatchCommit(record!, prepared!, indexOf(prepared!))!
    const full = JSON.stringify(record).length
    const compact = JSON.stringify(commit).length
    // The fixture sends no split batch: 500 included, the rest left out for gas (both kinds named by index).
    expect(record!.included.length).toBe(500)
    expect(record!.excluded.length).toBe(1_500)
    // The ranks and indexes of the entries and rows and the head, against the entries written out in full.
    expect(compact).toBeLessThan(full / 8)
    const changed = predicted.map((x, i) => (i === 5 ? { ...x, spendAtoms: x.spendAtoms - 1n } : x))
    const { record: r2, prepared: p2 } = await readiedThenSplit(slug, candidates, predicted, changed, {
      maxBuyersPerTransaction: 500,
    } as Partial<BatchPlannerContext>)
    const c2 = compactBatchCommit(r2!, p2!, indexOf(p2!))!
    // The one changed order, written out where it is (included or left out), and its row.
    expect(c2.writtenOut.length + c2.excluded.filter((e) => !Array.isArray(e)).length).toBe(1)
    expect(c2.candidates!.filter((c) => typeof c !== 'number')).toHaveLength(1)
    expect(JSON.stringify(expandBatchCommit(stored(c2), stored(p2!)))).toBe(JSON.stringify(r2))
  })

  it('is not made for a record that dropped orders under the executor (written in full), nor expanded over other prepared entries or a format not known', async () => {
    const slug = 'compact-refused'
    const candidates = Array.from({ length: 20 }, (_, i) => candidateOf(orderOf(i, slug), i))
    const predicted = buysOf(candidates, maxOf)
    const { record, prepared } = await readiedThenSplit(slug, candidates, predicted, predicted)
    expect(compactBatchCommit({ ...record!, dropped: [record!.included[0]!] }, prepared!, indexOf(prepared!))).toBeUndefined()
    const commit = compactBatchCommit(record!, prepared!, indexOf(prepared!))!
    expect(() => expandBatchCommit(commit, { ...prepared!, key: 'base!other!1' })).toThrow(/names/)
    expect(() => expandBatchCommit({ ...commit, format: 2 as 1 }, prepared!)).toThrow(/format 2/)
  })
})
