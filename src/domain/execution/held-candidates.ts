import type { Address } from 'viem'
import type { OrderRecord } from '../records.ts'
import type { CandidateOrder } from './prepared-book.ts'
import { resizeArray } from './resize-array.ts'
import { lowerWallet } from './wallet-index.ts'

/** An active order with its buyer, as the executor loads it (no balance yet). */
export interface HeldOrder {
  order: OrderRecord
  userIndex: number
  followers: number
  wallet: Address
}

/**
 * Where the tick's balances come from: a map by lower-cased wallet (the warm snapshot of the tick's block), and the
 * identity of that balance state. `since` says the state was derived from state `since.serial` (the block before) by
 * re-reading exactly the wallets in `since.changed` (the stablecoin's Transfer logs of the block): every other wallet's
 * balance is the one it had in state `since.serial`.
 */
export interface TickBalances {
  known: ReadonlyMap<string, bigint>
  state?: BalanceState | undefined
}

export interface BalanceState {
  serial: number
  since?: { serial: number; changed: ReadonlySet<string> } | undefined
}

/**
 * How a tick's candidates relate to the previous tick's (`from`), for the book cache (book-cache.ts) to update its
 * book without walking 100,000 candidates: `newIndexOfOld` (undefined: the same list, index for index), `arrived` (new
 * indices with no counterpart in `from`: new or edited orders), `rebalanced` (indices into `from` of candidates that
 * stayed with the same order, wallet and buyer and only a new balance).
 */
export interface CandidateDiff {
  from: readonly CandidateOrder[]
  newIndexOfOld: Int32Array | undefined
  arrived: readonly number[]
  rebalanced: readonly number[]
  /**
   * Which held candidates these are (`seq`, unique in the process) and which ones `from` was (`fromSeq`, 0: none). The
   * held candidates reuse their arrays (the quiet path edits `from` itself, a PATCH writes into the array of the tick
   * before `from`), so a book built from held candidates can trust them only while every diff since reached it: the
   * book cache applies a diff only when `fromSeq` is the `seq` its book was built from, and rebuilds when its book came
   * from held candidates that moved on without it (a tick whose plan never ran). `newIndexOfOld` is scratch, valid
   * until the project's next `begin`.
   */
  seq?: number
  fromSeq?: number
  /**
   * With `newIndexOfOld` undefined and arrivals (orders edited in place, each at its index: held-candidates.ts
   * `alignedEdits`): the candidates `from` held at those indices before (`from` itself now holds the new ones), in the
   * order of `arrived`. A reader of `from`'s old terms reads these instead.
   */
  replaced?: readonly CandidateOrder[]
}

/** One tick's candidates: the wallets to read (none known for the block), then `finish` with what was read. */
export interface CandidateStep<C> {
  /** Wallets (one spelling each) whose balance is unknown for the tick's block: read them, as the tick always did. */
  missing: Address[]
  finish(fresh: ReadonlyMap<string, bigint>): { candidates: C[]; diff: CandidateDiff }
}

export interface HeldCandidates<L extends HeldOrder, C extends CandidateOrder & HeldOrder> {
  /** The project's candidates for this tick's loaded orders and balances. Call `finish` before the next `begin`. */
  begin(slug: string, loaded: readonly L[], balances: TickBalances | undefined): CandidateStep<C>
  /**
   * The project's candidates brought to these orders and balances without a tick, as a tick's `begin` and `finish`
   * would (the readying pass, each block before a launch: the launch tick's `begin` then takes the quiet step, ~0.1 ms,
   * where a project never held built every candidate and wallet slot, 6-10 ms at 5,000 orders). Wallets `balances`
   * lacks are left unknown, as a failed read leaves them: the next tick looks them up. Undefined, and nothing changed,
   * while a tick's step of the project is open (begun, not finished).
   */
  prime(slug: string, loaded: readonly L[], balances: TickBalances): { candidates: C[]; diff: CandidateDiff } | undefined
  forget(slug: string): void
}

