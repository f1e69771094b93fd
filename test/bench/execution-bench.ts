/**
 * Execution benchmark (a module of `npm run bench`, `--only execution`):
 * 1. pricing + prioritising 100,000 orders for one tick (pure; the book is parsed and sorted once per order-set
 *    change, then every tick is one linear pass), median over several runs, wall and CPU time;
 * 2. a 500-buyer Doppler launch, by default (BENCH_LAUNCH_MODE=batch) as the daemon buys it: through PrebuyBatchBuyer,
 *    the wallets approving it ahead, 200 ms blocks (batch-launch-bench.ts: blocks from the first block where swaps are
 *    allowed, gas used and limit of every transaction against EIP-7825's 2^24, buyers per transaction, the price spread
 *    within each block, launch log to executeBatch sent, the sweeps); BENCH_LAUNCH_MODE=per-buyer keeps the former
 *    figure (below, benchLaunch): one UserOperation per buyer in handleOps, 2 s blocks, the time from the launch log's
 *    arrival to the first handleOps submission and the blocks the buys were mined in, with 4 sender accounts
 *    (wallet.senderAccounts, BENCH_SENDER_ACCOUNTS), the time to the launch's last transaction and p50/p99 over the runs.
 * The 20-launches-per-launchpad run with injected RPC latency is its own module: launch-latency-bench.ts.
 */
import { createPublicClient, createWalletClient, custom, http, parseAbi, parseTransaction, parseUnits, type Address, type Hex, type PublicClient } from 'viem'
import { EIP_7825_TX_GAS_CAP } from '../../src/chain/tx-gas-cap.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { readCodeSizes } from '../../src/wallets/bundler/code-sizes.ts'
import { spendThenLimitPolicy } from '../../src/domain/execution/prioritisation.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import { DEFAULT_MAX_BUYS, planPrepared } from '../../src/domain/execution/executor-plan.ts'
import { candidateBalances, prepareBook, type CandidateOrder } from '../../src/domain/execution/prepared-book.ts'
import { createBookCache, type BookUse } from '../../src/domain/execution/book-cache.ts'
import { bookOrders, planBookTick } from '../../src/domain/execution/columnar-planner.ts'
import { planTick } from '../../src/domain/execution/reference-planner.ts'
import { startFlowHarness, type Buyer } from '../executor/flow-harness.ts'
import type { BenchModule } from './bench-module.ts'
import { quantile } from './launch-latency-bench.ts'
import { candidateOf, type LoadedOrder, withBalances } from '../../daemon/executor/warm-books.ts'
import { createHeldCandidates, type TickBalances } from '../../src/domain/execution/held-candidates.ts'
import { benchBatchLaunch } from './batch-launch-bench.ts'
import { warmHeldTicksOnce } from '../../daemon/executor/warm-held-ticks.ts'
import { internOrder } from '../../daemon/executor/intern-order.ts'
import { createInterner } from '../../src/common/compact-strings.ts'
import { getHeapSpaceStatistics } from 'node:v8'
import { BENCH_DEVNET_STATE_DUMPS, benchDevnetStateDumps } from './devnet-state-dumps.ts'

