import type { OrderVerdict } from '../../src/domain/execution/verdicts.ts'
import type { Address } from 'viem'
import { candidateBuckets, type QuoteAhead } from './tick-quotes.ts'
import type { IndexerSignal } from '../indexer/tick-bus.ts'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import { withResolvers } from '../../src/common/with-resolvers.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import type { DecisionInputs, InFlightExecution, LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'
import { orderKey } from '../../src/store/order-index.ts'
import type { StoreOperation } from '../../src/store/open-store.ts'
import type { ExecutorContext } from './executor-context.ts'
import { inFlightEntry } from './in-flight-entry.ts'
import { transitionOps } from './order-transition-ops.ts'
import { candidateOf, type LoadedOrder } from './warm-books.ts'
import { bookWallets } from './book-wallets.ts'
import { createLaunchTickReadsAhead } from './launch-tick-reads-ahead.ts'
import { type CandidateDiff, createHeldCandidates, type TickBalances } from '../../src/domain/execution/held-candidates.ts'
import { createFundedCandidates } from '../../src/domain/execution/funded-candidates.ts'
import { createHeldSpends, type HeldSpends } from './held-spends.ts'
import { type BuyToSubmit, DEFAULT_MAX_BUYS, type ExecutionPlan } from '../../src/domain/execution/executor-plan.ts'
import type { CandidateOrder } from '../../src/domain/execution/prepared-book.ts'
import { type BatchPlanner, type BatchPlannerContext, type BatchSplit, createBatchPlanner } from './plan-batch.ts'
import { type BatchWriteInput, batchMoveOps, batchRecordOf } from './batch-executing-ops.ts'
import { type LazyLookup, lazyLookup } from './lazy-lookup.ts'
import type { SendBatch } from './batch-writes.ts'
import { type BatchMoves, commitThenMove, ReadiedLaunchMismatch } from './commit-batch.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { commitReadiedLaunch } from './readied-launch.ts'
import { predictBatchBuys, predictBatchTotal } from './predict-batch-total.ts'
import { batchEntryForm, prepareBatchEntryFormsSoon } from './batch-entry-forms.ts'
import { createReadyLaunches, type ReadyLaunches } from './ready-launches.ts'
import { amountToPrice } from '../../src/domain/batch/clear-batch-ahead.ts'
import { type TickSeen, unseen } from './tick-kind.ts'
import { createQuietTickRecorder } from './record-quiet-tick.ts'
import { decisionInputs } from './decision-inputs.ts'

/** A buy written as `executing` with its in-flight entry, ready to be submitted. */
export interface SubmittedBuy {
  buy: BuyToSubmit
  entry: InFlightExecution
}

/**
 * Called once the executing batch is built, with its buys and the write's promise: the wallet layer signs and
 * simulates while the write runs, and broadcasts nothing before it succeeded (nothing at all if it fails).
 */
export type SubmitBuys = (buys: SubmittedBuy[], written: Promise<void>) => void

export type { SendBatch } from './batch-writes.ts'