interface Held<L, C> {
  loaded: readonly L[]
  candidates: C[]
  /** Wallet slot per candidate. */
  slotOf: Int32Array
  /** Lower-cased wallet per slot, the spelling to read it by, its balance (undefined: unknown, read it). */
  names: string[]
  spelling: Address[]
  balance: Array<bigint | undefined>
  slots: Map<string, number>
  /** The balance state the known balances belong to; undefined: none (the next tick reads every balance again). */
  serial: number | undefined
  /** Per slot, its first candidate, and per candidate the next one of its slot (-1: none): a wallet's candidates. */
  firstOf: Int32Array
  nextOf: Int32Array
  /** Slots of candidates whose balance the last read did not return (unknown: looked up again next tick). */
  unknown: number[]
  /** Which candidates `candidates` holds (CandidateDiff.seq); 0: none yet. */
  seq: number
  /** Reused arrays (no array of the book's size per tick, see Scratch). */
  scratch: Scratch<C>
  /**
   * A write-path begin edited `balance` in place and its finish has not run (a failed balance read): the balances no
   * longer say what the held candidates carry, so the next begin starts afresh.
   */
  pending: boolean
  /** A step was begun and its finish has not run (`prime` then leaves the project alone). */
  open: boolean
}

/**
 * Arrays a tick of one project reuses instead of allocating them (issue 23 item 4): a JS array of 100,000 entries goes
 * straight to V8's large-object space, and one per tick was old-generation garbage bringing 27-63 ms mark-compact
 * pauses; typed arrays add external memory, which triggers full collections too (docs/execution.md "No array of the
 * book's size per tick"). Capacities grow by a quarter when needed; views of the used length are handed out.
 * - `candidates`/`slots`: two of each, alternating: a write's new candidates and slot per candidate are written into
 *   the pair the held ones do not use (the held ones are read while the new ones are written, and `from` is the book's
 *   previous candidates, whose terms its in-place patch reads to find the leavers).
 * - `index`, `oldOf`, `needed`, `dirty`: one tick's scratch (begin to finish; `index` is the diff's newIndexOfOld).
 * - `first`/`next`: the held slot chains, rewritten in place.
 */
interface Scratch<C> {
  candidates: [C[], C[]]
  slots: [Int32Array, Int32Array]
  index: Int32Array
  oldOf: Int32Array
  needed: Uint8Array
  dirty: Uint8Array
  first: Int32Array
  next: Int32Array
}

/** `array`, or a longer one (by a quarter, contents not kept) when it has fewer than `count` entries. */
function room<T extends Int32Array | Uint8Array>(array: T, count: number, make: (length: number) => T): T {
  return array.length >= count ? array : make(Math.ceil(count * 1.25) + 16)
}

// Candidate lists held in the process: each finish numbers its result (CandidateDiff.seq).
let lastSeq = 0

/** Look this far ahead for a loaded order before searching the rest of the previous list. */
const SHORT_LOOKAHEAD = 8

/**
 * The same order record, or one with the same content: the loader parses every record afresh after any write
 * (load-orders.ts), so a PATCH hands back 100,000 new records of which one differs. Every field is compared
 * (`execution` by identity: an order carrying one is only rebuilt).
 */
const sameOrder = (a: OrderRecord, b: OrderRecord): boolean =>
  a === b ||
  (a.keyId === b.keyId &&
    a.slug === b.slug &&
    a.status === b.status &&
    a.maxSpendUsdc === b.maxSpendUsdc &&
    a.maxFdvUsdc === b.maxFdvUsdc &&
    a.expiresInMs === b.expiresInMs &&
    a.createdAt === b.createdAt &&
    a.updatedAt === b.updatedAt &&
    a.execution === b.execution)

