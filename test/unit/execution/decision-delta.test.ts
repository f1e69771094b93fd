import fc from 'fast-check'
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { decisionInputs } from '../../../daemon/executor/decision-inputs.ts'
import { MAX_DELTAS_IN_A_ROW, quietRecordOf, type RecordedBook, recordedBook } from '../../../src/domain/execution/decision-delta.ts'
import { createBookCache, type BookCache } from '../../../src/domain/execution/book-cache.ts'
import type { PlanInput } from '../../../src/domain/execution/executor-plan.ts'
import type { CandidateOrder } from '../../../src/domain/execution/prepared-book.ts'
import { spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import { replayTick } from '../../../src/domain/execution/replay-tick.ts'
import type { TickDecision } from '../../../src/journal/journal-records.ts'
import { materializeDecisions, type StoredDecision } from '../../../src/journal/materialize-decisions.ts'
import { launchRecord } from '../../support/console-fixtures.ts'

/*
 * A quiet tick's decision stored as its changes since the previous record (decision-delta.ts) and made whole again by
 * the journal's reader (materialize-decisions.ts): what a reader gets must be the decision the tick made.
 */

const launch = launchRecord('rocket', { totalSupply: (10n ** 27n).toString(), launchedAt: 1_000_000 })
const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address

interface Book {
  orders: Map<number, CandidateOrder>
  cap: bigint
  clock: number
  /** The executor's book cache dropped the project's book before this tick (a rebuild: its slots numbered afresh). */
  rebuilt?: boolean
}

const candidate = (i: number, spend: number, limit: number | null, balance: bigint, at: number): CandidateOrder => ({
  order: {
    keyId: `k${i}`,
    slug: 'rocket',
    status: 'active',
    maxSpendUsdc: String(spend),
    maxFdvUsdc: limit === null ? null : String(limit),
    expiresInMs: 3_600_000,
    createdAt: i,
    updatedAt: at,
  },
  userIndex: i,
  wallet: wallet(i),
  balanceAtoms: balance,
})

/**
 * The tick as the executor plans it, through the book cache (the book patched in place or merged from tick to tick, its
 * decision slots kept): nothing can buy (an order within its limit has no balance), so every tick is quiet.
 */
function planned(cache: BookCache, book: Book, at: number) {
  const input: PlanInput = {
    tick: { effectiveCapAtoms: book.cap.toString(), swapsAllowed: true },
    launchedAt: launch.launchedAt,
    now: launch.launchedAt + 1_000,
    totalSupply: BigInt(launch.totalSupply),
    candidates: [...book.orders.values()],
    reservedByWallet: new Map(),
    policy: spendThenLimitPolicy,
  }
  if (book.rebuilt) cache.forget('rocket')
  const plan = cache.plan('rocket', input)
  const tick = { ...fixedTick, effectiveCapAtoms: book.cap.toString(), at }
  return { input, plan, tick }
}

const fixedTick: TickDecision['tick'] = {
  slug: 'rocket',
  chain: 'base',
  token: launch.token,
  reason: 'block',
  blockNumber: '100',
  blockHash: `0x${'ab'.repeat(32)}`,
  logIndex: -1,
  sqrtPriceX96: '1',
  liquidity: '1',
  pairedUsdAtoms: '1',
  nextBlockTimestamp: 1_001,
  lpFeePips: 0,
  totalFeeFraction: 0,
  swapsAllowed: true,
  fdvUsdAtoms: '0',
  effectiveCapAtoms: '0',
  feeDecaying: false,
  at: 0,
}

/** Records every tick as record-quiet-tick.ts does: the whole decision, and what is stored (`maxDeltas`: the chain's length). */
function recordAll(books: Book[], maxDeltas = MAX_DELTAS_IN_A_ROW): { wholes: TickDecision[]; stored: StoredDecision[] } {
  const cache = createBookCache()
  let previous: RecordedBook | undefined
  const wholes: TickDecision[] = []
  const stored: StoredDecision[] = []
  books.forEach((book, step) => {
    const { input, plan, tick } = planned(cache, book, step)
    const candidates = plan.candidatesInPriority()
    const base = { slug: 'rocket', chain: 'base' as const, tick, policy: spendThenLimitPolicy.name, at: step }
    const whole: TickDecision = { ...base, orders: plan.decisions.slice(), inputs: decisionInputs(input, candidates) }
    const record = quietRecordOf(previous, plan.decisions, plan.rows, maxDeltas)
    const value: TickDecision =
      record.kind === 'delta' ? { ...base, orders: record.orders, inputs: decisionInputs(input, record.changedCandidates), delta: record.delta } : whole
    const key = `rocket!${String(step).padStart(6, '0')}`
    // As LevelDB hands it back: JSON.
    stored.push({ key, value: JSON.parse(JSON.stringify(value)) })
    wholes.push(JSON.parse(JSON.stringify(whole)))
    previous = recordedBook(key, record, plan.decisions, plan.rows, previous)
  })
  return { wholes, stored }
}

/** A decision with its verdicts and rows by key id: a materialized record keeps its base's order, not the tick's. */
const byKeyId = (decision: TickDecision) => ({
  ...decision,
  orders: [...decision.orders].sort((a, b) => a.keyId.localeCompare(b.keyId)),
  inputs: decision.inputs && { ...decision.inputs, orders: [...decision.inputs.orders].sort((a, b) => a[0].localeCompare(b[0])) },
})

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('balance' as const), i: fc.nat(40), balance: fc.bigInt({ min: 0n, max: 10n ** 9n }) }),
  fc.record({
    kind: fc.constant('patch' as const),
    i: fc.nat(40),
    spend: fc.integer({ min: 1, max: 500 }),
    limit: fc.option(fc.integer({ min: 1, max: 10 ** 6 })),
  }),
  fc.record({ kind: fc.constant('remove' as const), i: fc.nat(40) }),
  fc.record({ kind: fc.constant('cap' as const), cap: fc.bigInt({ min: 1n, max: 10n ** 12n }) }),
  fc.record({ kind: fc.constant('rebuild' as const) }),
)