/** Bytes in V8's old generation: old space and the large-object spaces (a young large object is promoted whole). */
const oldGeneration = (): number => {
  let bytes = 0
  for (const space of getHeapSpaceStatistics())
    if (space.space_name === 'old_space' || space.space_name === 'large_object_space' || space.space_name === 'new_large_object_space')
      bytes += space.space_used_size
  return bytes
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const round = (value: number): number => Math.round(value * 100) / 100

const EPOCH_MS = 1_790_000_000_000

/**
 * A record as the store hands it back (JSON.parse: the fields in the order order-transitions.ts writes them, the hidden
 * class of this literal), not a spread copy (another hidden class, which the daemon's loaded orders never have).
 */
const storedRecord = (o: OrderRecord, edit: { maxSpendUsdc?: string; updatedAt?: number } = {}): OrderRecord => ({
  keyId: o.keyId,
  slug: o.slug,
  status: o.status,
  maxSpendUsdc: edit.maxSpendUsdc ?? o.maxSpendUsdc,
  maxFdvUsdc: o.maxFdvUsdc,
  expiresInMs: o.expiresInMs,
  createdAt: o.createdAt,
  updatedAt: edit.updatedAt ?? o.updatedAt,
})

function syntheticBook(count: number): CandidateOrder[] {
  const out: CandidateOrder[] = new Array(count)
  for (let i = 0; i < count; i++) {
    const order: OrderRecord = {
      keyId: `key_${i}`,
      slug: 'bench',
      status: 'active',
      maxSpendUsdc: String(1 + (i % 500)),
      maxFdvUsdc: i % 7 === 0 ? null : String(100_000 + ((i * 37) % 900_000)),
      expiresInMs: 3_600_000,
      // ms timestamps, as the store's records have (doubles to V8, not small integers: another hidden class).
      createdAt: EPOCH_MS + i,
      updatedAt: EPOCH_MS + i,
    }
    out[i] = { order, userIndex: i, wallet: `0x${(i + 1).toString(16).padStart(40, '0')}` as Address, balanceAtoms: BigInt((i % 10) * 100_000_000) }
  }
  return out
}

export function benchPlanning(orders: number, runs: number) {
  const book = syntheticBook(orders)
  const tick = { effectiveCapAtoms: (500_000n * 1_000_000n).toString(), swapsAllowed: true }
  const prepareWall: number[] = []
  const decideWall: number[] = []
  const referenceWall: number[] = []
  const balancesWall: number[] = []
  const tickWall: number[] = []
  const firstTickWall: number[] = []
  const tickCpu: number[] = []
  const reloadWall: number[] = []
  const reloadCpu: number[] = []
  const afterBuysWall: number[] = []
  const newOrderWall: number[] = []
  const patchWall: number[] = []
  const rebuildTickWall: number[] = []
  const quietWall: number[] = []
  const wholeQuietWall: number[] = []
  const wholePatchWall: number[] = []
  const wholeQuietCpu: number[] = []
  const wholePatchCpu: number[] = []
  const wholeQuietCandidates: number[] = []
  const wholePatchCandidates: number[] = []
  // Old-generation bytes (old space + large objects, young large objects included) a held tick leaves behind, KB: what
  // brings mark-compact pauses; load-independent, unlike the times.
  const wholeQuietOldKb: number[] = []
  const wholePatchOldKb: number[] = []
  let buys = 0
  const cacheInput = { tick, launchedAt: 0, now: 1_000, totalSupply: 10n ** 29n, reservedByWallet: new Map<string, bigint>(), policy: spendThenLimitPolicy }
  // What a reload from the store yields: fresh objects with the same content.
  const reload = (candidates: readonly CandidateOrder[]): CandidateOrder[] => candidates.map((c) => ({ ...c, order: { ...c.order } }))
  const timed = (cache: ReturnType<typeof createBookCache>, candidates: readonly CandidateOrder[], expected: BookUse, into: number[]): void => {
    const t0 = performance.now()
    cache.plan('bench', { ...cacheInput, candidates })
    into.push(performance.now() - t0)
    if (cache.lastUse('bench') !== expected) throw new Error(`bench: expected the ${expected} path, got ${cache.lastUse('bench')}`)
  }
  // The executor's path: every tick reloads the project's orders (fresh objects) and goes through one long-lived book cache.
  // The reloads are made up front, so the timings hold the planner's own work and garbage rather than the harness's
  // 200,000 allocations per reload: two full copies, and each step's list takes its order records from the copy the
  // step before did not use (so every step compares fresh objects, as after a write), except the quiet tick.
  const fullA = reload(book)
  const fullB = reload(book)
  const quiet = fullB.map((c) => ({ ...c }))
  const remaining = fullA.filter((_, i) => i % 100 !== 0)
  const withNew = fullB.filter((_, i) => i % 100 !== 0)
  const model = withNew[997]!
  withNew.splice(orders >> 1, 0, { ...model, order: { ...model.order, keyId: 'key_new', maxSpendUsdc: '123.45', maxFdvUsdc: '654321' } })
  const patched = [...fullA.filter((_, i) => i % 100 !== 0)]
  patched.splice(orders >> 1, 0, { ...model, order: { ...model.order, keyId: 'key_new', maxSpendUsdc: '123.45', maxFdvUsdc: '654321' } })
  const edited = patched[orders >> 2]!
  patched[orders >> 2] = { ...edited, order: { ...edited.order, maxSpendUsdc: '250', maxFdvUsdc: null, updatedAt: edited.order.updatedAt + 1 } }
  const cache = createBookCache()
  cache.plan('bench', { ...cacheInput, candidates: book })
  for (let run = 0; run < runs; run++) {
    // Back to the full book (unmeasured: the previous run's changes undone), then a reload of the same orders.
    cache.plan('bench', { ...cacheInput, candidates: fullA })
    const reloadCpu0 = process.cpuUsage()
    timed(cache, fullB, 'reused', reloadWall)
    const reloadCpuUsed = process.cpuUsage(reloadCpu0)
    reloadCpu.push((reloadCpuUsed.user + reloadCpuUsed.system) / 1000)
    // A quiet tick: the warm path hands out the same order records between writes (fresh wrappers, fresh balances).
    timed(cache, quiet, 'reused', quietWall)
    // The tick after 1,000 buys: those orders are executing, no longer in the reload.
    timed(cache, remaining, 'filtered', afterBuysWall)
    // The tick after a new order (placed in the middle of the store's order), then after a PATCH of another one.
    timed(cache, withNew, 'incremental', newOrderWall)
    timed(cache, patched, 'incremental', patchWall)
  }
  // The executor's whole tick on a held book, as decide-tick runs it: the warm snapshot's loaded orders (no balance)
  // turned into candidates with their wallets' balances (held-candidates.ts: only new or edited orders and wallets
  // whose balance changed are rebuilt), then planned through the cache with the diff. Every tick is a new block whose
  // snapshot was derived from the previous one with CHANGED_PER_BLOCK wallets re-read (their Transfer logs), each with a
  // new balance. Quiet (the same loaded array, as between writes), and right after a PATCH (a new loaded array from the
  // warm reload, in the background: the loader hands back every unchanged order as the same entry, load-orders.ts,
  // and one edited order parsed afresh).
  const CHANGED_PER_BLOCK = 50
  // The loader's entries (load-orders.ts: its literal; the store's records decoded as the loader decodes them, JSON.parse
  // of the stored JSON and internOrder, so their fields have the daemon's constness: see loadedRecord).
  const intern = createInterner()
  const loadedRecord = (o: OrderRecord): OrderRecord => internOrder(JSON.parse(JSON.stringify(storedRecord(o))) as OrderRecord, intern)
  const loadedOf = (candidates: readonly CandidateOrder[]): LoadedOrder[] =>
    candidates.map((c) => ({ order: loadedRecord(c.order), userIndex: c.userIndex, followers: 0, wallet: c.wallet }))
  const walletBalances = new Map(book.map((c) => [c.wallet.toLowerCase(), c.balanceAtoms]))
  const walletNames = [...walletBalances.keys()]
  const noFresh = new Map<string, bigint>()
  const loadedFull = loadedOf(fullA)
  let serial = 0
  let block = 0
  // The next block's balance state (warm-books.ts builds it in the background, off the tick): a few wallets changed.
  const nextBlock = (): TickBalances => {
    const since = serial++
    const changed = new Set<string>()
    for (let c = 0; c < CHANGED_PER_BLOCK; c++) {
      const wallet = walletNames[(block * 7_919 + c * 104_729) % walletNames.length]!
      changed.add(wallet)
      walletBalances.set(wallet, walletBalances.get(wallet)! + 1_000_000n)
    }
    block++
    return { known: walletBalances, state: { serial, since: { serial: since, changed } } }
  }
  const heldCandidates = createHeldCandidates<LoadedOrder, LoadedOrder & { balanceAtoms: bigint }>(candidateOf)
  // The candidates' share of the last held tick (the rest is the plan).
  let candidatesMs = 0
  const heldTick = (cache: ReturnType<typeof createBookCache>, loaded: readonly LoadedOrder[], balances: TickBalances): void => {
    const t0 = performance.now()
    const step = heldCandidates.begin('bench', loaded, balances)
    if (step.missing.length > 0) throw new Error(`bench: ${step.missing.length} balances unknown for the block`)
    const { candidates, diff } = step.finish(noFresh)
    candidatesMs = performance.now() - t0
    cache.plan('bench', { ...cacheInput, candidates }, diff)
  }
  const wholeTick = (
    cache: ReturnType<typeof createBookCache>,
    loaded: readonly LoadedOrder[],
    expected: BookUse,
    into: number[],
    cpuInto: number[],
    candidatesInto: number[],
    oldKbInto: number[],
  ): void => {
    const balances = nextBlock()
    const old0 = oldGeneration()
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    heldTick(cache, loaded, balances)
    into.push(performance.now() - t0)
    const cpu = process.cpuUsage(cpu0)
    oldKbInto.push(Math.max(0, oldGeneration() - old0) / 1024)
    cpuInto.push((cpu.user + cpu.system) / 1000)
    candidatesInto.push(candidatesMs)
    if (cache.lastUse('bench') !== expected) throw new Error(`bench: expected the ${expected} path, got ${cache.lastUse('bench')}`)
  }
  // What the executor's start does before it takes signals (warm-held-ticks.ts): the held tick's write path run on a
  // synthetic book, so the first PATCH ticks below run compiled code as the daemon's do (once per process).
  const heldTickWarmUpMs = warmHeldTicksOnce().ms
  const held = createBookCache()
  heldTick(held, loadedFull, { known: walletBalances, state: { serial } })
  for (let run = 0; run < runs; run++) {
    wholeTick(held, loadedFull, 'reused', wholeQuietWall, wholeQuietCpu, wholeQuietCandidates, wholeQuietOldKb)
    // A PATCH of a different order each run: a new loaded array (as the warm reload hands out after a write; an array
    // handed out is never changed afterwards), its entry replaced by an edited copy.
    const k = (run * 7_919) % loadedFull.length
    const was = loadedFull[k]!
    const loadedPatched = loadedFull.slice()
    // The edited record decoded as the loader hands it out, never a loaded record written after the warm-up: a write
    // of a field the loader does not write (updatedAt) turned it from constant to mutable in V8 right before the first
    // PATCH tick and dropped the code compiled on it, a cost the daemon does not have (docs/execution.md §3 "A book's
    // first PATCH tick: the records' fields written after the warm-up").
    // (Not a spread copy with the edits either: a spread copy has the source's hidden class and its edits are writes.)
    const order = loadedRecord(storedRecord(was.order, { maxSpendUsdc: String(2 + run), updatedAt: was.order.updatedAt + 1 }))
    loadedPatched[k] = { order, userIndex: was.userIndex, followers: was.followers, wallet: was.wallet }
    wholeTick(held, loadedPatched, 'incremental', wholePatchWall, wholePatchCpu, wholePatchCandidates, wholePatchOldKb)
    // Back to the held book for the next run (unmeasured: the edit undone, a write too).
    heldTick(held, loadedFull, nextBlock())
  }
  // The same whole tick as before held candidates, for comparison: every candidate rebuilt with its balance
  // (withBalances), the book cache walking them.
  const rebuiltCandidatesWall: number[] = []
  const unheld = createBookCache()
  unheld.plan('bench', { ...cacheInput, candidates: withBalances(loadedFull, noFresh, walletBalances) })
  for (let run = 0; run < runs; run++) {
    const t0 = performance.now()
    unheld.plan('bench', { ...cacheInput, candidates: withBalances(loadedFull, noFresh, walletBalances) })
    rebuiltCandidatesWall.push(performance.now() - t0)
  }
  // A cold cache: the tick that builds the book (parse, sort, first verdict records). Apart, so the garbage of a
  // rebuild does not land in the executor sequence's timings.
  for (let run = 0; run < runs; run++) timed(createBookCache(), book, 'rebuilt', rebuildTickWall)
  // The pure pieces, apart: the reference planner's garbage (100,000 objects per run) stays out of the executor timings.
  for (let run = 0; run < runs; run++) {
    let t0 = performance.now()
    const prepared = prepareBook(book, spendThenLimitPolicy)
    prepareWall.push(performance.now() - t0)
    t0 = performance.now()
    prepared.balances = candidateBalances(prepared)
    balancesWall.push(performance.now() - t0)
    t0 = performance.now()
    planBookTick({
      book: prepared.book,
      balances: prepared.balances,
      reserved: new Map(),
      effectiveCap: BigInt(tick.effectiveCapAtoms),
      swapsAllowed: true,
      launchedAtMs: 0,
      nowMs: 1_000,
    })
    decideWall.push(performance.now() - t0)
    // The first tick after (re)preparing builds the book's shared verdict records; later ticks on the same book reuse them.
    t0 = performance.now()
    planPrepared(prepared, { tick, launchedAt: 0, now: 1_000, totalSupply: 10n ** 29n, reservedByWallet: new Map() })
    firstTickWall.push(performance.now() - t0)
    const cpu0 = process.cpuUsage()
    t0 = performance.now()
    const plan = planPrepared(prepared, { tick, launchedAt: 0, now: 1_000, totalSupply: 10n ** 29n, reservedByWallet: new Map() })
    tickWall.push(performance.now() - t0)
    const cpu = process.cpuUsage(cpu0)
    tickCpu.push((cpu.user + cpu.system) / 1000)
    buys = plan.buys.length
    // The bigint reference planner over the same prioritised orders, for comparison (last: its garbage lands in no other timing of the run).
    const balanceMap = new Map(prepared.book.wallets.names.map((w, i) => [w, prepared.balances.exact(i)]))
    const prioritisedOrders = bookOrders(prepared.book)
    t0 = performance.now()
    planTick({
      prioritisedOrders,
      balances: balanceMap,
      reserved: new Map(),
      effectiveCap: BigInt(tick.effectiveCapAtoms),
      swapsAllowed: true,
      launchedAtMs: 0,
      nowMs: 1_000,
    })
    referenceWall.push(performance.now() - t0)
  }
  const targetMs = 20
  const WARMUP_TICKS = 3
  const ms = (values: number[]) => round(median(values))
  const numbers = {
    decideMedianMs: ms(decideWall),
    referenceDecideMedianMs: ms(referenceWall),
    balanceRefreshMedianMs: ms(balancesWall),
    fullTickMedianMs: ms(tickWall),
    fullTickMedianCpuMs: ms(tickCpu),
    firstTickAfterPrepareMedianMs: ms(firstTickWall),
    prepareBookMedianMs: ms(prepareWall),
    executorRebuildTickMedianMs: ms(rebuildTickWall),
    executorReloadTickMedianMs: ms(reloadWall),
    executorReloadTickMedianCpuMs: ms(reloadCpu),
    executorQuietTickMedianMs: ms(quietWall),
    executorTickAfterBuysMedianMs: ms(afterBuysWall),
    executorTickAfterNewOrderMedianMs: ms(newOrderWall),
    executorTickAfterPatchMedianMs: ms(patchWall),
    executorWholeQuietTickMedianMs: ms(wholeQuietWall),
    executorWholeTickAfterPatchMedianMs: ms(wholePatchWall),
    executorWholeTickAfterPatchMaxMs: round(Math.max(...wholePatchWall)),
    executorWholeQuietTickMaxMs: round(Math.max(...wholeQuietWall)),
    // The first ticks of each kind run code V8 has not optimised yet (the held-candidates' write path runs here for the
    // first time in the process): the max without them, and those ticks themselves, apart.
    executorWholeTickAfterPatchMaxAfterWarmupMs: round(Math.max(...wholePatchWall.slice(WARMUP_TICKS))),
    executorWholeQuietTickMaxAfterWarmupMs: round(Math.max(...wholeQuietWall.slice(WARMUP_TICKS))),
    executorWholeTickAfterPatchFirstTicksMs: wholePatchWall.slice(0, WARMUP_TICKS).map(round),
    // Their CPU time: the process's, V8's compiler threads included, so above the wall time when those ticks wait on
    // code being compiled (JIT), about equal when the tick's own work is what takes the time.
    executorWholeTickAfterPatchFirstTicksCpuMs: wholePatchCpu.slice(0, WARMUP_TICKS).map(round),
    executorWholeQuietTickFirstTicksMs: wholeQuietWall.slice(0, WARMUP_TICKS).map(round),
    executorWholeQuietTickFirstTicksCpuMs: wholeQuietCpu.slice(0, WARMUP_TICKS).map(round),
    executorWholeQuietTickMedianCpuMs: ms(wholeQuietCpu),
    executorWholeTickAfterPatchMedianCpuMs: ms(wholePatchCpu),
    executorWholeQuietTickCandidatesMedianMs: ms(wholeQuietCandidates),
    executorWholeTickAfterPatchCandidatesMedianMs: ms(wholePatchCandidates),
    executorWholeQuietTickRebuildingCandidatesMedianMs: ms(rebuiltCandidatesWall),
    // Old-generation KB a held tick leaves (medians; a tick with a GC in it reads 0): no array of the book's size per
    // tick means ~0 here (main c91c5b8: ~3,000 KB per tick: the decisions array, the PATCH path's arrays, re-ranked
    // deferred records).
    executorWholeQuietTickOldGenerationKbMedian: ms(wholeQuietOldKb),
    executorWholeTickAfterPatchOldGenerationKbMedian: ms(wholePatchOldKb),
    // The warm-up the executor's start runs (warm-held-ticks.ts), before the held ticks above.
    executorHeldTickWarmUpMs: round(heldTickWarmUpMs),
  }
  const under = (value: number) => value < targetMs
  return {
    orders,
    submittedBuys: buys,
    maxBuysPerTick: DEFAULT_MAX_BUYS,
    runs,
    ...numbers,
    targetMs,
    // Issue 23 item 4: every tick on a held book under 20 ms, the tick right after a PATCH being the slowest kind (the
    // whole tick as decide-tick runs it: candidates + the book's in-place patch + the plan). Met on the median wall time;
    // CPU time beside it, since wall time on the shared machine is several times CPU time under load.
    tickAfterPatchTarget: {
      targetMs,
      wholeTickMedianMs: numbers.executorWholeTickAfterPatchMedianMs,
      wholeTickMedianCpuMs: numbers.executorWholeTickAfterPatchMedianCpuMs,
      wholeTickMaxMs: numbers.executorWholeTickAfterPatchMaxMs,
      wholeTickMaxAfterWarmupMs: numbers.executorWholeTickAfterPatchMaxAfterWarmupMs,
      bookCacheTickMedianMs: numbers.executorTickAfterPatchMedianMs,
      met: under(numbers.executorWholeTickAfterPatchMedianMs),
      metOnCpuTime: under(numbers.executorWholeTickAfterPatchMedianCpuMs),
    },
    targets: {
      fullTick: under(numbers.fullTickMedianMs),
      firstTickAfterPrepare: under(numbers.firstTickAfterPrepareMedianMs),
      executorReloadTick: under(numbers.executorReloadTickMedianMs),
      executorQuietTick: under(numbers.executorQuietTickMedianMs),
      executorTickAfterBuys: under(numbers.executorTickAfterBuysMedianMs),
      executorTickAfterNewOrder: under(numbers.executorTickAfterNewOrderMedianMs),
      executorTickAfterPatch: under(numbers.executorTickAfterPatchMedianMs),
      executorWholeQuietTick: under(numbers.executorWholeQuietTickMedianMs),
      executorWholeTickAfterPatch: under(numbers.executorWholeTickAfterPatchMedianMs),
      prepareBook: under(numbers.prepareBookMedianMs),
      executorRebuildTick: under(numbers.executorRebuildTickMedianMs),
    },
    note:
      'decide = eligibility, spend sizing against balances and reservations, priority order (planBookTick: the domain pass over a prepared book); ' +
      'referenceDecide = the bigint reference planTick over the same prioritised orders; balanceRefresh = the conversion of freshly read balances into the book; ' +
      'fullTick = decide + on-chain min-out and a journal verdict for every order, on a book already ticked once (the steady state); ' +
      'firstTickAfterPrepare = the same right after prepareBook (verdict records built); prepareBook = parse + priority sort, once per order-set change the cache cannot merge; ' +
      'executorRebuildTick = the executor path with a cold cache (prepareBook + first tick); ' +
      'executorReloadTick = the executor path through the book cache for a reload of the same orders (fresh objects, as after a write: compare terms, read balances, full tick); ' +
      'executorQuietTick = the same with the same order records (the warm path between writes: terms not re-read); ' +
      'executorTickAfterBuys = the same when 1,000 orders left the book (linear filter instead of a re-sort); ' +
      'executorTickAfterNewOrder / executorTickAfterPatch = the same after one new order / one edited order (the order parsed and merged into the sorted book). ' +
      "executorWholeQuietTick / executorWholeTickAfterPatch = the tick as decide-tick runs it on a held book: the loaded orders turned into candidates with balances (held candidates: only new or edited orders and the 50 wallets of each block's Transfer logs rebuilt) and planned, quiet and right after a PATCH (a new loaded array, unchanged entries reused by the loader, one edited; max alongside); " +
      'executorWholeQuietTickRebuildingCandidates = the quiet tick as it was before held candidates (every candidate rebuilt with its balance by withBalances). ' +
      'Wall times on the shared 2-core machine (other sessions running); CPU time alongside for two of them.',
  }
}

export async function benchLaunch(buyerCount: number, senderAccounts = 1) {
  let firstSubmission: number | undefined
  let launchArrival: number | undefined
  const sendTimes: number[] = []
  // The gas limit of every transaction the wallet service sent (deployments ahead and the launch's handleOps alike).
  const sentGasLimits: { gas: bigint; afterLaunch: boolean }[] = []
  // Finer timings: every wallet-service RPC by method (count, first and last start, summed latency) for the report.
  const rpcLog: { method: string; start: number; ms: number }[] = []
  const instrumented = (rpcUrl: string): PublicClient => {
    const inner = http(rpcUrl)({ retryCount: 2 })
    return createPublicClient({
      transport: custom({
        async request({ method, params }) {
          if (method === 'eth_sendRawTransaction') {
            const now = performance.now()
            const gas = parseTransaction((params as [Hex])[0]).gas ?? 0n
            sentGasLimits.push({ gas, afterLaunch: launchArrival !== undefined })
            sendTimes.push(now)
            // Transactions before the launch (wallets deployed ahead) are not the launch's submissions.
            if (launchArrival !== undefined) firstSubmission ??= now
          }
          const start = performance.now()
          try {
            return await inner.request({ method, params } as never)
          } finally {
            rpcLog.push({ method, start, ms: performance.now() - start })
          }
        },
      }),
      pollingInterval: 100,
    }) as PublicClient
  }
  // First time each stage finished after the launch log arrived (indexer and executor hooks).
  const stages: Array<[string, number]> = []
  const onStage = (name: string, at: number) => {
    if (launchArrival === undefined || firstSubmission !== undefined) return
    if (!stages.some(([n]) => n === name)) stages.push([name, at])
  }
  const h = await startFlowHarness({
    walletClient: instrumented,
    onLaunchLogs: (info) => (launchArrival ??= info.arrivedAt),
    onStage,
    senderAccounts,
    devnetStateDumps: BENCH_DEVNET_STATE_DUMPS,
  })
  try {
    const { slug, creator } = await h.newProject('bench', 'doppler')
    // Buyers: keys, wallets funded with one mint each (sent together, mined in one block), orders with no limit.
    const buyers: Buyer[] = []
    for (let i = 0; i < buyerCount; i++) {
      const issued = await h.services.keys.issueKey(`bench-${i}`)
      buyers.push({ keyId: issued.record.id, userIndex: issued.record.userIndex, wallet: await h.wallets.walletAddress(issued.record.userIndex) })
    }
    const deployer = h.devnet.deployer.account
    const stablecoinAbi = parseAbi(['function mint(address to, uint256 amount)'])
    const minter = createWalletClient({ chain: chainFromConfig(h.chain), account: deployer, transport: http(h.chain.rpcUrl) })
    let nonce = await h.client.getTransactionCount({ address: deployer.address, blockTag: 'pending' })
    const hashes: Array<`0x${string}`> = []
    for (const buyer of buyers) {
      hashes.push(
        await minter.writeContract({
          address: h.chain.addresses.stablecoin,
          abi: stablecoinAbi,
          functionName: 'mint',
          args: [buyer.wallet, parseUnits('100', 6)],
          nonce: nonce++,
          gas: 100_000n,
        }),
      )
    }
    await h.mine()
    for (const hash of hashes) await h.client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    for (const buyer of buyers) await h.order(buyer, slug, '50', null)
    // Orders wait for their launch: blocks pass meanwhile, and on each the executor readies the buyers' wallets (state
    // read ahead; a wallet still waiting at the next block is deployed by the service; the block after re-reads it).
    const walletsReady = async () =>
      (
        await readCodeSizes(
          h.client,
          buyers.map((b) => b.wallet),
        )
      ).every((size) => size > 0)
    const readyBy = Date.now() + 60_000
    while (!(await walletsReady()) && Date.now() < readyBy) {
      await h.mine()
      await new Promise((r) => setTimeout(r, 500))
    }
    await h.mine()
    await new Promise((r) => setTimeout(r, 1_000))

    // Base-like: a block every 2 s of real time from here on.
    await jsonRpc(h.chain.rpcUrl, 'evm_setIntervalMining', [2])
    const launched = await h.launch(slug, 'doppler', creator)
    const deadline = Date.now() + 120_000
    // Polling 500 orders competes with the indexer and executor for the event loop: start only after the first submission.
    while (firstSubmission === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    let filled: OrderRecord[] = []
    while (Date.now() < deadline) {
      filled = (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).filter((o): o is OrderRecord => o?.status === 'filled')
      if (filled.length === buyers.length) break
      await new Promise((r) => setTimeout(r, 500))
    }
    const blocks = new Map<string, number>()
    const txs = new Set<`0x${string}`>()
    const handleOpsGas: { block: string; operations: number; gasLimit: number; gasUsed: number }[] = []
    const senders = new Set<string>()
    for (const order of filled) txs.add(order.execution!.txHash as `0x${string}`)
    for (const hash of txs) {
      const [receipt, transaction] = await Promise.all([h.client.getTransactionReceipt({ hash }), h.client.getTransaction({ hash })])
      const ops = filled.filter((o) => o.execution!.txHash === hash).length
      const delta = `launch+${receipt.blockNumber - launched.blockNumber}`
      blocks.set(delta, (blocks.get(delta) ?? 0) + ops)
      senders.add(transaction.from.toLowerCase())
      handleOpsGas.push({ block: delta, operations: ops, gasLimit: Number(transaction.gas), gasUsed: Number(receipt.gasUsed) })
    }
    handleOpsGas.sort((a, b) => a.block.localeCompare(b.block))
    const maxGasLimit = sentGasLimits.reduce((max, { gas }) => (gas > max ? gas : max), 0n)
    await jsonRpc(h.chain.rpcUrl, 'evm_setIntervalMining', [0])
    const walletRpcAfterLaunch: Record<string, { calls: number; firstAtMs: number; lastAtMs: number; totalMs: number }> = {}
    for (const entry of rpcLog) {
      if (launchArrival === undefined || entry.start < launchArrival) continue
      const at = round(entry.start - launchArrival)
      const row = walletRpcAfterLaunch[entry.method] ?? { calls: 0, firstAtMs: at, lastAtMs: at, totalMs: 0 }
      walletRpcAfterLaunch[entry.method] = row
      row.calls++
      row.lastAtMs = at
      row.totalMs = round(row.totalMs + entry.ms)
    }
    const afterLaunch = launchArrival === undefined ? [] : sendTimes.filter((t) => t >= launchArrival!).map((t) => round(t - launchArrival!))
    return {
      buyers: buyerCount,
      filled: filled.length,
      handleOpsTransactions: txs.size,
      senderAccounts,
      sendersThatFilled: senders.size,
      launchLogToLastTransactionMs: afterLaunch.length > 0 ? Math.max(...afterLaunch) : null,
      handleOpsSentAtMs: afterLaunch,
      walletRpcAfterLaunch,
      handleOpsGas,
      blockGasLimit: Number((await h.client.getBlock()).gasLimit),
      txGasCap: Number(EIP_7825_TX_GAS_CAP),
      transactionsSent: {
        beforeLaunch: sentGasLimits.filter((t) => !t.afterLaunch).length,
        afterLaunch: sentGasLimits.filter((t) => t.afterLaunch).length,
        maxGasLimit: Number(maxGasLimit),
        gasLimitsBeforeLaunch: sentGasLimits.filter((t) => !t.afterLaunch).map((t) => Number(t.gas)),
      },
      everyTransactionUnderCap: sentGasLimits.length > 0 && maxGasLimit <= EIP_7825_TX_GAS_CAP,
      stagesAfterLaunchLogMs: launchArrival === undefined ? {} : Object.fromEntries(stages.map(([n, at]) => [n, round(at - launchArrival!)])),
      launchLogToFirstHandleOpsMs: launchArrival !== undefined && firstSubmission !== undefined ? round(firstSubmission - launchArrival) : null,
      targetLaunchToSubmissionMs: 100,
      firstBlockSwapsAllowed: 'launch+1 (Doppler: swaps open at launch; the launch block itself holds only the launch)',
      ordersMinedByBlock: Object.fromEntries(blocks),
      zeroBlocksOfDelay: blocks.size === 1 && blocks.has('launch+1'),
      blockTimeSeconds: 2,
    }
  } finally {
    await h.stop()
  }
}

/**
 * The 500-buyer launch's mode (BENCH_LAUNCH_MODE): `batch` (default: as the daemon buys, through PrebuyBatchBuyer,
 * test/bench/batch-launch-bench.ts) or `per-buyer` (the former figure: one UserOperation per buyer in handleOps, for
 * wallets without the approval, 2 s blocks).
 */
const LAUNCH_MODES = ['batch', 'per-buyer'] as const
type LaunchMode = (typeof LAUNCH_MODES)[number]
function launchMode(): LaunchMode {
  const mode = process.env.BENCH_LAUNCH_MODE ?? 'batch'
  if (!(LAUNCH_MODES as readonly string[]).includes(mode)) throw new Error(`BENCH_LAUNCH_MODE must be one of ${LAUNCH_MODES.join(', ')}, not ${mode}`)
  return mode as LaunchMode
}
/** Batch mode: one run by default (each readies 500 wallets ahead); per-buyer mode: three. BENCH_LAUNCH_RUNS overrides. */
const launchRuns = (mode: LaunchMode): number => Number(process.env.BENCH_LAUNCH_RUNS ?? (mode === 'batch' ? 1 : 3))
/** The devnet's default wallet.senderAccounts; BENCH_SENDER_ACCOUNTS=1 measures the bundler EOA alone. */
const SENDER_ACCOUNTS = Number(process.env.BENCH_SENDER_ACCOUNTS ?? 4)

/** Batch mode: the launches through PrebuyBatchBuyer, the first run's details and every run's summary. */
async function batchLaunches(runs: number) {
  const launches = []
  for (let run = 0; run < runs; run++) launches.push(await benchBatchLaunch(500, SENDER_ACCOUNTS))
  const latencies = launches.map((l) => l.launchLogToExecuteBatchSentMs ?? Number.POSITIVE_INFINITY)
  return {
    ...launches[0]!,
    runs: launches.map((l) => ({
      launchLogToExecuteBatchSentMs: l.launchLogToExecuteBatchSentMs,
      fillTransactions: l.fillTransactions,
      ordersFilledByBlock: l.ordersFilledByBlock,
      fillTransactionsGas: l.transactions
        .filter((t) => t.kind !== 'sweep' && t.buyers > 0)
        .map((t) => ({ buyers: t.buyers, gasUsed: t.gasUsed, gasLimit: t.gasLimit })),
      sweepsGas: l.sweeps,
      approvalsAfterLaunch: l.approvalsAfterLaunch,
      laterBatches: l.batches.filter((b) => b.sequence > 0).length,
      filled: l.filled,
      maxGasLimit: l.maxGasLimit,
      loadAverage: l.loadAverage,
      targetsMet: Object.fromEntries(Object.entries(l.targets).map(([name, t]) => [name, t.met])),
    })),
    launchLogToExecuteBatchSentMedianMs: median(latencies),
    devnetStateDumps: benchDevnetStateDumps(),
    allRunsMet: {
      everyOrderInTheFirstSwapBlockOrTheNext: launches.every((l) => l.targets.everyOrderInTheFirstSwapBlockOrTheNext.met),
      everyTransactionUnder2To24Gas: launches.every((l) => l.targets.everyTransactionUnder2To24Gas.met),
      onePricePerBlock: launches.every((l) => l.targets.onePricePerBlock.met),
    },
    note: `runs: ${runs} launch(es) of 500 buyers through the batch, ${SENDER_ACCOUNTS} sender accounts, a block every ${launches[0]!.blockMs} ms; the detailed fields are the first run's.`,
  }
}

/** Per-buyer mode (BENCH_LAUNCH_MODE=per-buyer): the former figure, one UserOperation per buyer. */
async function perBuyerLaunches(runs: number) {
  const launches = []
  for (let run = 0; run < runs; run++) launches.push(await benchLaunch(500, SENDER_ACCOUNTS))
  const latencies = launches.map((l) => l.launchLogToFirstHandleOpsMs ?? Number.POSITIVE_INFINITY)
  const medianLatency = median(latencies)
  const lastTx = launches.map((l) => l.launchLogToLastTransactionMs ?? Number.POSITIVE_INFINITY)
  const firstP50 = quantile(latencies, 0.5) ?? Number.POSITIVE_INFINITY
  const firstP99 = quantile(latencies, 0.99) ?? Number.POSITIVE_INFINITY
  const launch = {
    ...launches[0]!,
    runs: launches.map((l) => ({
      launchLogToFirstHandleOpsMs: l.launchLogToFirstHandleOpsMs,
      launchLogToLastTransactionMs: l.launchLogToLastTransactionMs,
      handleOpsTransactions: l.handleOpsTransactions,
      sendersThatFilled: l.sendersThatFilled,
      ordersMinedByBlock: l.ordersMinedByBlock,
      filled: l.filled,
      maxTransactionGasLimit: l.transactionsSent.maxGasLimit,
    })),
    launchLogToFirstHandleOpsMedianMs: medianLatency,
    launchLogToLastTransactionMedianMs: median(lastTx),
    targets: {
      everyOrderInTheFirstSwapBlock: { target: 'launch+1 in every run', met: launches.every((l) => l.zeroBlocksOfDelay && l.filled === l.buyers) },
      launchLogToFirstHandleOpsUnder100ms: { targetMs: 100, medianMs: medianLatency, maxMs: Math.max(...latencies), met: medianLatency < 100 },
      // Issue 23 item 3 (its 5,000-order figure needs the batch; here 500 buyers, per-buyer handleOps). With as many
      // runs as LAUNCH_RUNS, p99 is the slowest run.
      launchLogToFirstTransaction: {
        target: 'p50 ≤ 50 ms, p99 ≤ 150 ms',
        p50Ms: firstP50,
        p99Ms: firstP99,
        runs: latencies.length,
        met: firstP50 <= 50 && firstP99 <= 150,
      },
      // Before sender accounts (one bundler EOA): the launch's handleOps left over 1.07 s (issue 23), 1.55 s on 2026-11-26.
      launchLogToLastTransaction: {
        target: 'under the 1.07 s of one bundler account',
        medianMs: median(lastTx),
        maxMs: Math.max(...lastTx),
        met: median(lastTx) < 1_070,
      },
      // EIP-7825 (Base since Azul): the devnet's anvil refuses a transaction above 2^24, so one over it would not
      // have been mined; the target also checks every gas limit the wallet service asked for, deployments included.
      everyTransactionUnder2To24Gas: {
        target: 'every tx ≤ 2^24 (16,777,216) gas, deployments ahead and handleOps, in every run',
        maxGasLimit: Math.max(...launches.map((l) => l.transactionsSent.maxGasLimit)),
        met: launches.every((l) => l.everyTransactionUnderCap && l.filled === l.buyers),
      },
    },
    note: `runs: ${runs} launches of 500 buyers, ${SENDER_ACCOUNTS} sender accounts; the detailed fields above them are the first run’s.`,
  }
  return { mode: 'per-buyer' as const, ...launch }
}

export const executionBenchmark: BenchModule = {
  name: 'execution',
  async run() {
    const mode = launchMode()
    // 15 runs: single ticks vary by ±50% on a shared machine, a median of many is what a tick usually costs.
    const planning = benchPlanning(100_000, 15)
    const launch = mode === 'batch' ? await batchLaunches(launchRuns(mode)) : await perBuyerLaunches(launchRuns(mode))
    return { planning, launch, peerReference: 'the peer lands swaps 4 to 6 seconds after deployment' }
  },
}