/** The same loaded order: the same record content, wallet, buyer and follower count (the loader reuses such entries). */
export const sameHeldOrder = (a: HeldOrder, b: HeldOrder): boolean =>
  a === b || (a.wallet === b.wallet && a.userIndex === b.userIndex && a.followers === b.followers && sameOrder(a.order, b.order))

/** Index of `key` in `list[from..]` by binary search on keyId (the loader lists orders by keyId), or list.length. */
function sortedSearch(list: readonly HeldOrder[], from: number, key: string): number {
  let lo = from
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (list[mid]!.order.keyId < key) lo = mid + 1
    else hi = mid
  }
  return lo < list.length && list[lo]!.order.keyId === key ? lo : list.length
}

/**
 * The executor's candidates per project, held between ticks: the candidate objects and a balance per wallet (by slot).
 * A tick builds a candidate only for a new or edited order, or for an order whose wallet's balance changed, and looks up
 * only the wallets that may have changed: with the same loaded orders and no balance change it hands back the very same
 * array (the book cache then reuses its book outright). Rebuilding 100,000 candidates with three map lookups each was
 * 62 ms of a 104 ms tick (execution bench, 2026-11-26).
 *
 * A wallet's balance is kept only while it is known to be that of the tick's block: it is carried to the next tick only
 * when that tick's balance state was derived from the state it was read in (`since`), and then not for the wallets in
 * `since.changed`. Anything else (no snapshot, a snapshot not derived from the previous one, a reorg, a skipped block,
 * a failed read) makes it unknown, and an unknown balance is looked up in the tick's map or read, as before.
 */