type Edit =
  | { kind: 'balance'; i: number; balance: bigint }
  | { kind: 'patch'; i: number; spend: number; limit: number | null }
  | { kind: 'remove'; i: number }
  | { kind: 'cap'; cap: bigint }
  | { kind: 'rebuild' }

function apply(book: Book, ev: Edit): Book {
  const orders = new Map(book.orders)
  const clock = book.clock + 1
  if (ev.kind === 'cap') return { orders, cap: ev.cap, clock }
  if (ev.kind === 'rebuild') return { orders, cap: book.cap, clock, rebuilt: true }
  const current = orders.get(ev.i)
  if (ev.kind === 'remove') orders.delete(ev.i)
  else if (ev.kind === 'balance') {
    if (current) orders.set(ev.i, { ...current, balanceAtoms: ev.balance })
  } else orders.set(ev.i, candidate(ev.i, ev.spend, ev.limit, current?.balanceAtoms ?? 0n, clock))
  return { orders, cap: book.cap, clock, ...(book.rebuilt ? { rebuilt: true } : {}) }
}

/**
 * What a delta from `before` to `after` must hold, by key id: the verdicts and rows that differ or are new, and the key
 * ids gone (what the aligned walk over the whole book stored, before the walk by slot).
 */
function changesBetween(before: TickDecision, after: TickDecision) {
  const diff = <T>(a: readonly T[], b: readonly T[], key: (x: T) => string) => {
    const old = new Map(a.map((x) => [key(x), JSON.stringify(x)]))
    return b
      .filter((x) => old.get(key(x)) !== JSON.stringify(x))
      .map(key)
      .sort()
  }
  const removed = before.orders.map((o) => o.keyId).filter((k) => !after.orders.some((o) => o.keyId === k))
  return {
    orders: diff(before.orders, after.orders, (o) => o.keyId),
    rows: diff(before.inputs!.orders, after.inputs!.orders, (r) => r[0]),
    removed: removed.sort(),
  }
}

