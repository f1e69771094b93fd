import { mergeOrderBook, storedOrderBook, toSafeNumber } from './order-book.ts'
import { spendThenLimitPolicy } from './prioritisation.ts'
import { countWalletSums, fitBookRows, patchBookInPlace, type BookRows } from './patch-book-in-place.ts'
import { planPrepared, type ExecutionPlan, type PlanInput } from './executor-plan.ts'
import type { OrderDecision } from './verdicts.ts'
import type { CandidateDiff } from './held-candidates.ts'
import { balancesOf, candidateColumns, prepareBook, preparedBookOf, type CandidateOrder, type DecisionRecords, type PreparedBook } from './prepared-book.ts'

/**
 * Prepared order books kept between ticks, one per project. The executor reloads a project's active orders (and the
 * wallets' balances) on every tick; this decides what the reload means for the book:
 * - the same orders with the same terms: reuse the book (no parsing, no sorting), refresh candidates and balances;
 * - some orders gone (bought, expired, cancelled), the rest unchanged and in the same relative order: drop them from
 *   the book in one linear pass (a stable sort's output minus some inputs is the sort of the rest);
 * - besides that a few new or edited orders (a placement, a PATCH, an order back from executing): parse only those,
 *   sort them among themselves and merge them into the book, one linear pass (`incremental`);
 * - anything else (many new orders, another policy, amounts beyond 2^53 arriving): rebuild.
 * An order's terms are compared field by field (status, amounts, expiry, wallet, updatedAt), so an edit is never
 * missed even when updatedAt did not move.
 */
export interface BookCache {
  /**
   * Plans a tick. With `diff` (held-candidates.ts: how these candidates derive from the book's own), the book is
   * updated from it without walking every candidate; a diff from other candidates than the book's is ignored.
   */
  plan(slug: string, input: PlanInput, diff?: CandidateDiff): ExecutionPlan
  /**
   * Brings the project's book up to date with these candidates without planning a tick, e.g. from the warm snapshot of
   * each block before a launch: the launch tick then finds the book built (the reused or incremental path, ~10-15 ms at
   * 100,000 orders) instead of building it (~50 ms), and the planning code already compiled. Returns the path taken.
   * With `diff`, the candidates are held ones (held-candidates.ts `prime`), taken as `plan` takes them: the launch
   * tick's diff from them then applies.
   */
  prepare(slug: string, input: Pick<PlanInput, 'candidates' | 'policy'>, diff?: CandidateDiff): BookUse
  forget(slug: string): void
  /** How the last plan(slug) got its book (for tests and metrics). */
  lastUse(slug: string): BookUse | undefined
  /** Whether the last plan(slug) edited its book's rows in place (patch-book-in-place.ts; for tests and metrics). */
  lastPatchedInPlace(slug: string): boolean
  /**
   * How many times the project's tick scratch (balance sets, index maps) had to grow in a tick: a book built by
   * `prepare` or a rebuild has them sized already, so held ticks after it read 0 (for tests).
   */
  scratchGrowths(slug: string): number
}

export type BookUse = 'rebuilt' | 'reused' | 'filtered' | 'incremental'

interface Entry {
  prepared: PreparedBook
  policy: PlanInput['policy']
  use: BookUse
  /** The book was patched in place (patch-book-in-place.ts). */
  inPlace?: boolean
  buffers: Buffers
  /** Rows of the prepared book's arrays when it was merged or patched (see BookRows): later patches edit them in place. */
  storage?: BookRows | undefined
  /** Rows no live book uses: the next merge that cannot patch in place writes into them. */
  spare?: BookRows | undefined
  /**
   * The held candidates (CandidateDiff.seq) the book was last brought to, when it was planned with a diff: its
   * `candidates` are then the held candidates' own array, which they reuse (held-candidates.ts Scratch).
   */
  heldSeq?: number | undefined
}

/**
 * Whether a diff describes the change from this book's own candidates: the same array, and (held candidates that number
 * their lists) the very list the book was brought to last. A tick whose finish ran but whose plan did not (a failed
 * quote or reservation read) breaks the chain: its diff never reached the book.
 */
const diffApplies = (entry: Entry, hint: CandidateDiff): boolean =>
  hint.from === entry.prepared.candidates && (hint.seq === undefined || (entry.heldSeq !== undefined && hint.fromSeq === entry.heldSeq))