export function createHeldCandidates<L extends HeldOrder, C extends CandidateOrder & HeldOrder>(
  candidateOf: (loaded: L, balanceAtoms: bigint) => C,
): HeldCandidates<L, C> {
  const held = new Map<string, Held<L, C>>()

  const api: HeldCandidates<L, C> = {
    begin(slug, loaded, balances) {
      let h = held.get(slug) ?? fresh<L, C>()
      if (h.pending) h = fresh<L, C>()
      // Wallets of orders long gone: start the slots afresh (their balances are then looked up again).
      if (h.names.length > 2 * loaded.length + 1_024) h = fresh<L, C>()
      const state = balances?.state
      held.set(slug, h)
      h.open = true
      // The quiet path first: it touches only the block's changed wallets, so it must not pay for a copy of every
      // wallet's balance (a 100,000-entry array per tick, garbage in the old generation: ~0.5 ms and the major GCs it
      // brings, docs/execution.md "The whole tick on a quieter machine").
      if (state !== undefined && h.serial !== undefined && (state.serial === h.serial || state.since?.serial === h.serial)) {
        if (loaded === h.loaded) return quietStep(h, loaded, balances!.known, state, candidateOf, NO_EDITS)
        // A write that edited a few orders, each at its index (the loader's patch keeps every other entry): the same
        // step, the edited candidates replaced in the held array too. Rebuilding the list instead stored a pointer per
        // order (matchLoaded: 3 ms at 17,000 orders in the daemon, docs/execution.md "The tick after a PATCH, traced stage by stage").
        const edits = alignedEdits(h.loaded, loaded, MAX_ALIGNED_EDITS)
        if (edits !== undefined) return quietStep(h, loaded, balances!.known, state, candidateOf, edits)
      }
      // This tick's balances per slot, committed by finish. Carried from the held state, they are edited in place (no
      // copy of 100,000 entries per write): a changed wallet's entry becomes unknown at once, which is what it is for
      // this state, and stays so if finish never runs (the next tick looks it up again); `before[s]` then reads
      // undefined, which only marks the slot dirty (finish compares the candidate's balance before rebuilding it).
      const before = h.balance
      let balance: Array<bigint | undefined>
      if (state === undefined || h.serial === undefined || (state.serial !== h.serial && state.since?.serial !== h.serial)) {
        balance = new Array(before.length).fill(undefined)
      } else {
        balance = before
        h.pending = true
        if (state.serial !== h.serial) {
          for (const wallet of state.since!.changed) {
            const s = h.slots.get(lowerWallet(wallet))
            if (s !== undefined) balance[s] = undefined
          }
        }
      }

      // The loaded orders against the previous ones: matched ones keep their candidate (and slot).
      const old = h.loaded
      const from = h.candidates
      const sameList = loaded === old
      const n = loaded.length
      const x = h.scratch
      // The pair the held candidates do not use (a fresh project's held arrays are in neither).
      const turn = x.candidates[0] === from ? 1 : 0
      if (!sameList) {
        const spare = x.slots[turn]!
        if (spare.buffer === h.slotOf.buffer || spare.length < n) x.slots[turn] = new Int32Array(Math.ceil(n * 1.25) + 16)
        x.index = room(x.index, old.length, (length) => new Int32Array(length))
        x.oldOf = room(x.oldOf, n, (length) => new Int32Array(length))
      }
      if (!sameList && old.length === 0 && n > 0 && x.candidates[turn ^ 1] !== from && x.slots[turn ^ 1]!.buffer !== h.slotOf.buffer) {
        // The project's held state built (the first tick after a start or a launch, a tick that builds anyway): the other
        // list and slot map, and the write path's scratch, sized for the book now, so that its first PATCH does not
        // grow them (100,000 pushes and fresh typed arrays on that tick). Never the held ones (`from`, `h.slotOf`): a
        // project whose held list was empty holds them in a pair too.
        resizeArray(x.candidates[turn ^ 1]!, n, undefined)
        if (x.slots[turn ^ 1]!.length < n) x.slots[turn ^ 1] = new Int32Array(Math.ceil(n * 1.25) + 16)
        x.index = room(x.index, n, (length) => new Int32Array(length))
      }
      const slotOf = sameList ? h.slotOf : x.slots[turn]!.subarray(0, n)
      const newIndexOfOld = sameList ? undefined : x.index.subarray(0, old.length).fill(-1)
      const oldOf = sameList ? undefined : x.oldOf.subarray(0, n).fill(-1)
      let matched: Array<C | undefined>
      if (sameList) {
        matched = from
      } else {
        matched = resizeArray(x.candidates[turn]!, n, undefined)
      }
      const arrived: number[] = []
      if (!sameList) {
        matchLoaded(old, loaded, from, h.slotOf, newIndexOfOld!, oldOf!, matched, slotOf, arrived)
        // The arrivals' wallets (a few per write), in input order, after the loop over every order.
        for (const i of arrived) slotOf[i] = slotFor(h, loaded[i]!.wallet)
        // The new slots' balances, unknown (`balance` is the held array, or a fresh one of its former length).
        while (balance.length < h.names.length) balance.push(undefined)
      }

      // Balances unknown for this state: from the tick's map, else read. A slot is dirty when its balance may differ
      // from the one its held candidates carry (they carry `before[s]` whenever that is known).
      const { names } = h
      x.needed = room(x.needed, names.length, (length) => new Uint8Array(length))
      x.dirty = room(x.dirty, names.length, (length) => new Uint8Array(length))
      const needed = x.needed.subarray(0, names.length).fill(0)
      markNeeded(slotOf, balance, needed)
      // Read in finish for every slot, written here only for the needed ones: the rest must read 0.
      const dirty = x.dirty.subarray(0, names.length).fill(0)
      const missingSlots: number[] = []
      const known = balances?.known
      for (let s = 0; s < names.length; s++) {
        if (needed[s] === 0) continue
        const value = known?.get(names[s]!)
        // Before the assignment: `balance` may be `before` itself (edited in place).
        dirty[s] = value === undefined || before[s] === undefined || value !== before[s] ? 1 : 0
        if (value === undefined) missingSlots.push(s)
        else balance[s] = value
      }

      return {
        missing: missingSlots.map((s) => h.spelling[s]!),
        finish(read) {
          // A wallet the read did not return counts as 0 for this tick (as before) and stays unknown.
          for (const s of missingSlots) balance[s] = read.get(names[s]!)
          const rebalanced: number[] = []
          const candidates = buildCandidates(loaded, from, matched, sameList ? undefined : oldOf!, slotOf, dirty, balance, candidateOf, rebalanced)
          const seq = ++lastSeq
          const diff: CandidateDiff = { from, newIndexOfOld, arrived, rebalanced, seq, fromSeq: h.seq }
          h.seq = seq
          h.balance = balance
          h.pending = false
          h.unknown = missingSlots.filter((s) => balance[s] === undefined)
          if (!sameList || h.nextOf.length !== n) linkSlots(h, slotOf)
          h.loaded = loaded
          h.candidates = candidates
          h.slotOf = slotOf
          h.serial = state?.serial
          h.open = false
          return { candidates, diff }
        },
      }
    },
    prime(slug, loaded, balances) {
      if (held.get(slug)?.open) return undefined
      return api.begin(slug, loaded, balances).finish(NOTHING_READ)
    },
    forget: (slug) => void held.delete(slug),
  }
  return api
}

