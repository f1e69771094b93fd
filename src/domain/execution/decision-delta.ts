import type { PlannedRows } from './executor-plan.ts'
import type { CandidateOrder, DecisionRecords } from './prepared-book.ts'
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
  /** Delta records a reader applies to make this record whole: 0 for a whole record (the chain's length to it). */
  deltas: number
  /** What changed since the last whole record, gathered from each delta: a cumulative record's content. */
  sinceWhole: SinceWhole
  /**
   * The decisions as recorded, in the tick's order (copied out: the plan's array is reused by the next plan): what the
   * writer compares a tick's verdicts with (sameVerdicts) before it records anything.
   */
  decisions: OrderDecision[]
  /** The record's verdicts and rows by slot of the book's decision records. */
  slots: RecordedSlots
}

/**
 * What the last record said of each order, by its slot in the book's decision records (ExecutionPlan.rows): the
 * decision and the candidate (its row: a held candidate is replaced, never changed in its terms, when its balance or
 * order moves, held-candidates.ts) as recorded. Only valid with the same `records` object: a book rebuilt (or merged
 * with its slots numbered afresh) gives a whole record.
 */
interface RecordedSlots {
  records: DecisionRecords
  decision: Array<OrderDecision | undefined>
  candidate: Array<CandidateOrder | undefined>
  /** Slots with a recorded decision. */
  present: number
  /** Per slot, the stamp of the last walk that saw it (scratch). */
  seen: Uint32Array
  stamp: number
}

/**
 * The changes since the project's last whole record (`key`), by key id: each order's verdict and row as last recorded
 * changed, and the key ids removed since (and not back). Applied to the whole record, they give the newest record's
 * decision: what a cumulative record stores, so that the chain to a whole record stays short without writing the book
 * whole inside a tick every MAX_DELTAS_IN_A_ROW records (~4 MB stringified at 17,000 orders, issue 23 item 4). Its size
 * is the number of distinct orders changed since the whole record, not the book's.
 */
interface SinceWhole {
  key: string
  orders: Map<string, OrderDecision>
  candidates: Map<string, CandidateOrder>
  removed: Set<string>
}

/**
 * A quiet decision's record: whole, or the changes since `base`. A `cumulative` delta's base is the last whole record
 * and it holds every change since that record; the others' base is the previous record.
 */
export type QuietRecord =
  | { kind: 'whole' }
  | {
      kind: 'delta'
      delta: DecisionDelta
      orders: OrderDecision[]
      changedCandidates: CandidateOrder[]
      deltas: number
      walk: SlotWalk
      /** This tick's changes since the previous record, with their key ids (read from the book's records, not the orders). */
      step: StepChanges
      cumulative: boolean
    }

interface StepChanges {
  orders: OrderDecision[]
  candidates: CandidateOrder[]
  candidateKeys: string[]
  removed: string[]
}

/**
 * A delta record is written only while it is smaller than half the book (else the whole is barely larger), and a reader
 * applies at most this many to make a record whole: after that many in a row, the next record is a cumulative delta on
 * the last whole record (all the changes since it), not the whole book; the book is written whole only when those
 * changes reach half of it (or after a restart, a rebuilt book, a tick that bought).
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

/** The same journal row (decision-inputs.ts): terms, wallet, balance and buyer. */
const sameRow = (a: CandidateOrder, b: CandidateOrder): boolean =>
  a === b || (a.balanceAtoms === b.balanceAtoms && a.wallet === b.wallet && a.userIndex === b.userIndex && sameTerms(a.order, b.order))

/** The walk of a tick against the recorded slots: positions whose decision or candidate is not the recorded object, new ones, gone slots. */
interface SlotWalk {
  /** Positions of recorded slots whose decision or candidate is another object than the recorded one. */
  moved: number[]
  /** Positions of slots the record does not have (new or edited orders). */
  arrived: number[]
  /** Recorded slots this tick does not have (gone, or the old slot of an edited order). */
  gone: number[]
}

/**
 * One pass over the tick's positions, reading only the slot and candidate index arrays and comparing object identity
 * (no order object is read: a walk that read every order's key id and terms, in a heap the size of the book, took 10-15
 * ms at 17,000 orders in the daemon); then, only if fewer slots matched than the record had, one pass over the slots
 * for the gone ones. Small functions with nothing after their loop (see the note in executor-plan.ts).
 */
function walkSlots(memory: RecordedSlots, decisions: readonly OrderDecision[], rows: PlannedRows): SlotWalk {
  const { slotOf, inputOf, candidates } = rows
  const slots = memory.records.keyId.length
  if (memory.seen.length < slots) {
    const seen = new Uint32Array(Math.ceil(slots * 1.25) + 16)
    seen.set(memory.seen)
    memory.seen = seen
  }
  if (memory.stamp >= 0xffff_fffe) {
    memory.seen.fill(0)
    memory.stamp = 0
  }
  const stamp = ++memory.stamp
  const walk: SlotWalk = { moved: [], arrived: [], gone: [] }
  const matched = markPositions(memory.decision, memory.candidate, memory.seen, stamp, decisions, slotOf, inputOf, candidates, walk)
  if (matched < memory.present) goneSlots(memory.decision, memory.seen, stamp, walk.gone)
  return walk
}