const sameTerms = (a: CandidateOrder, b: CandidateOrder): boolean =>
  a.order.keyId === b.order.keyId &&
  a.order.slug === b.order.slug &&
  a.order.status === b.order.status &&
  a.order.maxSpendUsdc === b.order.maxSpendUsdc &&
  a.order.maxFdvUsdc === b.order.maxFdvUsdc &&
  a.order.expiresInMs === b.order.expiresInMs &&
  a.order.updatedAt === b.order.updatedAt &&
  // Exact spelling: a wallet spelt differently only costs a re-insert.
  a.wallet === b.wallet

/** How a reload relates to the book's candidates, with the balances the matched candidates carry. */
interface Refresh {
  /** New candidate index per old candidate index; -1: gone or edited. */
  newIndexOfOld: Int32Array
  /** New candidate indices with no unchanged old counterpart (new or edited orders), ascending. */
  arrived: number[]
  /** Balance per wallet index (of the matched candidates; arrivals are added after the merge). */
  value: Float64Array
  /** Candidate index whose balance `value` holds, per wallet index; -1: none. */
  source: Int32Array
  /** The old candidate at an old index when the old list was edited in place (BookChange.oldCandidate). */
  oldCandidate?: (index: number) => CandidateOrder | undefined
}

/** Look this far ahead for a candidate before searching the rest of the old list. */
const SHORT_LOOKAHEAD = 8
/** Merge arrivals into the book while they are at most this share of it (or 64); rebuild beyond. */
const MAX_ARRIVED_SHARE = 1 / 4

/**
 * Typed arrays reused between ticks: allocating ~1 MB of fresh ArrayBuffers per tick costs more (page faults, zeroing,
 * GC pressure) than the work done in them. Balances alternate between two sets: the current book's stay valid while the
 * next one's are filled.
 */
class Buffers {
  private order = new Int32Array(0)
  private byPosition = new Int32Array(0)
  private sets = [
    { value: new Float64Array(0), source: new Int32Array(0) },
    { value: new Float64Array(0), source: new Int32Array(0) },
  ]
  private turn = 0
  /** The project's decisions, rewritten by every plan (ExecutionPlan.decisions: valid until the next plan). */
  readonly decisions: OrderDecision[] = []
  /** How many times a tick's scratch had to grow (`reserve` not counted): for tests. */
  grown = 0

  /**
   * Every array a held tick of a book of `count` orders and `wallets` wallets uses, sized now: called when a book is
   * built (by `prepare` ahead of the tick path, or by the tick that rebuilds), so that its first quiet and PATCH ticks
   * neither allocate them (2-4 MB of typed arrays, zeroed and page-faulted in the tick) nor take the growing branch,
   * which optimised code compiled on smaller books has never run and deoptimises on (docs/execution.md "A book's first
   * held ticks"). Returns whether anything had to be allocated.
   */
  reserve(count: number, wallets: number): boolean {
    let grew = false
    if (this.order.length < count) {
      this.order = new Int32Array(Math.ceil(count * 1.25))
      grew = true
    }
    if (this.byPosition.length < count) {
      this.byPosition = new Int32Array(Math.ceil(count * 1.25))
      grew = true
    }
    for (const set of this.sets) {
      if (set.value.length >= wallets) continue
      set.value = new Float64Array(Math.ceil(wallets * 1.25))
      set.source = new Int32Array(Math.ceil(wallets * 1.25))
      grew = true
    }
    return grew
  }

  /** Scratch for one refresh (newIndexOfOld), filled with -1. */
  indices(count: number): Int32Array {
    if (this.order.length < count) {
      this.order = new Int32Array(Math.ceil(count * 1.25))
      this.grown++
    }
    const out = this.order.subarray(0, count)
    out.fill(-1)
    return out
  }

  /** Scratch for one merge (new input index per old position), to be overwritten. */
  positions(count: number): Int32Array {
    if (this.byPosition.length < count) {
      this.byPosition = new Int32Array(Math.ceil(count * 1.25))
      this.grown++
    }
    return this.byPosition.subarray(0, count)
  }

