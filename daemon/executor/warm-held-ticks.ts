import type { Address } from 'viem'
import { createBookCache } from '../../src/domain/execution/book-cache.ts'
import { sameVerdicts, type PlanInput } from '../../src/domain/execution/executor-plan.ts'
import { createHeldCandidates, type TickBalances } from '../../src/domain/execution/held-candidates.ts'
import { spendThenLimitPolicy } from '../../src/domain/execution/prioritisation.ts'
import { quietRecordOf, type RecordedBook, recordedBook } from '../../src/domain/execution/decision-delta.ts'
import { createFundedCandidates } from '../../src/domain/execution/funded-candidates.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import { candidateOf, type LoadedOrder } from './warm-books.ts'
import { createInterner } from '../../src/common/compact-strings.ts'
import { internOrder } from './intern-order.ts'

export interface WarmHeldTicksOptions {
  /** Orders of the synthetic book (default 4,000: loops long enough for V8 to compile them, ~1/25 of a 100,000 book). */
  orders?: number
  /** Rounds of quiet tick, PATCH tick and the tick back (default 16). */
  rounds?: number
  /** Orders of the large book built and PATCHed once half-way (default 17,000; at least `orders`). */
  largeOrders?: number
}

/** What the warm-up ran: the paths its book took (for tests: the paths a held book's ticks take). */
export interface WarmHeldTicksResult {
  ticks: number
  patchedInPlace: number
  /** Deferred verdicts over all ticks (the deferred orders' path, re-ranked records included, ran). */
  deferred: number
  /** Quiet records written as deltas (the record's walk by slot and its memory's update ran: decision-delta.ts). */
  deltaRecords: number
  /** Orders of the largest book it ticked (the large book's: past V8's inline array limit, see largeOrders). */
  largestBook: number
  ms: number
}

let warmed: WarmHeldTicksResult | undefined

/**
 * warmHeldTicks once per process (V8's compiled code is the process's: a second executor started in the same process,
 * as the tests do, finds it compiled). What the executor's start calls.
 */
export function warmHeldTicksOnce(options?: WarmHeldTicksOptions): WarmHeldTicksResult {
  warmed ??= warmHeldTicks(options)
  return warmed
}

const SLUG = '\u0000warm-held-ticks'
/** A timestamp of the records' era (ms): a double, as Date.now() is in the daemon's records. */
const EPOCH_MS = 1_790_000_000_000

/**
 * The held tick's code run at the executor's start on a synthetic book, as `prepare` warms the book code (issue 23
 * item 4): the first PATCH of a held book after a start used to run the held candidates' write path, the book's in-place
 * patch and the plan with diff for the first time in the process, interpreted, 68/44/20 ms for the first three
 * (docs/execution.md §3 "The whole tick on a quieter machine"). Here they run first, on their own held candidates and
 * book cache (the same module code the executor's use, so V8's compiled code and type feedback are shared): quiet
 * ticks whose block moved a few wallets, a PATCH (a new loaded array, unchanged entries the same, one edited), the tick
 * back, a placement and a cancellation. Nothing is read, written or kept: the synthetic project is local to this call.
 */