function markPositions(
  decision: ReadonlyArray<OrderDecision | undefined>,
  candidate: ReadonlyArray<CandidateOrder | undefined>,
  seen: Uint32Array,
  stamp: number,
  decisions: readonly OrderDecision[],
  slotOf: Uint32Array,
  inputOf: Uint32Array,
  candidates: readonly CandidateOrder[],
  walk: SlotWalk,
): number {
  let matched = 0
  for (let p = 0; p < slotOf.length; p++) {
    const s = slotOf[p]!
    seen[s] = stamp
    const was = decision[s]
    if (was === undefined) walk.arrived.push(p)
    else {
      matched++
      if (was !== decisions[p] || candidate[s] !== candidates[inputOf[p]!]) walk.moved.push(p)
    }
  }
  return matched
}

function goneSlots(decision: ReadonlyArray<OrderDecision | undefined>, seen: Uint32Array, stamp: number, out: number[]): void {
  for (let s = 0; s < decision.length; s++) if (decision[s] !== undefined && seen[s] !== stamp) out.push(s)
}

/**
 * What to journal for a quiet tick after `previous` (the project's last record, undefined: none kept): the changes
 * since it, or the whole decision when there is no base, the book's slots are not the record's (`rows` absent or of
 * other decision records: a rebuilt book) or the changes are half the book or more. After `maxDeltas` deltas in a row
 * (tests pass a shorter chain), the changes are those since the last whole record, on that record (`cumulative`): the
 * chain a reader applies stays at most `maxDeltas` long, and no whole record is stringified inside a tick for it.
 * `decisions` and `rows` are the tick's plan's.
 *
 * The changes are found by slot: a slot the record has, with the same decision and candidate objects, is unchanged (a
 * shared decision record is never mutated, a held candidate never changes its row); one with another object is
 * compared field by field; a new slot whose key id the record had under a slot now gone is an edited order, compared
 * with that slot's; the other new slots are new orders, the other gone slots' key ids removed. So the record holds what
 * the aligned walk over the whole book found before (the property test checks the verdicts and rows it stores against
 * the whole decisions), in time proportional to the book's typed arrays plus the changes.
 */
export function quietRecordOf(
  previous: RecordedBook | undefined,
  decisions: readonly OrderDecision[],
  rows: PlannedRows | undefined,
  maxDeltas = MAX_DELTAS_IN_A_ROW,
): QuietRecord {
  if (!previous || !rows || previous.slots.records !== rows.records) return { kind: 'whole' }
  const memory = previous.slots
  const walk = walkSlots(memory, decisions, rows)
  const { records } = memory
  const { inputOf, candidates, slotOf } = rows
  const orders: OrderDecision[] = []
  const changedCandidates: CandidateOrder[] = []
  const candidateKeys: string[] = []
  // Gone slots by key id: an edited order's old slot (its new one arrived).
  const goneByKey = new Map<string, number>()
  for (const s of walk.gone) goneByKey.set(records.keyId[s]!, s)
  const compare = (p: number, s: number) => {
    const decision = decisions[p]!
    const candidate = candidates[inputOf[p]!]!
    if (!sameDecision(decision, memory.decision[s]!)) orders.push(decision)
    if (!sameRow(candidate, memory.candidate[s]!)) {
      changedCandidates.push(candidate)
      candidateKeys.push(records.keyId[slotOf[p]!]!)
    }
  }
  for (const p of walk.moved) compare(p, slotOf[p]!)
  for (const p of walk.arrived) {
    const keyId = records.keyId[slotOf[p]!]!
    const old = goneByKey.get(keyId)
    if (old !== undefined) {
      goneByKey.delete(keyId)
      compare(p, old)
    } else {
      orders.push(decisions[p]!)
      changedCandidates.push(candidates[inputOf[p]!]!)
      candidateKeys.push(keyId)
    }
  }
  const removed = [...goneByKey.keys()]
  const step: StepChanges = { orders, candidates: changedCandidates, candidateKeys, removed }
  const budget = Math.max(decisions.length, candidates.length) / 2
  if (previous.deltas < maxDeltas) {
    if (orders.length + changedCandidates.length + removed.length > budget) return { kind: 'whole' }
    return { kind: 'delta', delta: { base: previous.key, removed }, orders, changedCandidates, deltas: previous.deltas + 1, walk, step, cumulative: false }
  }
  // The chain is at its length: every change since the last whole record, on that record (the previous memory is the
  // writer's, dropped unless this record is written, so it is brought up to date here).
  const since = previous.sinceWhole
  accumulate(since, step)
  if (since.orders.size + since.candidates.size + since.removed.size > budget) return { kind: 'whole' }
  return {
    kind: 'delta',
    delta: { base: since.key, removed: [...since.removed] },
    orders: [...since.orders.values()],
    changedCandidates: [...since.candidates.values()],
    deltas: 1,
    walk,
    step,
    cumulative: true,
  }
}