  /** The next balance set for `count` wallets: value zeroed, source -1. */
  balances(count: number): { value: Float64Array; source: Int32Array } {
    this.turn ^= 1
    const set = this.sets[this.turn]!
    if (set.value.length < count) {
      set.value = new Float64Array(Math.ceil(count * 1.25))
      set.source = new Int32Array(Math.ceil(count * 1.25))
      this.grown++
    }
    const value = set.value.subarray(0, count)
    const source = set.source.subarray(0, count)
    value.fill(0)
    source.fill(-1)
    return { value, source }
  }
}

/**
 * Pairs the reload's candidates with the book's by keyId, in order (matched pairs increase in both lists, which is what
 * lets a merge keep the book's priority order), and reads the matched candidates' balances in the same pass (one walk
 * over 100,000 objects instead of two): a walk over both lists with a short lookahead for removed orders, and a binary
 * search of the rest for candidates not found close by. An unchanged order record
 * (the same object, as the warm path hands out between writes) is recognised without reading its fields. Undefined
 * when more than `maxArrived` candidates are new or edited.
 */
/** Index of `key` in `list[from..]` by binary search on keyId (assuming that part sorted), or list.length. */
function sortedSearch(list: readonly CandidateOrder[], from: number, key: string): number {
  let lo = from
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (list[mid]!.order.keyId < key) lo = mid + 1
    else hi = mid
  }
  return lo < list.length && list[lo]!.order.keyId === key ? lo : list.length
}

function refresh(previous: PreparedBook, next: readonly CandidateOrder[], maxArrived: number, buffers: Buffers): Refresh | undefined {
  const old = previous.candidates
  const oldCount = old.length
  const walletOfOld = previous.walletOfInput
  const newIndexOfOld = buffers.indices(oldCount)
  const { value, source } = buffers.balances(previous.book.wallets.names.length)
  const arrived: number[] = []
  let j = 0
  for (let i = 0; i < next.length; i++) {
    const candidate = next[i]!
    const order = candidate.order
    let k = j
    if (k < oldCount && old[k]!.order !== order && old[k]!.order.keyId !== order.keyId) {
      const key = order.keyId
      const end = Math.min(oldCount, j + SHORT_LOOKAHEAD)
      k++
      while (k < end && old[k]!.order.keyId !== key) k++
      // Not close by: the loader lists orders by keyId, so search the rest as sorted. A hit is checked for equality, so
      // an unsorted list only costs arrivals (and, beyond maxArrived, a rebuild), never a wrong match.
      if (k === end) k = sortedSearch(old, end, key)
    }
    const match = k < oldCount ? old[k]! : undefined
    if (match !== undefined && (match.order === order ? match.wallet === candidate.wallet : sameTerms(match, candidate))) {
      newIndexOfOld[k] = i
      j = k + 1
      const w = walletOfOld[k]!
      value[w] = toSafeNumber(candidate.balanceAtoms)
      source[w] = i
    } else {
      // New, or edited (the old terms leave, the new ones arrive).
      if (match !== undefined) j = k + 1
      arrived.push(i)
      if (arrived.length > maxArrived) return undefined
    }
  }
  return { newIndexOfOld, arrived, value, source }
}

/**
 * The Refresh a held-candidates diff describes, without walking the candidates: the previous balances carried over
 * (remapped to the new candidate indices), the rebalanced wallets and those whose carrying candidate left re-read from
 * their candidates. Undefined when the diff does not apply to this book (then the walk decides).
 */