// `fresh`, `slotFor` and `quietStep` are module functions, not closures of createHeldCandidates: `begin` is compiled
// once for every instance (its closures share their feedback), and a call to a closure of another instance is a
// "wrong call target" deoptimisation; the executor's instance is not the one warm-held-ticks.ts warmed the code with
// (docs/execution.md "A book's first held ticks").

function fresh<L, C>(): Held<L, C> {
  return {
    loaded: [],
    candidates: [],
    slotOf: new Int32Array(0),
    names: [],
    spelling: [],
    balance: [],
    slots: new Map(),
    serial: undefined,
    firstOf: new Int32Array(0),
    nextOf: new Int32Array(0),
    unknown: [],
    pending: false,
    open: false,
    seq: 0,
    scratch: {
      candidates: [[], []],
      slots: [new Int32Array(0), new Int32Array(0)],
      index: new Int32Array(0),
      oldOf: new Int32Array(0),
      needed: new Uint8Array(0),
      dirty: new Uint8Array(0),
      first: new Int32Array(0),
      next: new Int32Array(0),
    },
  }
}

function slotFor<L, C>(h: Held<L, C>, wallet: Address): number {
  const name = lowerWallet(wallet)
  let s = h.slots.get(name)
  if (s === undefined) {
    s = h.names.length
    h.slots.set(name, s)
    h.names.push(name)
    h.spelling.push(wallet)
    h.balance.push(undefined)
  }
  return s
}

/**
 * The same loaded orders, balances carried: only the wallets in the block's changes (and those left unknown) are
 * looked up, and only their candidates touched. A quiet tick with no change hands back the same array. With `edits`
 * (indices whose entry was replaced by an edit of the same order, wallet and buyer: alignedEdits), those candidates are
 * rebuilt in the held array as well and reported as arrived, with the candidates they replaced.
 */