/** Keeps every tick quiet: an order its limit lets buy has no balance. */
function quiet(book: Book): Book {
  const orders = new Map(book.orders)
  for (const [i, c] of orders) {
    const limit = c.order.maxFdvUsdc === null ? null : BigInt(c.order.maxFdvUsdc) * 10n ** 6n
    // A new candidate only when its balance moves (as the held candidates do): the same candidate object otherwise.
    if ((limit === null || limit >= book.cap) && c.balanceAtoms !== 0n) orders.set(i, { ...c, balanceAtoms: 0n })
  }
  return { ...book, orders }
}

const startBook = (n: number): Book => ({
  // Limits below the cap but every fourth order's (none): those have no balance, the others wait for the price.
  orders: new Map(Array.from({ length: n }, (_, i) => [i, candidate(i, 10 + (i % 13), i % 4 === 0 ? null : 1 + i, BigInt(i + 1) * 1_000_000n, 0)] as const)),
  cap: 5_000n * 10n ** 6n,
  clock: 0,
})

describe('quiet decisions journaled as their changes', () => {
  it('every record a reader gets is the whole decision the tick made (property)', () => {
    let deltas = 0
    let cumulative = 0
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.array(fc.array(edit, { maxLength: 4 }), { minLength: 1, maxLength: 30 }),
        // Short chains too, so that the runs write cumulative records (on the last whole one) after every few deltas.
        fc.constantFrom(1, 2, 3, MAX_DELTAS_IN_A_ROW),
        (n, steps, maxDeltas) => {
          const books: Book[] = [quiet(startBook(n))]
          for (const edits of steps) {
            const { rebuilt: _before, ...last } = books.at(-1)!
            books.push(quiet(edits.reduce(apply, last)))
          }
          const { wholes, stored } = recordAll(books, maxDeltas)
          const read = materializeDecisions(stored)
          expect(read.map(byKeyId)).toEqual(wholes.map(byKeyId))
          // Replayed on what the reader gets, every tick decides as recorded: a quiet tick's verdicts do not depend on the
          // rows' order (the materialized record keeps its base's).
          for (const decision of read) expect(replayTick(decision, undefined).differences).toEqual([])
          // Each delta holds exactly what changed since its base, nothing more: the walk by slot finds what the aligned
          // walk over the whole book found. A tick after a rebuild (its slots numbered afresh) is whole.
          const stepOf = new Map(stored.map(({ key }, step) => [key, step]))
          stored.forEach(({ value }, step) => {
            if (books[step]!.rebuilt) expect(value.delta).toBeUndefined()
            if (!value.delta) return
            deltas++
            // A reader applies at most maxDeltas records to make any record whole.
            let hops = 0
            for (let at: TickDecision | undefined = value; at?.delta; at = stored[stepOf.get(at.delta.base)!]?.value) hops++
            expect(hops).toBeLessThanOrEqual(maxDeltas)
            const stepped = {
              orders: value.orders.map((o) => o.keyId).sort(),
              rows: value.inputs!.orders.map((r) => r[0]).sort(),
              removed: [...value.delta.removed].sort(),
            }
            if (value.delta.base === stored[step - 1]!.key) {
              expect(stepped).toEqual(changesBetween(wholes[step - 1]!, wholes[step]!))
              return
            }
            // A cumulative record: on the last whole record, every change since it (what changed and changed back too,
            // with the value it has again; key ids removed since, some never in the whole record).
            cumulative++
            const from = stepOf.get(value.delta.base)!
            expect(stored[from]!.value.delta).toBeUndefined()
            expect(stored.slice(from + 1, step).every((s) => s.value.delta)).toBe(true)
            const exact = changesBetween(wholes[from]!, wholes[step]!)
            expect(stepped.orders).toEqual(expect.arrayContaining(exact.orders))
            expect(stepped.rows).toEqual(expect.arrayContaining(exact.rows))
            expect(stepped.removed).toEqual(expect.arrayContaining(exact.removed))
            const now = new Set(wholes[step]!.orders.map((o) => o.keyId))
            for (const keyId of stepped.removed) expect(now.has(keyId)).toBe(false)
          })
        },
      ),
      { numRuns: 150 },
    )
    // The runs did store deltas and cumulative ones (not only whole records, which would pass the checks above trivially).
    expect(deltas).toBeGreaterThan(150)
    expect(cumulative).toBeGreaterThan(50)
  })

  it('a PATCH of one order of 1,000 stores that order alone; every 65th record holds the changes since the whole one, on it', () => {
    let book = quiet(startBook(1_000))
    const books = [book]
    for (let step = 1; step <= 2 * MAX_DELTAS_IN_A_ROW + 3; step++) {
      // One order PATCHed from a limit below the cap to one the cap meets (no balance: quiet): its verdict changes.
      book = quiet(apply(book, { kind: 'patch', i: 4 * step + 1, spend: 10, limit: 10 ** 6 }))
      books.push(book)
    }
    const { wholes, stored } = recordAll(books)
    expect(stored[0]!.value.delta).toBeUndefined()
    for (let step = 1; step <= MAX_DELTAS_IN_A_ROW; step++) {
      const value = stored[step]!.value
      expect(value.delta?.base).toBe(stored[step - 1]!.key)
      expect(value.orders.map((o) => o.keyId)).toEqual([`k${4 * step + 1}`])
      expect(value.inputs?.orders.map((r) => r[0])).toEqual([`k${4 * step + 1}`])
      expect(JSON.stringify(value).length).toBeLessThan(JSON.stringify(wholes[step]).length / 50)
    }
    // The 65th: not the book whole (as before), but the 65 orders PATCHed since the whole record, on that record.
    const first = stored[MAX_DELTAS_IN_A_ROW + 1]!.value
    expect(first.delta).toEqual({ base: stored[0]!.key, removed: [] })
    const since = (step: number) => Array.from({ length: step }, (_, s) => `k${4 * (s + 1) + 1}`).sort()
    expect(first.orders.map((o) => o.keyId).sort()).toEqual(since(MAX_DELTAS_IN_A_ROW + 1))
    expect(first.inputs?.orders.map((r) => r[0]).sort()).toEqual(since(MAX_DELTAS_IN_A_ROW + 1))
    expect(JSON.stringify(first).length).toBeLessThan(JSON.stringify(wholes[MAX_DELTAS_IN_A_ROW + 1]).length / 5)
    // Then deltas on it, and the next cumulative one on the whole record again: no record after the first is whole.
    expect(stored[MAX_DELTAS_IN_A_ROW + 2]!.value.delta?.base).toBe(stored[MAX_DELTAS_IN_A_ROW + 1]!.key)
    expect(stored[MAX_DELTAS_IN_A_ROW + 2]!.value.orders.map((o) => o.keyId)).toEqual([`k${4 * (MAX_DELTAS_IN_A_ROW + 2) + 1}`])
    const second = stored[2 * MAX_DELTAS_IN_A_ROW + 1]!.value
    expect(second.delta?.base).toBe(stored[0]!.key)
    expect(second.orders.map((o) => o.keyId).sort()).toEqual(since(2 * MAX_DELTAS_IN_A_ROW + 1))
    expect(stored.slice(1).every((s) => s.value.delta)).toBe(true)
    expect(materializeDecisions(stored).map(byKeyId)).toEqual(wholes.map(byKeyId))
  })

  it('the changes since the whole record reaching half the book give a whole record again', () => {
    // 40 orders, a chain of 2: each record PATCHes another order; the cumulative ones grow until past half the book.
    let book = quiet(startBook(40))
    const books = [book]
    for (let step = 1; step <= 30; step++) {
      book = quiet(apply(book, { kind: 'patch', i: step, spend: 10, limit: 10 ** 6 }))
      books.push(book)
    }
    const { wholes, stored } = recordAll(books, 2)
    const wholeSteps = stored.flatMap((s, step) => (s.value.delta ? [] : [step]))
    // A cumulative record holds each changed order's verdict and row: over 20 entries (half of 40) after 11 changes.
    expect(wholeSteps[0]).toBe(0)
    expect(wholeSteps.length).toBeGreaterThan(1)
    expect(wholeSteps[1]).toBeGreaterThan(10)
    for (const { value } of stored)
      if (value.delta) expect(value.orders.length + value.inputs!.orders.length + value.delta.removed.length).toBeLessThanOrEqual(20)
    expect(materializeDecisions(stored).map(byKeyId)).toEqual(wholes.map(byKeyId))
  })

  it('an order removed is listed once; changes of half the book or more are stored whole', () => {
    const first = quiet(startBook(10))
    const removed = quiet(apply(first, { kind: 'remove', i: 3 }))
    // Every limit now meets the cap: 7 of the 9 orders change their verdict.
    const repriced = quiet(apply(removed, { kind: 'cap', cap: 1n }))
    const { stored } = recordAll([first, removed, repriced])
    expect(stored[1]!.value.delta).toEqual({ base: stored[0]!.key, removed: ['k3'] })
    expect(stored[1]!.value.orders).toEqual([])
    expect(stored[2]!.value.delta).toBeUndefined()
  })

  it('a record whose base is missing is handed out with its changes only and no inputs: replay cannot check it', () => {
    const books = [quiet(startBook(10)), quiet(apply(quiet(startBook(10)), { kind: 'patch', i: 2, spend: 10, limit: 10 ** 6 }))]
    const { stored } = recordAll(books)
    const [orphan] = materializeDecisions([stored[1]!])
    expect(orphan!.inputs).toBeUndefined()
    expect(orphan!.delta).toBeUndefined()
    expect(orphan!.orders.map((o) => o.keyId)).toEqual(['k2'])
    expect(replayTick(orphan!, undefined).checkable).toBe(false)
  })

  it('a base is found by its key, whatever the order of the keys', () => {
    const books = [quiet(startBook(10)), quiet(apply(quiet(startBook(10)), { kind: 'patch', i: 2, spend: 10, limit: 10 ** 6 }))]
    const { wholes, stored } = recordAll(books)
    const read = materializeDecisions([stored[1]!, stored[0]!])
    expect(byKeyId(read[0]!)).toEqual(byKeyId(wholes[1]!))
  })
})