function fromHint(previous: PreparedBook, next: readonly CandidateOrder[], hint: CandidateDiff, maxArrived: number, buffers: Buffers): Refresh | undefined {
  const old = previous.candidates
  const previousSource = previous.balances.source
  if (hint.from !== old || previousSource === undefined || hint.arrived.length > maxArrived) return undefined
  const map = hint.newIndexOfOld
  // No index map but arrivals: orders edited in place (held-candidates.ts alignedEdits), each at its index, with the
  // candidates they replaced; every index maps to itself but the edited ones, which left and arrived again.
  const editedInPlace = map === undefined && hint.arrived.length > 0
  if (editedInPlace && hint.replaced?.length !== hint.arrived.length) return undefined
  if (map === undefined ? next.length !== old.length : map.length !== old.length) return undefined
  const walletOfOld = previous.walletOfInput
  const count = previous.book.wallets.names.length
  const { value, source } = buffers.balances(count)
  const carried = Math.min(count, previousSource.length, previous.balances.value.length)
  value.set(previous.balances.value.subarray(0, carried))
  source.set(previousSource.subarray(0, carried))
  const newIndexOfOld = buffers.indices(old.length)
  if (map === undefined) {
    for (let k = 0; k < old.length; k++) newIndexOfOld[k] = k
    if (editedInPlace) {
      for (const k of hint.arrived) newIndexOfOld[k] = -1
      remapSources(value, source, newIndexOfOld, next, walletOfOld)
    }
  } else {
    newIndexOfOld.set(map)
    remapSources(value, source, map, next, walletOfOld)
  }
  for (const k of hint.rebalanced) {
    const i = newIndexOfOld[k]!
    if (i < 0) continue
    const w = walletOfOld[k]!
    value[w] = toSafeNumber(next[i]!.balanceAtoms)
    if (source[w]! < i) source[w] = i
  }
  if (!editedInPlace) return { newIndexOfOld, arrived: hint.arrived as number[], value, source }
  const replaced = new Map(hint.arrived.map((k, j) => [k, hint.replaced![j]!]))
  return { newIndexOfOld, arrived: hint.arrived as number[], value, source, oldCandidate: (k) => replaced.get(k) ?? old[k] }
}

/** Balance sources to new indices; a wallet whose carrying candidate left takes its balance from one that stayed, if any. */
function remapSources(value: Float64Array, source: Int32Array, map: Int32Array, next: readonly CandidateOrder[], walletOfOld: Uint32Array): void {
  let orphans = 0
  for (let w = 0; w < source.length; w++) {
    const k = source[w]!
    if (k < 0) continue
    const i = map[k]!
    source[w] = i
    if (i < 0) {
      value[w] = 0
      orphans++
    }
  }
  if (orphans === 0) return
  const orphan = new Uint8Array(source.length)
  for (let w = 0; w < source.length; w++) if (source[w]! < 0 && value[w] === 0) orphan[w] = 1
  for (let k = 0; k < map.length; k++) {
    const i = map[k]!
    const w = walletOfOld[k]!
    if (i < 0 || orphan[w] === 0) continue
    value[w] = toSafeNumber(next[i]!.balanceAtoms)
    if (source[w]! < i) source[w] = i
  }
}