/** With `ReadyLaunches` (ready-launches.ts): optional for the tests' stand-in deciders. */
export interface TickDecider extends Partial<ReadyLaunches> {
  /**
   * Decides one tick of a launched project and records it: the plan over the project's active orders, then (when
   * something buys or expires) every transition, the in-flight entries and the decision in one atomic batch, under
   * the orders' locks. Call under the chain lock. Returns the buys handed to `submit`; tells `seen` what it did (its
   * time's kind in the metrics, tick-kind.ts).
   */
  decide(tick: PriceTick, launch: LaunchRecord, submit: SubmitBuys, sendBatch?: SendBatch, seen?: TickSeen): Promise<SubmittedBuy[]>
  /**
   * A block arrived (the indexer's `block` signal, before it processes the block): the reads a launched pool's tick of
   * this block will wait for start now, in the round of the indexer's own reads of the block (its schedule refresh),
   * for the pools ticked on every block and on the block before: the quotes (tick-quotes.ts `quoteAhead`: used only
   * when the tick states exactly the hinted inputs) and, on the batch path, the wallets' allowances at this block (a
   * read of chain state at the block: whatever the tick finds there is what it would have read). Issue 23 item 3.
   */
  ahead?(block: QuoteAhead): void
  /** The reads of a launch tick ahead of its record (launch-tick-reads-ahead.ts). */
  launchAhead?(signal: Extract<IndexerSignal, { type: 'launch_ahead' }>): void
  booksBefore?(chain: ChainKey, blockNumber: bigint, books: ReturnType<ExecutorContext['warm']['snapshot']>): void
  /**
   * A waiting project's candidates as its launch tick will hold them, brought to a block's warm snapshot by the
   * readying pass (held-candidates.ts `prime`): its launch tick then carries them, touching only the wallets the launch
   * block changed. Undefined (nothing held) for a project being ticked, or while one of its ticks takes its candidates.
   */
  primeCandidates?(slug: string, orders: readonly LoadedOrder[], balances: TickBalances): { candidates: CandidateOrder[]; diff: CandidateDiff } | undefined
  /**
   * The spend buckets the readying pass computed over a project's primed candidates of step `seq` (`diff.seq` of what
   * primeCandidates returned): its launch tick quotes them when the launch block changed none of them (held-spends.ts).
   */
  primedSpends?(slug: string, seq: number | undefined, spends: readonly bigint[]): void
  /** The readying pass no longer prepares the project's book: its primed candidates go too (not a ticked project's). */
  forgetPrimed?(slug: string): void
  /** Resolves once the quiet ticks' records handed to the store are written (record-quiet-tick.ts: behind the ticks). */
  quietWritten?(): Promise<void>
  /** The quiet ticks' records handed to the store and not yet written. */
  quietWriting?(): number
}

type Candidate = CandidateOrder & { followers: number }

export type TickDeciderContext = Pick<
  ExecutorContext,
  | 'store'
  | 'journal'
  | 'policy'
  | 'maxBuysPerTick'
  | 'now'
  | 'stage'
  | 'onTick'
  | 'reads'
  | 'withOrderLocks'
  | 'orders'
  | 'books'
  | 'warm'
  | 'ticking'
  | 'quotes'
  | 'backoff'
  | 'log'
  | 'inFlight'
> &
  BatchPlannerContext &
  Partial<Pick<ExecutorContext, 'whenStopped' | 'failStop'>>

/**
 * The tick's decisions by keyId; a buy left for a later tick (a single buy while a released batch holding the order
 * could still land: plan-batch.ts `awaitingReleased`) is `deferred`.
 */
function decisionsByKeyId<D extends { keyId: string; verdict: OrderVerdict }>(decisions: readonly D[], split: BatchSplit): Map<string, D> {
  const byKeyId = new Map(decisions.map((d) => [d.keyId, d]))
  for (const buy of split.awaitingReleased ?? []) {
    const decision = byKeyId.get(buy.candidate.order.keyId)
    if (decision) decision.verdict = 'deferred'
  }
  return byKeyId
}

/**
 * The tick's orders and balances: from the warm snapshot of the tick's block when exact, else from the store/chain;
 * balances carried from the previous tick where the snapshot says they did not change (held-candidates.ts).
 */