describe('the quiet record of a PATCH reads the changed orders only', () => {
  it('no order record of the book is read but the PATCHed one (the walk compares slots and objects)', () => {
    const cache = createBookCache()
    let book = quiet(startBook(1_000))
    const first = planned(cache, book, 0)
    const whole = quietRecordOf(undefined, first.plan.decisions, first.plan.rows)
    let previous = recordedBook('rocket!000000', whole, first.plan.decisions, first.plan.rows)
    // One order PATCHed to a limit the cap meets (no balance: quiet), another wallet's balance moved.
    book = quiet(apply(apply(book, { kind: 'patch', i: 5, spend: 10, limit: 10 ** 6 }), { kind: 'balance', i: 6, balance: 7n }))
    const { plan } = planned(cache, book, 1)
    // Every candidate's order record counted as it is read, from here on (the plan above read them all).
    let reads = 0
    const counted = new Set<string>()
    for (const c of plan.rows!.candidates) {
      const order = c.order
      Object.defineProperty(c, 'order', {
        get: () => {
          reads++
          counted.add(order.keyId)
          return order
        },
      })
    }
    const record = quietRecordOf(previous, plan.decisions, plan.rows)
    previous = recordedBook('rocket!000001', record, plan.decisions, plan.rows, previous)
    const readKeys = [...counted].sort()
    const readCount = reads
    expect(record.kind).toBe('delta')
    if (record.kind !== 'delta') return
    expect(record.orders.map((o) => o.keyId)).toEqual(['k5'])
    expect(record.changedCandidates.map((c) => c.order.keyId).sort()).toEqual(['k5', 'k6'])
    // At most the PATCHed order (its new terms compared with the old ones, once its balance compared equal; the
    // rebalanced candidate's order record is the recorded one, not read): the aligned walk over the book read every
    // order's key id (1,000 here).
    expect(readKeys.filter((k) => k !== 'k5')).toEqual([])
    expect(readCount).toBeLessThanOrEqual(2)
    expect(previous?.deltas).toBe(1)
  })
})