export function createBookCache(): BookCache {
  const entries = new Map<string, Entry>()

  function bookFor(entry: Entry | undefined, input: Pick<PlanInput, 'candidates' | 'policy'>, hint?: CandidateDiff): Entry {
    const entryOf = bookEntry(entry, input, hint)
    entryOf.heldSeq = hint?.seq
    return entryOf
  }

  function bookEntry(entry: Entry | undefined, input: Pick<PlanInput, 'candidates' | 'policy'>, hint?: CandidateDiff): Entry {
    const { candidates, policy } = input
    const applies = entry !== undefined && hint !== undefined && diffApplies(entry, hint)
    // A book built from held candidates that moved on without it (or a plan or prepare without their diff after them):
    // its candidates array may have been rewritten since (held-candidates.ts reuses it), so neither the diff nor a walk
    // over it can be trusted: rebuild (only after a tick whose plan never ran, or a reorg that made a launched project
    // wait again).
    const stale = entry !== undefined && !applies && entry.heldSeq !== undefined
    if (entry && entry.policy === policy && !stale) {
      const previous = entry.prepared
      if (applies && candidates === previous.candidates && hint!.rebalanced.length === 0 && hint!.arrived.length === 0) {
        // The very same candidates (a quiet tick of a held book): nothing to compare, nothing to re-read.
        return { ...entry, use: 'reused', inPlace: false }
      }
      const maxArrived = Math.max(64, Math.floor(candidates.length * MAX_ARRIVED_SHARE))
      // A list edited in place (hint.replaced) no longer holds the old terms a walk would compare: only the hint
      // describes it, else the book is rebuilt.
      const diff =
        (applies && fromHint(previous, candidates, hint!, maxArrived, entry.buffers)) ||
        (hint?.replaced && candidates === previous.candidates ? undefined : refresh(previous, candidates, maxArrived, entry.buffers))
      if (diff && diff.arrived.length === 0 && candidates.length === previous.candidates.length) {
        // Same orders, same places: only the candidates (fresh records and balances) change.
        const balances = balancesOf(diff.value, diff.source, candidates)
        const prepared = preparedBookOf(previous.book, candidates, previous.inputOf, previous.walletOfInput, balances, previous.records, previous.slotOf)
        return { prepared, policy, use: 'reused', buffers: entry.buffers, storage: entry.storage, spare: entry.spare }
      }
      if (diff) {
        // A few orders left or arrived: edit the book's own rows (only those between the edits move).
        const patched = entry.storage && patchBookInPlace(previous, candidates, diff, entry.storage)
        if (patched) {
          const use = diff.arrived.length === 0 ? 'filtered' : 'incremental'
          // The spare rows are not needed while patches succeed: let them go (a merge allocates again).
          return { prepared: patched, policy, use, inPlace: true, buffers: entry.buffers, storage: entry.storage, spare: undefined }
        }
        // Otherwise two storages alternate: the book being replaced frees its own for the merge after this one.
        const storage = fitBookRows(entry.spare, candidates.length)
        const merged = mergeInto(previous, candidates, diff, entry.buffers, storage)
        if (merged) {
          const use = diff.arrived.length === 0 ? 'filtered' : 'incremental'
          return { prepared: merged, policy, use, buffers: entry.buffers, storage, spare: entry.storage }
        }
      }
    }
    const built = prepareBook(candidates, policy)
    const buffers = entry?.buffers ?? new Buffers()
    buffers.reserve(built.candidates.length, built.book.wallets.names.length)
    // The built book moved into rows of its own, so that its first PATCH is patched in place (it was merged: the whole
    // book copied into newly allocated rows, 70-85 ms of that tick, docs/execution.md "No array of the book's size per
    // tick"). The replaced book's storage becomes the spare; rows the previous spare had are reused.
    const stored = intoRows(built, entry?.spare)
    if (stored) {
      return { prepared: stored.prepared, policy, use: 'rebuilt', buffers, storage: stored.rows, spare: entry?.storage }
    }
    return {
      prepared: built,
      policy,
      use: 'rebuilt',
      buffers,
      storage: undefined,
      spare: entry?.storage ?? entry?.spare,
    }
  }

  return {
    plan(slug, input, diff) {
      const entry = bookFor(entries.get(slug), input, diff)
      entries.set(slug, entry)
      return planPrepared(entry.prepared, input, entry.buffers.decisions)
    },
    prepare(slug, input, diff) {
      const entry = bookFor(entries.get(slug), input, diff)
      entries.set(slug, entry)
      return entry.use
    },
    forget: (slug) => void entries.delete(slug),
    lastUse: (slug) => entries.get(slug)?.use,
    lastPatchedInPlace: (slug) => entries.get(slug)?.inPlace === true,
    scratchGrowths: (slug) => entries.get(slug)?.buffers.grown ?? 0,
  }
}

/**
 * A built book copied into BookRows (seven column copies, a memcpy each: ~1 ms at 100,000 orders, off the tick path
 * when `prepare` builds it), the prepared book over them; undefined for a book the in-place patch does not take
 * (another policy, amounts beyond 2^53).
 */
function intoRows(prepared: PreparedBook, spare: BookRows | undefined): { prepared: PreparedBook; rows: BookRows } | undefined {
  const { book } = prepared
  if (book.policy !== spendThenLimitPolicy || !book.exact || book.spendExact !== undefined || book.limitExact !== undefined) return undefined
  const n = book.size
  if (n === 0) return undefined
  const rows = fitBookRows(spare, n)
  const storage = rows.book
  storage.spend.set(book.spend)
  storage.limit.set(book.limit)
  storage.expiresInMs.set(book.expiresInMs)
  storage.active.set(book.active)
  storage.walletOf.set(book.walletOf)
  storage.permutation.set(book.permutation)
  rows.slotOf.set(prepared.slotOf)
  rows.walletOfInput.set(prepared.walletOfInput)
  countWalletSums(rows, n, book.wallets.names.length)
  const stored = storedOrderBook(storage, n, book.wallets, book.policy, true)
  const { candidates, balances, records } = prepared
  return {
    prepared: preparedBookOf(stored, candidates, stored.permutation, rows.walletOfInput.subarray(0, n), balances, records, rows.slotOf.subarray(0, n)),
    rows,
  }
}