async function loadTickCandidates(
  ctx: Pick<TickDeciderContext, 'warm' | 'orders' | 'reads' | 'stage'>,
  held: ReturnType<typeof createHeldCandidates<LoadedOrder, Candidate>>,
  launch: LaunchRecord,
  tick: PriceTick,
): Promise<{
  candidates: Candidate[]
  diff: CandidateDiff
  ordersVersion: number | undefined
  /** The user-write version the snapshot's orders (and their buyers' follower counts) were read at. */
  usersVersion: number | undefined
  /** The warm snapshot's orders when exact (what a readied launch was readied on), else undefined. */
  book: readonly LoadedOrder[] | undefined
  wallets: readonly Address[]
}> {
  ctx.stage('executor.tickStart')
  const snapshot = await ctx.warm.take(launch.chain, launch.slug, BigInt(tick.blockNumber))
  ctx.stage('executor.warmSnapshot')
  // Not exact (a write since the snapshot's read, or no snapshot): the warm books' current load, which the write's
  // reload already started (a load of its own was a second full read of the book: 0.6-2.6 s at 17,000 orders).
  const present = snapshot?.orders ?? (await (ctx.warm.orders ? ctx.warm.orders(launch.slug) : ctx.orders.load(launch.slug)))
  ctx.stage('executor.ordersUsersWallets')
  const step = held.begin(launch.slug, present, snapshot ? { known: snapshot.balances, state: snapshot.state } : undefined)
  const fresh = step.missing.length > 0 ? await ctx.reads.balances(launch.chain, step.missing) : new Map<string, bigint>()
  ctx.stage('executor.balances')
  // Only the warm snapshot's orders carry the write version they were read at (a load from the store does not).
  // The book's wallets: the same array while its orders are (the allowances' read ahead skips a list it covered).
  return {
    ...step.finish(fresh),
    ordersVersion: snapshot?.orders ? snapshot.ordersVersion : undefined,
    usersVersion: snapshot?.orders ? snapshot.usersVersion : undefined,
    book: snapshot?.orders,
    wallets: bookWallets(present).wallets,
  }
}

/** TickDecider's primeCandidates, primedSpends and forgetPrimed: a waiting project's held candidates and buckets. */
function primedAhead(
  ctx: Pick<TickDeciderContext, 'ticking'>,
  held: ReturnType<typeof createHeldCandidates<LoadedOrder, Candidate>>,
  spends: HeldSpends,
): Required<Pick<TickDecider, 'primeCandidates' | 'primedSpends' | 'forgetPrimed'>> {
  return {
    primeCandidates(slug, orders, balances) {
      const primed = ctx.ticking.has(slug) ? undefined : held.prime(slug, orders, balances)
      if (primed) spends.step(slug, primed.diff)
      return primed
    },
    primedSpends: (slug, seq, buckets) => void (ctx.ticking.has(slug) || spends.set(slug, seq, buckets)),
    forgetPrimed(slug) {
      if (ctx.ticking.has(slug)) return
      held.forget(slug)
      spends.forget(slug)
    },
  }
}

/**
 * The buckets a tick's quote asks: the previous step's when this one changed no candidate (held-spends.ts; at a launch,
 * those the readying pass computed over the primed candidates), else computed over the candidates that may buy
 * (`mayBuy`: candidateBuckets skips the others first, funded-candidates.ts).
 */
function tickBuckets(
  ctx: Pick<TickDeciderContext, 'quotes'>,
  spends: HeldSpends,
  launch: LaunchRecord,
  diff: CandidateDiff,
  mayBuy: readonly Candidate[],
): readonly bigint[] {
  const kept = spends.step(launch.slug, diff)
  if (kept !== undefined) return kept
  // A chain without a quoter is decided on the formula: no buckets asked.
  if (!ctx.quotes.canQuote(launch.chain)) return []
  const buckets = candidateBuckets(mayBuy)
  spends.set(launch.slug, diff.seq, buckets)
  return buckets
}

/** TickDecider.ahead: the block's quotes and, for launches ticked on every block, their allowances and sends warmed. */
function readAheadOfTicks(
  ctx: TickDeciderContext,
  batches: Pick<BatchPlanner, 'prefetchAllowances'>,
  walletsAhead: Map<string, { launch: LaunchRecord; blockNumber: string; everyBlock: boolean; wallets: readonly Address[] }>,
  block: QuoteAhead,
): void {
  let warmSends = false
  const ticking = (slug: string) => ctx.ticking.has(slug)
  ctx.quotes.quoteAhead(block, ticking)
  for (const [slug, last] of walletsAhead) {
    if (!ticking(slug)) {
      walletsAhead.delete(slug)
      continue
    }
    if (last.launch.chain !== block.chain || !last.everyBlock || BigInt(last.blockNumber) + 1n !== block.blockNumber) continue
    batches.prefetchAllowances({ blockNumber: block.blockNumber.toString() }, last.launch, last.wallets)
    warmSends = true
  }
  // The send's fee and pending-nonce check (chain-now.ts) read in this round too: a launch's readying passes warm it
  // only while the project waits, so a gated pool's first send found it stale and read it right before sending.
  if (warmSends)
    Promise.resolve()
      .then(() => ctx.wallets.prepareAhead?.(block.chain, []))
      .catch((error: unknown) => ctx.log.debug({ err: error, chain: block.chain }, 'warming the sends ahead of a tick failed'))
}

