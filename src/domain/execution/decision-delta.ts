import type { CandidateOrder } from './prepared-book.ts'
import type { OrderDecision } from './verdicts.ts'

/*
 * A quiet tick's decision journaled as what changed since the project's previous decision record (issue 23 item 4).
 *
 * A quiet tick (nothing bought, nothing expired) is journaled when a verdict changed (daemon/executor/record-quiet-tick.ts),
 * and its record used to hold every order's verdict and planner inputs: ~250 bytes of JSON per order, stringified and
 * written inside the tick (~12 ms at 3,000 orders, ~60 ms at 17,000; ~25 MB per recorded verdict change at 100,000).
 * A PATCH changes one order. So such a record now names its base (the previous record of the project) and carries the
 * verdicts and input rows that differ from the base's, and the key ids the base had that this tick no longer decides.
 * The journal hands it out whole (src/journal/materialize-decisions.ts), so `executions replay --check` and every other
 * reader see the same decisions as before.
 *
 * Why the order of the rows may change: a materialized record lists its base's orders in the base's order, the changed
 * ones in place and the new ones last, not in the tick's priority order. A quiet tick's verdicts do not depend on that
 * order: nothing buys, so no order's verdict depends on another's (no balance taken by a higher-priority buy, no rank,
 * no buy cap reached), and the replay plans the rows again with the policy, which orders them itself.
 */

/** How a record relates to the previous one: `base` is the journal key of the record it is a change of. */
export interface DecisionDelta {
  base: string
  /** Key ids the base decided that this tick does not (deleted, filled, no longer active). */
  removed: string[]
}

/** The project's last journaled decision, as the writer keeps it to tell what the next quiet one changes. */
export interface RecordedBook {
  /** Journal key of the record. */
  key: string
  /** Delta records since the last whole one. */
  deltas: number
  /** The decisions as recorded, in the tick's order (copied out: the plan's array is reused by the next plan). */
  decisions: OrderDecision[]
  /** The planner inputs' rows as recorded, in columns, in the tick's priority order. */
  rows: RecordedRows
}

interface RecordedRows {
  length: number
  /**
   * The order records as planned. A held order record is never changed once handed out (a write gives a new record:
   * load-orders.ts, warm-books.ts), so the same record means the same terms; a new record is compared field by field.
   */
  order: CandidateOrder['order'][]
  wallet: string[]
  balanceAtoms: bigint[]
  userIndex: Float64Array
}

/** A quiet decision's record: whole, or the changes since `base`. */
export type QuietRecord =
  | { kind: 'whole' }
  | { kind: 'delta'; delta: DecisionDelta; orders: OrderDecision[]; changedCandidates: CandidateOrder[]; deltas: number }

/**
 * A delta record is written only while it is smaller than half the book (else the whole is barely larger), and at most
 * this many in a row: a reader materializes a record from the last whole one before it, so the chain stays short.
 */
export const MAX_DELTAS_IN_A_ROW = 64

const sameDecision = (a: OrderDecision, b: OrderDecision): boolean =>
  a === b ||
  (a.keyId === b.keyId &&
    a.verdict === b.verdict &&
    a.slug === b.slug &&
    a.spendAtoms === b.spendAtoms &&
    a.minTokensOut === b.minTokensOut &&
    a.rank === b.rank &&
    a.userOpHash === b.userOpHash)

const sameTerms = (a: CandidateOrder['order'], b: CandidateOrder['order']): boolean =>
  a === b ||
  (a.updatedAt === b.updatedAt &&
    a.maxSpendUsdc === b.maxSpendUsdc &&
    a.maxFdvUsdc === b.maxFdvUsdc &&
    a.expiresInMs === b.expiresInMs &&
    a.createdAt === b.createdAt &&
    a.keyId === b.keyId)

const sameRow = (rows: RecordedRows, j: number, c: CandidateOrder): boolean =>
  rows.balanceAtoms[j] === c.balanceAtoms && rows.wallet[j] === c.wallet && rows.userIndex[j] === c.userIndex && sameTerms(rows.order[j]!, c.order)

/**
 * Pairs a list with its base by key id, in one walk and without a map of the whole book (a map of 17,000 key ids, built
 * per record, cost more than the record it saved). Both lists are mostly in the same order: a PATCH moves one order (its
 * spend sets its priority), a new order comes in, one goes. The walk matches equal key ids in step; where they differ it
 * skips the base's entry when the base's next one matches (moved away or gone), or the list's entry when the list's next
 * one matches (moved here or new), else both. Only the skipped entries are then paired through a map (moved orders
 * found, new and gone ones left over). `same(i, j)` is asked once per pair; `changed(i)` is called for every entry of
 * the list without a pair or whose pair is not the same; the key ids of the base's entries left unpaired are returned
 * (gone). Key ids are unique in each list.
 */