/** One record's changes added to the changes since the whole record: an order removed, then back, is a change, not removed. */
function accumulate(since: SinceWhole, step: StepChanges): void {
  for (const keyId of step.removed) {
    since.orders.delete(keyId)
    since.candidates.delete(keyId)
    since.removed.add(keyId)
  }
  for (const decision of step.orders) {
    since.orders.set(decision.keyId, decision)
    since.removed.delete(decision.keyId)
  }
  for (let i = 0; i < step.candidates.length; i++) {
    since.candidates.set(step.candidateKeys[i]!, step.candidates[i]!)
    since.removed.delete(step.candidateKeys[i]!)
  }
}

/**
 * The writer's memory of a record just journaled. After a delta (`record`, from quietRecordOf with `previous`), the
 * previous memory is brought up to date in place, in time proportional to the changes: the slots the walk found moved,
 * arrived or gone take the tick's objects (a moved slot whose fields compared equal too, so that the next walk finds it
 * the same object). After a whole record, it is built over the tick's slots (`previous`'s arrays reused when the book's
 * records are the same). `decisions` is copied (the plan's array is the book cache's, rewritten by the next plan).
 */
export function recordedBook(
  key: string,
  record: QuietRecord,
  decisions: readonly OrderDecision[],
  rows: PlannedRows | undefined,
  previous?: RecordedBook,
): RecordedBook | undefined {
  if (!rows) return undefined
  const kept = previous?.decisions ?? []
  for (let i = 0; i < decisions.length; i++) kept[i] = decisions[i]!
  kept.length = decisions.length
  if (record.kind === 'delta' && previous) {
    const memory = previous.slots
    const { slotOf, inputOf, candidates } = rows
    // Arrived slots were added to the records since (pushed at the end): written below, the arrays stay packed.
    growTo(memory.decision, memory.records.keyId.length)
    growTo(memory.candidate, memory.records.keyId.length)
    for (const s of record.walk.gone) {
      memory.decision[s] = undefined
      memory.candidate[s] = undefined
    }
    for (const p of record.walk.moved) {
      memory.decision[slotOf[p]!] = decisions[p]!
      memory.candidate[slotOf[p]!] = candidates[inputOf[p]!]!
    }
    for (const p of record.walk.arrived) {
      memory.decision[slotOf[p]!] = decisions[p]!
      memory.candidate[slotOf[p]!] = candidates[inputOf[p]!]!
    }
    memory.present += record.walk.arrived.length - record.walk.gone.length
    // A cumulative record brought the changes since the whole one up to date already (quietRecordOf).
    if (!record.cumulative) accumulate(previous.sinceWhole, record.step)
    return { key, deltas: record.deltas, decisions: kept, slots: memory, sinceWhole: previous.sinceWhole }
  }
  const same = previous?.slots.records === rows.records ? previous.slots : undefined
  const slots: RecordedSlots = same ?? {
    records: rows.records,
    decision: [],
    candidate: [],
    present: 0,
    seen: new Uint32Array(0),
    stamp: 0,
  }
  // Every entry cleared, then the tick's written by slot (in priority order, so scattered: sized first, never sparse).
  slots.decision.length = 0
  slots.candidate.length = 0
  growTo(slots.decision, rows.records.keyId.length)
  growTo(slots.candidate, rows.records.keyId.length)
  fillSlots(slots.decision, slots.candidate, decisions, rows.slotOf, rows.inputOf, rows.candidates)
  slots.present = rows.slotOf.length
  return { key, deltas: 0, decisions: kept, slots, sinceWhole: { key, orders: new Map(), candidates: new Map(), removed: new Set() } }
}

/** Grows by pushes of undefined (resize-array.ts: a longer `length` would make the array sparse). */
function growTo<T>(array: Array<T | undefined>, length: number): void {
  while (array.length < length) array.push(undefined)
}

function fillSlots(
  decision: Array<OrderDecision | undefined>,
  candidate: Array<CandidateOrder | undefined>,
  decisions: readonly OrderDecision[],
  slotOf: Uint32Array,
  inputOf: Uint32Array,
  candidates: readonly CandidateOrder[],
): void {
  for (let p = 0; p < slotOf.length; p++) {
    const s = slotOf[p]!
    decision[s] = decisions[p]!
    candidate[s] = candidates[inputOf[p]!]!
  }
}