export function createTickDecider(ctx: TickDeciderContext): TickDecider {
  const { store, journal, stage } = ctx
  const quietTicks = createQuietTickRecorder(ctx)
  const batches = createBatchPlanner(ctx)
  const launchReads = createLaunchTickReadsAhead(ctx, batches, (chain) => reservations(chain))
  // Per launch on the batch path: its last tick's block, whether it is ticked every block, and its candidates' wallets.
  const walletsAhead = new Map<string, { launch: LaunchRecord; blockNumber: string; everyBlock: boolean; wallets: readonly Address[] }>()
  // Candidates and wallet balances held between ticks: only new or edited orders and changed wallets are rebuilt.
  const held = createHeldCandidates<LoadedOrder, Candidate>(candidateOf)
  // The candidates that may buy (funded, active), kept by the same diffs: what the buckets and the batch total read.
  const funded = createFundedCandidates<Candidate>()
  // Their spend buckets, kept by the same diffs (held-spends.ts; the readying pass hands its own for a primed project).
  const spends = createHeldSpends()

  const loadCandidates = (launch: LaunchRecord, tick: PriceTick) => loadTickCandidates(ctx, held, launch, tick)

  // Held between ticks until an in-flight entry of the chain is written (in-flight-reservations.ts).
  const reservations = async (chain: ChainKey) => (await ctx.inFlight.of(chain)).byWallet

  /** The executing batch, under the orders' locks: re-read, then expiries, executing moves, in-flight entries, decision. */
  async function recordExecuting(
    tick: PriceTick,
    launch: LaunchRecord,
    plan: ExecutionPlan,
    split: BatchSplit,
    candidates: readonly Candidate[],
    /**
     * Read when the decision is written: with a batch, after its sends (the ~5,000-row table is no longer built before
     * the first collect, docs/execution.md §8 "The first send without a read before it"). Still before another tick of
     * the project re-plans its book: this tick holds its chain lock and the orders' locks until that write is done.
     */
    inputs: () => DecisionInputs,
    submit: SubmitBuys,
    sendBatch: SendBatch | undefined,
    versions: { orders: number | undefined; users: number | undefined },
  ) {
    const at = ctx.now()
    const buys = split.perBuyer
    const batchBuys = split.batch ? [...split.batch.buys.values()] : []
    const keyIds = [...plan.expired.map((o) => o.keyId), ...buys.map((b) => b.candidate.order.keyId), ...batchBuys.map((b) => b.candidate.order.keyId)]
    return ctx.withOrderLocks(keyIds, async () => {
      stage('executor.locked')
      // The expiries and the single buys' moves apart: with a batch, the single buys' go in its commit (they precede
      // their own sends), the expiries in the second write.
      const expiryOps: StoreOperation[] = []
      const ops: StoreOperation[] = []
      const submitted: SubmittedBuy[] = []
      const decisions = [...plan.decisions]
      // Asked for by an order left out, dropped or deferred (or a single buy changed since): built then, once.
      const decisionOf = lazyLookup(() => decisionsByKeyId(decisions, split))
      // A deferred buy's verdict is set when the map is built: built now if the tick has any.
      if (split.awaitingReleased?.length) decisionOf.build()
      // Re-read under the locks, all at once: a PATCH or DELETE that landed since planning wins. Skipped when no order
      // of the project was written since the warm snapshot the tick planned on was read (57-60 ms for 5,000 orders at
      // load ~10): the version is bumped after a write is applied and before its `store.batch` resolves, and every
      // writer that takes these locks (the API's PATCH and DELETE, the executor's own moves and settles) holds them
      // until its write resolved, so with the locks held an unchanged version means the planned records are the
      // stored ones (docs/execution.md §8, "The first collect on the wire first").
      const unchanged = versions.orders !== undefined && ctx.warm.ordersVersion?.(launch.slug) === versions.orders
      const currentOf = async (orders: readonly OrderRecord[]) =>
        unchanged ? orders.slice() : ((await store.sub.orders.getMany(orders.map((o) => orderKey(o.keyId, o.slug)))) as Array<OrderRecord | undefined>)
      const [expiredNow, buyingNow, batchNow, followers] = await Promise.all([
        currentOf(plan.expired),
        currentOf(buys.map((b) => b.candidate.order)),
        currentOf(batchBuys.map((b) => b.candidate.order)),
        followersUnderLocks(ctx, keyIds, candidates, versions.users),
      ])
      stage(unchanged ? 'executor.rereadSkipped' : 'executor.reread')
      for (const [i, order] of plan.expired.entries()) {
        const current = expiredNow[i]
        if (current?.status !== 'active') continue
        expiryOps.push(...transitionOps(ctx, current, 'expired', at, { reason: 'expired after launch' }, followers.get(order.keyId) ?? 0))
      }
      for (const [i, buy] of buys.entries()) {
        const { order } = buy.candidate
        const current = buyingNow[i]
        if (current?.status !== 'active' || current.updatedAt !== order.updatedAt) {
          // Planned on a record that changed since: not bought this tick (the next tick sees the new record).
          const decision = decisionOf.get(order.keyId)
          if (decision) decision.verdict = 'in_flight'
          continue
        }
        const entry = inFlightEntry(ctx, launch, tick, buy, at)
        // The event keeps the attempt's block: a later attempt's chain lookup starts at the first one (settle-buys.ts).
        const event = { spendAtoms: entry.spendAtoms, reason: `rank ${buy.rank}`, blockNumber: entry.fromBlock }
        ops.push(...transitionOps(ctx, current, 'executing', at, event, followers.get(order.keyId) ?? 0))
        ops.push(journal.putInFlight(entry))
        submitted.push({ buy, entry })
        // The price this attempt was decided at: a revert for price at the same price counts towards its backoff.
        ctx.backoff.attempted(order.keyId, buy.capAtoms ?? null, BigInt(tick.blockNumber))
      }
      const batchInput: BatchWriteInput | undefined = split.batch
        ? { tick, launch, planned: split.batch, current: batchNow, followers, decisionOf, at }
        : undefined
      const batch = batchInput ? batchRecordOf(batchInput) : undefined
      const decision = () =>
        journal.putDecision({
          slug: launch.slug,
          chain: launch.chain,
          tick,
          policy: ctx.policy.name,
          orders: decisions,
          at,
          inputs: inputs(),
          ...(batch ? { batchId: batch.batchId } : {}),
        })
      if (batch && batchInput && sendBatch) {
        await commitThenMove(ctx, { singleOps: ops, expiryOps }, submitted.length > 0 ? (committed) => submit(submitted, committed) : undefined, {
          record: batch,
          input: batchInput,
          send: sendBatch,
          decision,
        })
        return submitted
      }
      ops.unshift(...expiryOps)
      if (batch && batchInput) ops.push(...batchMoveOps(ctx, batchInput, batch), ctx.batchJournal.put(batch))
      ops.push(decision())
      stage('executor.executingOpsBuilt')
      await writeThenRelease(store, ops, submitted, submit)
      stage('executor.executingWritten')
      return submitted
    })
  }

  return {
    ahead: (block) => readAheadOfTicks(ctx, batches, walletsAhead, block),

    quietWritten: () => quietTicks.written(),
    quietWriting: () => quietTicks.writing(),

    ...launchReads,

    ...createReadyLaunches(ctx, batches, reservations),
    ...primedAhead(ctx, held, spends),
    async decide(tick, launch, submit, sendBatch, seen = unseen()) {
      // The project's last quiet record written first (it is written behind its tick, record-quiet-tick.ts): a
      // project's decisions reach the journal in the order of its ticks. Long written nearly always: no wait.
      const quietWrite = quietTicks.pending(launch.slug)
      if (quietWrite) await quietWrite
      // Formula against the real swap on every launch (and block tick), orders or not: in the background, sharing the
      // block's cached quotes; a disagreement is logged and counted (tick-quotes.ts).
      ctx.quotes.compare(tick, launch).catch((error) => ctx.log.warn({ err: error, slug: launch.slug }, 'comparing formula and quote failed'))
      // The chain's in-flight reservations, held since the last write of an in-flight entry (in-flight-reservations.ts),
      // else read from LevelDB: asked now, so that a read runs on LevelDB's thread while the candidates are taken on
      // this one (asked after them, its answer came 2-6 ms later at a 5,000-order launch: docs/execution.md §8, "The
      // launch tick's split on the readied walk"). Asked a few milliseconds earlier under the same chain lock: no tick of
      // the chain writes an in-flight entry between the two points, and a write made without that lock raced the read
      // at either point the same way.
      const reservedRead = reservations(launch.chain)
      reservedRead.catch(() => undefined)
      const { candidates, diff, ordersVersion, usersVersion, book, wallets: bookWalletList } = await loadCandidates(launch, tick)
      seen.orders = candidates.length
      if (candidates.length === 0) {
        for (const kept of [held, funded, spends]) kept.forget(launch.slug)
        batches.forgetReadied(launch.chain, launch.slug)
        ctx.books.forget(launch.slug)
        ctx.ticking.delete(launch.slug)
        return []
      }
      ctx.ticking.set(launch.slug, launch.chain)
      let formsReady: Promise<void> = Promise.resolve()
      // A clearing readied before the launch (readyClearing): its total is the split's one question if it prices it.
      const readied = sendBatch ? batches.readied(launch.chain, launch.slug) : undefined
      // The batch's allowance read overlaps the quote below (it used to follow the plan: one round trip more).
      if (sendBatch) {
        const wallets = bookWalletList
        batches.prefetchAllowances(tick, launch, wallets)
        walletsAhead.set(launch.slug, { launch, blockNumber: tick.blockNumber, everyBlock: tick.feeDecaying, wallets })
        // The new or edited orders' batch entry forms (parsed amounts, ids, record rows: batch-entry-forms.ts) while
        // the quote is out, in slices between its turns; the split then finds them. At a launch all the book's orders
        // arrive here, but a readied book's were formed by the readying pass (the split forms any written since).
        if (diff.arrived.length > 0 && !readied) {
          const arrived = diff.arrived.map((i) => candidates[i]!)
          formsReady = prepareBatchEntryFormsSoon(arrived, ctx.orders.idOf).catch((error: unknown) =>
            ctx.log.debug({ err: error, slug: launch.slug }, 'forming batch entries ahead failed; the split forms them'),
          )
        }
      }
      const mayBuy = funded.of(launch.slug, candidates, diff)
      const reserved = await reservedRead
      stage('executor.reservations')
      // What decides a launched pool's buys: the real swap quoted for each spend bucket in the next block's context.
      // On the batch path the clearing's quote of the batch total goes out with the buckets' (predict-batch-total.ts).
      const batchTotal = sendBatch ? (readied?.walked && amountToPrice(readied.walked)) || predictBatchTotal(mayBuy, reserved) : undefined
      // A book without limits (what predictBatchTotal answers for): the batch clearing's inclusion cannot depend on the
      // price, so its priority order and walk run now, over the predicted buys, once their forms are ready, while the
      // quote is out (plan-batch.ts clearAhead); the split uses the walk only if done by then and only for exactly its
      // own inputs. Only on a tick where orders arrived (issue 23 item 4's per-tick budget), and not over a book the
      // readying pass walked: the split tries that one (docs/execution.md §8, "The launch readied before the launch").
      if (batchTotal !== undefined && diff.arrived.length > 0 && !readied?.walked) {
        const predict = () =>
          predictBatchBuys({
            candidates,
            executableOf: (c) => batchEntryForm(c.order, c.wallet, ctx.orders.idOf).executable,
            reservedByWallet: reserved,
            policy: ctx.policy,
            launchedAt: launch.launchedAt,
            now: tick.nextBlockTimestamp * 1000,
            maxBuys: ctx.maxBuysPerTick ?? DEFAULT_MAX_BUYS,
          })
        batches.clearAhead(tick, launch, formsReady, predict).catch(() => undefined)
      }
      const buckets = tickBuckets(ctx, spends, launch, diff, mayBuy)
      const quote = await ctx.quotes.quotedCaps(tick, launch, buckets, batchTotal === undefined ? [] : [batchTotal])
      stage('executor.quoted')
      seen.readAt = performance.now()
      const landsIn = BigInt(tick.blockNumber) + 1n
      const heldBack = new Set<string>()
      const holdBack = (keyId: string, capAtoms: bigint | null): boolean => {
        if (!ctx.backoff.waiting(keyId, capAtoms, landsIn)) return false
        heldBack.add(keyId)
        return true
      }
      const input = {
        tick,
        launchedAt: launch.launchedAt,
        // A buy lands in the next block: an order whose expiry falls before that block may not buy any more.
        now: tick.nextBlockTimestamp * 1000,
        totalSupply: BigInt(launch.totalSupply),
        candidates,
        reservedByWallet: reserved,
        policy: ctx.policy,
        ...(ctx.maxBuysPerTick === undefined ? {} : { maxBuys: ctx.maxBuysPerTick }),
        ...(quote ? { quote } : {}),
        holdBack,
      }
      const planTick = () => {
        const plan = ctx.books.plan(launch.slug, input, diff)
        stage('executor.planned')
        Object.assign(seen, { bookUse: ctx.books.lastUse(launch.slug), acted: plan.buys.length > 0 || plan.expired.length > 0 })
        stage(`executor.book.${seen.bookUse ?? 'none'}`)
        return plan
      }
      // A launch whose readied walk is provably this plan (readied-launch.ts): committed and sent before the plan,
      // which runs after the sends and must build the record committed (docs/execution.md §8, "The launch committed on
      // its readied walk").
      if (sendBatch && readied?.walked) {
        const done = await commitReadiedLaunch(ctx, batches, {
          tick,
          launch,
          readied,
          book,
          ordersVersion,
          usersVersion,
          candidates,
          reserved,
          quote,
          maxBuys: ctx.maxBuysPerTick ?? DEFAULT_MAX_BUYS,
          wallets: bookWalletList,
          send: sendBatch,
          after: async (committed) => {
            const plan = planTick()
            quietTicks.forget(launch.slug)
            const split = await batches.split(tick, launch, plan.buys, bookWalletList)
            stage('executor.batchCleared')
            return checkedMoves(ctx, {
              tick,
              launch,
              plan,
              split,
              candidates,
              committed,
              inputs: () => decisionInputs(input, plan.candidatesInPriority(), heldBack),
            })
          },
        })
        if (done) return []
      }
      const plan = planTick()
      // Read now, before another tick of the project re-plans its book (see candidatesInPriority).
      if (plan.buys.length === 0 && plan.expired.length === 0) {
        await quietTicks.record(tick, launch, plan, input, heldBack)
        return []
      }
      const inputs = () => decisionInputs(input, plan.candidatesInPriority(), heldBack)
      quietTicks.forget(launch.slug)
      // Approved wallets buy together through the batch buyer (one swap, one price); the others one by one as before.
      // The allowances asked with the book's wallet list, as read ahead above (a superset of the buys' wallets: the
      // plan buys only from these candidates).
      const split: BatchSplit = sendBatch ? await batches.split(tick, launch, plan.buys, bookWalletList) : { perBuyer: plan.buys }
      stage('executor.batchCleared')
      return recordExecuting(tick, launch, plan, split, candidates, inputs, submit, sendBatch, { orders: ordersVersion, users: usersVersion })
    },
  }
}