function pairWithBase(
  length: number,
  keyAt: (i: number) => string,
  baseLength: number,
  baseKeyAt: (j: number) => string,
  same: (i: number, j: number) => boolean,
  changed: (i: number) => void,
): string[] {
  const unpaired: number[] = []
  const unseen: number[] = []
  let i = 0
  let j = 0
  while (i < length && j < baseLength) {
    const key = keyAt(i)
    const baseKey = baseKeyAt(j)
    if (key === baseKey) {
      if (!same(i, j)) changed(i)
      i++
      j++
    } else if (j + 1 < baseLength && baseKeyAt(j + 1) === key) unseen.push(j++)
    else if (i + 1 < length && keyAt(i + 1) === baseKey) unpaired.push(i++)
    else {
      unpaired.push(i++)
      unseen.push(j++)
    }
  }
  while (i < length) unpaired.push(i++)
  while (j < baseLength) unseen.push(j++)
  const baseOf = new Map<string, number>()
  for (const b of unseen) baseOf.set(baseKeyAt(b), b)
  for (const u of unpaired) {
    const b = baseOf.get(keyAt(u))
    if (b === undefined) changed(u)
    else {
      baseOf.delete(keyAt(u))
      if (!same(u, b)) changed(u)
    }
  }
  return [...baseOf.keys()]
}

/**
 * What to journal for a quiet tick after `previous` (the project's last record, undefined: none kept): the changes
 * since it, or the whole decision when there is no base, the chain is long or the changes are half the book or more.
 * `decisions` and `candidates` are the tick's (candidates in the priority order its inputs record).
 */
export function quietRecordOf(previous: RecordedBook | undefined, decisions: readonly OrderDecision[], candidates: readonly CandidateOrder[]): QuietRecord {
  if (!previous || previous.deltas >= MAX_DELTAS_IN_A_ROW) return { kind: 'whole' }
  const base = previous.decisions
  const orders: OrderDecision[] = []
  const goneDecisions = pairWithBase(
    decisions.length,
    (i) => decisions[i]!.keyId,
    base.length,
    (j) => base[j]!.keyId,
    (i, j) => sameDecision(decisions[i]!, base[j]!),
    (i) => void orders.push(decisions[i]!),
  )
  const rows = previous.rows
  const changedCandidates: CandidateOrder[] = []
  const goneRows = pairWithBase(
    candidates.length,
    (i) => candidates[i]!.order.keyId,
    rows.length,
    (j) => rows.order[j]!.keyId,
    (i, j) => sameRow(rows, j, candidates[i]!),
    (i) => void changedCandidates.push(candidates[i]!),
  )
  // One `removed` list stands for both: the decisions and the rows are of the same orders, in the base as in this tick.
  // Were they not (an order gone from one list only), the whole record.
  if (goneDecisions.length !== goneRows.length) return { kind: 'whole' }
  if (goneRows.length > 0) {
    const gone = new Set(goneDecisions)
    if (!goneRows.every((keyId) => gone.has(keyId))) return { kind: 'whole' }
  }
  const budget = Math.max(decisions.length, candidates.length) / 2
  if (orders.length + changedCandidates.length + goneDecisions.length > budget) return { kind: 'whole' }
  return { kind: 'delta', delta: { base: previous.key, removed: goneDecisions }, orders, changedCandidates, deltas: previous.deltas + 1 }
}

/**
 * The writer's memory of a record just journaled (`deltas`: 0 for a whole one, the delta's `deltas` for a delta). `reuse`:
 * the project's previous memory, whose columns are written over (it is not needed once this record is made): no new
 * arrays of the book's size per record.
 */
export function recordedBook(
  key: string,
  deltas: number,
  decisions: readonly OrderDecision[],
  candidates: readonly CandidateOrder[],
  reuse?: RecordedBook,
): RecordedBook {
  const n = candidates.length
  const old = reuse?.rows
  const rows: RecordedRows = {
    length: n,
    order: old?.order ?? [],
    wallet: old?.wallet ?? [],
    balanceAtoms: old?.balanceAtoms ?? [],
    userIndex: old && old.userIndex.length >= n ? old.userIndex : new Float64Array(Math.max(64, n + (n >> 3))),
  }
  for (let i = 0; i < n; i++) {
    const c = candidates[i]!
    rows.order[i] = c.order
    rows.wallet[i] = c.wallet
    rows.balanceAtoms[i] = c.balanceAtoms
    rows.userIndex[i] = c.userIndex
  }
  for (const column of [rows.order, rows.wallet, rows.balanceAtoms]) column.length = n
  const kept = reuse?.decisions ?? []
  for (let i = 0; i < decisions.length; i++) kept[i] = decisions[i]!
  kept.length = decisions.length
  return { key, deltas, decisions: kept, rows }
}