function quietStep<L extends HeldOrder, C extends CandidateOrder & HeldOrder>(
  h: Held<L, C>,
  loaded: readonly L[],
  known: ReadonlyMap<string, bigint>,
  state: BalanceState,
  candidateOf: (loaded: L, balanceAtoms: bigint) => C,
  edits: readonly number[],
): CandidateStep<C> {
  const touched = new Set<number>(h.unknown)
  if (state.serial !== h.serial) {
    for (const wallet of state.since!.changed) {
      const s = h.slots.get(lowerWallet(wallet))
      if (s !== undefined && h.firstOf[s]! >= 0) touched.add(s)
    }
  }
  const value = new Map<number, bigint | undefined>()
  const missingSlots: number[] = []
  for (const s of touched) {
    const v = known.get(h.names[s]!)
    if (v === undefined) missingSlots.push(s)
    else value.set(s, v)
  }
  return {
    missing: missingSlots.map((s) => h.spelling[s]!),
    finish(read) {
      for (const s of missingSlots) value.set(s, read.get(h.names[s]!))
      // The rebalanced candidates are replaced in the held array itself, not in a copy of it (a 100,000-entry array
      // per block, old-generation garbage: the major GCs of docs/execution.md "The whole tick on a quieter
      // machine"). The array is the book's previous candidates too (diff.from): the book cache reads only the
      // rebalanced entries of it (fromHint, by index) and the edited ones' old terms from `replaced`, and a plan's
      // candidatesInPriority is read before the project's next plan (executor-plan.ts), so no reader sees the array
      // change under it.
      const from = h.candidates
      const replaced: C[] = []
      for (const i of edits) {
        const s = h.slotOf[i]!
        replaced.push(from[i]!)
        from[i] = candidateOf(loaded[i]!, (value.has(s) ? value.get(s) : h.balance[s]) ?? 0n)
      }
      const rebalanced: number[] = []
      for (const [s, v] of value) {
        const tick = v ?? 0n
        for (let i = h.firstOf[s]!; i >= 0; i = h.nextOf[i]!) {
          if (from[i]!.balanceAtoms === tick) continue
          from[i] = candidateOf(loaded[i]!, tick)
          rebalanced.push(i)
        }
      }
      for (const [s, v] of value) h.balance[s] = v
      h.unknown = missingSlots.filter((s) => value.get(s) === undefined)
      h.serial = state.serial
      h.loaded = loaded
      const seq = ++lastSeq
      const diff: CandidateDiff = {
        from,
        newIndexOfOld: undefined,
        arrived: edits.length > 0 ? (edits as number[]) : [],
        rebalanced: rebalanced.sort((a, b) => a - b),
        seq,
        fromSeq: h.seq,
        ...(edits.length > 0 ? { replaced } : {}),
      }
      h.seq = seq
      h.open = false
      return { candidates: from, diff }
    },
  }
}

const NO_EDITS: readonly number[] = []

/** `prime`'s balance read: none (the wallets the snapshot lacks stay unknown). */
const NOTHING_READ: ReadonlyMap<string, bigint> = new Map()

/** At most this many orders edited in place (beyond: the list is rebuilt, as for any other write). */
export const MAX_ALIGNED_EDITS = 64

/**
 * The indices where `loaded` holds another entry than `old` for the same order, wallet and buyer (a PATCH of a few
 * orders: the loader's patch keeps every other entry, load-orders.ts), ascending; undefined when the lists differ
 * otherwise (another length, an order added or removed, another wallet or buyer) or in more than `max` places. Reads
 * the two lists only: no store per order.
 */
function alignedEdits(old: readonly HeldOrder[], loaded: readonly HeldOrder[], max: number): number[] | undefined {
  if (old.length !== loaded.length) return undefined
  const edits: number[] = []
  for (let i = 0; i < loaded.length; i++) {
    const a = old[i]!
    const b = loaded[i]!
    if (a === b) continue
    if (edits.length === max || a.order.keyId !== b.order.keyId || a.wallet !== b.wallet || a.userIndex !== b.userIndex) return undefined
    edits.push(i)
  }
  return edits
}

// begin's and finish's loops over every loaded order are small functions returning right after their loop, touching
// only the lists and arrays they are given (as executor-plan.ts's and book-cache.ts's): V8 compiles a hot loop on the
// stack, mid-call, and a function holding several of them, reading the project's held state besides, was deoptimised
// and recompiled on a book's first held ticks, running 100,000 iterations unoptimised meanwhile (docs/execution.md "A
// book's first held ticks").

/**
 * Pairs the loaded orders with the previous ones (both in keyId order: a short lookahead, then a binary search):
 * matched ones keep their candidate and slot; the others are `arrived` (their slots are the caller's to assign).
 */