/**
 * A readied launch's plan and split, run after its commit's sends (readied-launch.ts): the orders' moves and the
 * decision when the batch record they build is the one committed, field for field (its JSON text); throws
 * ReadiedLaunchMismatch otherwise (commit-batch.ts fail-stops the executor, the restart rolls the commit forward).
 */
function checkedMoves(
  ctx: Pick<TickDeciderContext, 'journal' | 'policy' | 'stage'>,
  p: {
    tick: PriceTick
    launch: LaunchRecord
    plan: ExecutionPlan
    split: BatchSplit
    candidates: readonly Candidate[]
    committed: BatchRecord
    inputs: () => DecisionInputs
  },
): BatchMoves {
  const { tick, launch, plan, split, candidates, committed } = p
  if (plan.expired.length > 0 || split.perBuyer.length > 0 || (split.awaitingReleased?.length ?? 0) > 0 || !split.batch)
    throw new ReadiedLaunchMismatch(
      `the plan expired ${plan.expired.length}, bought ${split.perBuyer.length} singly and held ${split.awaitingReleased?.length ?? 0} back`,
    )
  const decisions = [...plan.decisions]
  const decisionOf = lazyLookup(() => decisionsByKeyId(decisions, split))
  const followers = lazyLookup(() => new Map(candidates.map((c) => [c.order.keyId, c.followers])))
  // The orders as planned: no order of the project was written since the snapshot (checked under the locks, which the
  // tick holds until the moves are written).
  const current = [...split.batch.buys.values()].map((b) => b.candidate.order)
  const input: BatchWriteInput = { tick, launch, planned: split.batch, current, followers, decisionOf, at: committed.at }
  const rebuilt = batchRecordOf(input)
  if (!rebuilt || JSON.stringify(rebuilt) !== JSON.stringify(committed))
    throw new ReadiedLaunchMismatch(`the plan's batch record is not the one committed (${rebuilt ? rebuilt.batchId : 'no batch'})`)
  ctx.stage('executor.readiedLaunch.checked')
  return {
    input,
    decision: () =>
      ctx.journal.putDecision({
        slug: launch.slug,
        chain: launch.chain,
        tick,
        policy: ctx.policy.name,
        orders: decisions,
        at: committed.at,
        inputs: p.inputs(),
        batchId: committed.batchId,
      }),
  }
}