export function warmHeldTicks(options: WarmHeldTicksOptions = {}): WarmHeldTicksResult {
  const started = performance.now()
  const count = Math.max(2, options.orders ?? 4_000)
  const rounds = options.rounds ?? 16
  const largeCount = Math.max(count, options.largeOrders ?? 17_000)
  const wallets = Math.max(1, count >> 1)
  const walletOf = (w: number): Address => `0x${(w + 1).toString(16).padStart(40, 'c')}` as Address
  // Records as the loader hands them out (load-orders.ts): the store's JSON (the fields in order-transitions.ts's
  // order) decoded by JSON.parse, as the store's json value encoding does, then interned by the loader's own
  // internOrder. Those assignments turn the record fields they write from constant to mutable in V8's hidden class;
  // done here first, the code this warm-up compiles does not depend on those fields being constant, so the daemon's
  // loads (and the tick after a PATCH) no longer drop it (docs/execution.md §3 "A book's first PATCH tick: the records'
  // fields written after the warm-up"). Timestamps in ms (doubles to V8, as Date.now() is in the daemon's records; small
  // integers here would be another field representation). An edited order is a record of its own, decoded the same way.
  const intern = createInterner()
  const recordOf = (i: number, spend: number, updatedAt = EPOCH_MS + i): OrderRecord => {
    const stored: OrderRecord = {
      keyId: `warm_${String(i).padStart(8, '0')}`,
      slug: SLUG,
      status: 'active',
      maxSpendUsdc: String(spend),
      // Limits spread over 100k-1M USD, about half above the ticks' 500k cap: more orders can buy than a tick's
      // DEFAULT_MAX_BUYS, so a tick defers some (limits of 100k-400k had every order but the unlimited ones below the
      // cap: 458 buys, nothing deferred, and the deferred path first ran on the daemon's first large book).
      maxFdvUsdc: i % 7 === 0 ? null : String(100_000 + ((i * 7_919) % 900_000)),
      expiresInMs: 3_600_000,
      createdAt: EPOCH_MS + i,
      updatedAt,
    }
    return internOrder(JSON.parse(JSON.stringify(stored)) as OrderRecord, intern)
  }
  const entryOf = (order: OrderRecord, i: number, wallet = walletOf(i % wallets)): LoadedOrder => ({ order, userIndex: i % wallets, followers: 0, wallet })
  const loadedOf = (i: number): LoadedOrder => entryOf(recordOf(i, 1 + (i % 500)), i)
  // Every other order: room for a placement between two keyIds.
  const full: LoadedOrder[] = Array.from({ length: count }, (_, i) => loadedOf(2 * i))
  const known = new Map<string, bigint>()
  for (let w = 0; w < wallets; w++) known.set(walletOf(w).toLowerCase(), BigInt((w % 10) * 100_000_000))
  const names = [...known.keys()]
  let serial = 0
  const nextBlock = (round: number): TickBalances => {
    const since = serial++
    const changed = new Set<string>()
    for (let c = 0; c < 8; c++) {
      const name = names[(round * 31 + c * 97) % names.length]!
      changed.add(name)
      // One wallet a block emptied or refilled: its orders leave or rejoin the buys, so the deferred orders behind
      // them move in rank (their shared records re-ranked in place, a branch a 100,000-order book takes every block).
      known.set(name, c === 0 ? (known.get(name)! === 0n ? 400_000_000n : 0n) : known.get(name)! + 1_000_000n)
    }
    return { known, state: { serial, since: { serial: since, changed } } }
  }
  const held = createHeldCandidates<LoadedOrder, LoadedOrder & { balanceAtoms: bigint }>(candidateOf)
  const books = createBookCache()
  const funded = createFundedCandidates<LoadedOrder & { balanceAtoms: bigint }>()
  let recorded: RecordedBook | undefined
  let deltaRecords = 0
  let ticks = 0
  let patchedInPlace = 0
  let deferred = 0
  // The project dropped, as the executor drops it (its held candidates, book, funded flags and last record).
  const forget = () => {
    held.forget(SLUG)
    books.forget(SLUG)
    funded.forget(SLUG)
    recorded = undefined
  }
  const tick = (loaded: readonly LoadedOrder[], balances: TickBalances): void => {
    const step = held.begin(SLUG, loaded, balances)
    const { candidates, diff } = step.finish(new Map())
    const input: PlanInput = {
      tick: { effectiveCapAtoms: (500_000n * 1_000_000n).toString(), swapsAllowed: true },
      launchedAt: 0,
      now: 1_000,
      totalSupply: 10n ** 29n,
      candidates,
      reservedByWallet: new Map(),
      policy: spendThenLimitPolicy,
      holdBack: () => false,
    }
    // decide-tick's funded candidates (what the buckets and the batch total read), kept by the diff.
    funded.of(SLUG, candidates, diff)
    const plan = books.plan(SLUG, input, diff)
    // The quiet record's check and, when the verdicts changed, its walk by slot and memory (record-quiet-tick.ts; the
    // walk and the memory's update run on any plan, whatever its verdicts), nothing written.
    if (!sameVerdicts(recorded?.decisions ?? [], plan.decisions)) {
      const record = quietRecordOf(recorded, plan.decisions, plan.rows)
      if (record.kind === 'delta') deltaRecords++
      recorded = recordedBook(`${SLUG}!${ticks}`, record, plan.decisions, plan.rows, recorded)
    }
    for (const decision of plan.decisions) if (decision.verdict === 'deferred') deferred++
    ticks++
    if (books.lastPatchedInPlace(SLUG)) patchedInPlace++
  }
  tick(full, { known, state: { serial } })
  for (let round = 0; round < rounds; round++) {
    if (round === rounds >> 1) {
      // The project built afresh half-way, once the code above is compiled: the daemon's first tick of a project (the
      // first after its start) builds its held state and book with that code, and a path the compiled code had never
      // taken there (a fresh held state, its empty lists, the book's build) deoptimised begin and matchLoaded on the
      // build tick of the first large book, so its first PATCH ran them unoptimised until recompiled (docs/execution.md
      // §3 "A book's first PATCH tick"). The rounds after it compile them again with both paths' feedback.
      forget()
      // First a book beyond V8's fast-array limits (arrays of more than ~16,000 entries are not allocated inline by
      // optimised code: `new Array(n)` deoptimises "out of bounds" on the first larger n), with a wallet per order as a
      // large book has: built and PATCHed, so no path of the build or write deoptimises first on the
      // daemon's first large book. Then the warm-up's own book, built afresh. 17,000: just past that limit (16,376
      // entries of 8 bytes in a regular heap object, V8's JSArray::kInitialMaxFastElementArray), the start kept short.
      const large = Array.from({ length: largeCount }, (_, i) => entryOf(recordOf(2 * i, 1 + (i % 500)), i, walletOf(i)))
      tick(large, { known, state: { serial } })
      const edited = large.slice()
      const e = (round * 7_919) % largeCount
      edited[e] = entryOf(recordOf(2 * e, 3, large[e]!.order.updatedAt + 1), e, walletOf(e))
      tick(edited, nextBlock(round))
      forget()
      tick(full, { known, state: { serial } })
    }
    tick(full, nextBlock(round))
    // A new loaded array per write, as the warm reload hands out (an array handed out is never changed after).
    const k = (round * 7_919) % count
    const was = full[k]!
    const patched = full.slice()
    patched[k] = entryOf(recordOf(2 * k, 2 + round, was.order.updatedAt + 1), 2 * k)
    tick(patched, nextBlock(round))
    if (round % 4 === 3) {
      // A placement (between two keyIds: every later candidate index shifts), then its cancellation.
      const at = (round * 104_729) % count
      const placed = [...full.slice(0, at), loadedOf(2 * at + 1), ...full.slice(at)]
      // And an unchanged order handed back as a fresh entry (a load without the previous one to reuse from): its kept
      // candidate is pointed at the new record, a field write a 100,000-order reload would otherwise make first.
      placed[at + 1] = loadedOf(2 * at)
      tick(placed, nextBlock(round))
    }
    tick(full, nextBlock(round))
  }
  forget()
  return { ticks, patchedInPlace, deferred, deltaRecords, largestBook: Math.max(count, largeCount), ms: performance.now() - started }
}