/** The previous book minus the orders that left, plus the arrivals, in priority order; undefined: rebuild instead. */
function mergeInto(
  previous: PreparedBook,
  candidates: readonly CandidateOrder[],
  diff: Refresh,
  buffers: Buffers,
  storage: BookRows,
): PreparedBook | undefined {
  const { book: old, inputOf: oldInputOf } = previous
  const newIndexOf = mapPositions(oldInputOf, diff.newIndexOfOld, buffers.positions(old.size))
  const arrivedIndices = Uint32Array.from(diff.arrived)
  const columns = candidateColumns(candidates, old.wallets, arrivedIndices)
  const merged = mergeOrderBook(old, newIndexOf, { ...columns, inputIndex: arrivedIndices }, storage.book)
  if (!merged) return undefined
  const { book, source } = merged
  const m = book.size
  const records = previous.records
  // Too many dead slots (orders long gone): start the shared records afresh.
  const fresh = records.keyId.length + columns.keyId.length > 2 * m + 1_024
  const target: DecisionRecords = fresh ? { keyId: [], slug: [], byCode: [], deferred: [] } : records
  const slotOf = storage.slotOf.subarray(0, m)
  const walletOfInput = scatterWallets(book.permutation, book.walletOf, storage.walletOfInput.subarray(0, m))
  let { value, source: balanceSource } = diff
  if (value.length < book.wallets.names.length) {
    // Arrivals brought new wallets.
    const count = book.wallets.names.length
    const grownValue = new Float64Array(count)
    const grownSource = new Int32Array(count).fill(-1)
    grownValue.set(value)
    grownSource.set(balanceSource)
    value = grownValue
    balanceSource = grownSource
  }
  if (fresh) freshSlots(source, previous.slotOf, records, columns, target, slotOf)
  else carrySlots(source, previous.slotOf, slotOf)
  const arrivals = arrivalPositions(source, diff.arrived.length)
  for (const q of arrivals) {
    const input = book.permutation[q]!
    const w = book.walletOf[q]!
    // The last candidate of a wallet (in input order) stands for its balance, as in candidateBalances.
    if (balanceSource[w]! < input) {
      value[w] = toSafeNumber(candidates[input]!.balanceAtoms)
      balanceSource[w] = input
    }
    if (!fresh) {
      const x = -source[q]! - 1
      slotOf[q] = target.keyId.length
      target.keyId.push(columns.keyId[x]!)
      target.slug.push(columns.slug[x]!)
    }
  }
  return preparedBookOf(book, candidates, book.permutation, walletOfInput, balancesOf(value, balanceSource, candidates), target, slotOf)
}

// mergeInto's loops are small functions with nothing after their loop (see the same note in order-book.ts).

function mapPositions(oldInputOf: Uint32Array, newIndexOfOld: Int32Array, out: Int32Array): Int32Array {
  for (let p = 0; p < out.length; p++) out[p] = newIndexOfOld[oldInputOf[p]!]!
  return out
}

function scatterWallets(permutation: Uint32Array, walletOf: Uint32Array, out: Uint32Array): Uint32Array {
  for (let q = 0; q < permutation.length; q++) out[permutation[q]!] = walletOf[q]!
  return out
}

/** Surviving positions keep their slot (arrivals get theirs after). */
function carrySlots(source: Int32Array, previousSlotOf: Uint32Array, slotOf: Uint32Array): Uint32Array {
  for (let q = 0; q < source.length; q++) {
    const from = source[q]!
    if (from >= 0) slotOf[q] = previousSlotOf[from]!
  }
  return slotOf
}

/** Every position a new slot, numbered in priority order, with its keyId and slug. */
function freshSlots(
  source: Int32Array,
  previousSlotOf: Uint32Array,
  records: DecisionRecords,
  columns: { keyId: readonly string[]; slug: readonly string[] },
  target: DecisionRecords,
  slotOf: Uint32Array,
): Uint32Array {
  for (let q = 0; q < source.length; q++) {
    const from = source[q]!
    slotOf[q] = q
    target.keyId.push(from >= 0 ? records.keyId[previousSlotOf[from]!]! : columns.keyId[-from - 1]!)
    target.slug.push(from >= 0 ? records.slug[previousSlotOf[from]!]! : columns.slug[-from - 1]!)
  }
  return slotOf
}

/** Positions of the arrivals (negative sources). */
function arrivalPositions(source: Int32Array, count: number): number[] {
  const out: number[] = []
  if (count === 0) return out
  for (let q = 0; q < source.length; q++) if (source[q]! < 0) out.push(q)
  return out
}