/** Hands the buys on with the write's promise before writing, so signing overlaps the write; settles the gate after. */
async function writeThenRelease(store: TickDeciderContext['store'], ops: StoreOperation[], submitted: SubmittedBuy[], submit: SubmitBuys): Promise<void> {
  const written = withResolvers<void>()
  written.promise.catch(() => undefined)
  if (submitted.length > 0) {
    submit(submitted, written.promise)
    // Handing the batch to LevelDB is synchronous (~10 ms for a 500-buy launch): let the wallet layer sign its
    // first chunk and start simulating it on the node before the write takes the thread.
    await new Promise((resolve) => setImmediate(resolve))
  }
  try {
    await store.batch(ops)
    written.resolve()
  } catch (error) {
    written.reject(error)
    throw error
  }
}

/**
 * The buyers' follower counts for the moves under the orders' locks (the buyer index keys they rewrite): the planned
 * candidates' while no user record was written since the snapshot's read (`usersVersion`), built when first asked (by
 * an expiry or a single buy's move, else by the batch's moves after its sends); else read now, in one read, as
 * followerCountOf reads them. The operator's social-profile change takes the same locks (buyer-service.ts): a move
 * with the count planned before it wrote a second index entry for the buyer that nothing deleted.
 */
async function followersUnderLocks(
  ctx: Pick<TickDeciderContext, 'store' | 'warm'>,
  keyIds: readonly string[],
  candidates: readonly Candidate[],
  usersVersion: number | undefined,
): Promise<LazyLookup<number>> {
  if (usersVersion !== undefined && ctx.warm.usersVersion?.() === usersVersion) {
    return lazyLookup(() => new Map(candidates.map((c) => [c.order.keyId, c.followers])))
  }
  const users = await ctx.store.sub.users.getMany([...keyIds])
  return lazyLookup(() => new Map(keyIds.map((keyId, i) => [keyId, users[i]?.social?.followerCount ?? 0])))
}