function matchLoaded<L extends HeldOrder, C extends HeldOrder>(
  old: readonly L[],
  loaded: readonly L[],
  from: readonly C[],
  heldSlotOf: Int32Array,
  newIndexOfOld: Int32Array,
  oldOf: Int32Array,
  matched: Array<C | undefined>,
  slotOf: Int32Array,
  arrived: number[],
): void {
  let j = 0
  for (let i = 0; i < loaded.length; i++) {
    const l = loaded[i]!
    let k = j
    if (k < old.length && old[k] !== l && old[k]!.order.keyId !== l.order.keyId) {
      const end = Math.min(old.length, j + SHORT_LOOKAHEAD)
      k++
      while (k < end && old[k]!.order.keyId !== l.order.keyId) k++
      if (k === end) k = sortedSearch(old, end, l.order.keyId)
    }
    if (k < old.length && sameHeldOrder(old[k]!, l)) {
      newIndexOfOld[k] = i
      oldOf[i] = k
      const kept = from[k]!
      // The same content in another entry: point the kept candidate at the record the snapshot holds (no second
      // copy kept alive). The same entry (the loader reuses unchanged ones) needs no look at the candidate.
      if (old[k] !== l && kept.order !== l.order) kept.order = l.order
      matched[i] = kept
      slotOf[i] = heldSlotOf[k]!
      j = k + 1
    } else {
      if (k < old.length) j = k + 1
      // Explicitly: the reused array still holds a candidate of two writes ago here.
      matched[i] = undefined
      arrived.push(i)
    }
  }
}

/** Marks the slots whose balance is unknown for this state. */
function markNeeded(slotOf: Int32Array, balance: ReadonlyArray<bigint | undefined>, needed: Uint8Array): void {
  for (let i = 0; i < slotOf.length; i++) {
    const s = slotOf[i]!
    if (balance[s] === undefined) needed[s] = 1
  }
}

/**
 * The tick's candidates: the matched ones kept unless their slot is dirty and the balance moved, a new candidate for
 * those and for the arrivals. Without `oldOf` (the same loaded list) `from` is copied only when one changes; with it,
 * `matched` (the spare list) is written in place. Rebalanced candidates are listed by their index in `from`.
 */
function buildCandidates<L extends HeldOrder, C extends CandidateOrder & HeldOrder>(
  loaded: readonly L[],
  from: C[],
  matched: Array<C | undefined>,
  oldOf: Int32Array | undefined,
  slotOf: Int32Array,
  dirty: Uint8Array,
  balance: ReadonlyArray<bigint | undefined>,
  candidateOf: (loaded: L, balanceAtoms: bigint) => C,
  rebalanced: number[],
): C[] {
  let out: C[] | undefined = oldOf === undefined ? undefined : (matched as C[])
  for (let i = 0; i < loaded.length; i++) {
    const s = slotOf[i]!
    const current = matched[i]
    if (current !== undefined && dirty[s] === 0) continue
    const value = balance[s] ?? 0n
    if (current !== undefined && current.balanceAtoms === value) continue
    out ??= from.slice()
    out[i] = candidateOf(loaded[i]!, value)
    if (current !== undefined) rebalanced.push(oldOf === undefined ? i : oldOf[i]!)
  }
  return out ?? from
}

/** Each slot's candidates as a chain (firstOf, nextOf), in ascending candidate order, in the held arrays. */
function linkSlots<C>(h: Held<unknown, C>, slotOf: Int32Array): void {
  const x = h.scratch
  x.first = room(x.first, h.names.length, (length) => new Int32Array(length))
  x.next = room(x.next, slotOf.length, (length) => new Int32Array(length))
  const firstOf = x.first.subarray(0, h.names.length).fill(-1)
  const nextOf = x.next.subarray(0, slotOf.length)
  for (let i = slotOf.length - 1; i >= 0; i--) {
    const s = slotOf[i]!
    nextOf[i] = firstOf[s]!
    firstOf[s] = i
  }
  h.firstOf = firstOf
  h.nextOf = nextOf
}
