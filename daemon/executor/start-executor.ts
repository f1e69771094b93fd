import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'
import type { IndexerSignal } from '../indexer/tick-bus.ts'
import { createTickDecider } from './decide-tick.ts'
import { createBatchApprovals } from './approve-ahead.ts'
import { createExecutorContext, type ExecutorDeps } from './executor-context.ts'
import { createLaunchReadiness } from './ready-ahead.ts'
import { revalidateFillsUntilDone } from './revalidate-fills.ts'
import { createTickRunner } from './run-tick.ts'
import { createBuySettler } from './settle-buys.ts'
import { createBatchRunner } from './run-batch.ts'
import { createTickQueue } from './tick-queue.ts'
import { withResolvers } from '../../src/common/with-resolvers.ts'
import type { ExecutorFailStop } from './batch-writes.ts'
import { rollForwardCommittedBatches } from './roll-forward-batches.ts'
import { warmHeldTicksOnce } from './warm-held-ticks.ts'

export type { ExecutorDeps } from './executor-context.ts'

export interface Executor {
  /** Processes one tick now (the bus path queues to this); resolves when its buys have a final state. */
  handleTick(tick: PriceTick, launch: LaunchRecord): Promise<void>
  /** Settles every in-flight execution from the chain (run at start: a crash between submission and receipt). */
  reconcile(): Promise<void>
  /**
   * Resolves when every queued tick and background task (revalidations, start-up books) has finished, and every
   * readying pass ahead of launches that was under way when it was called. Readying passes begun since are not waited
   * for: one starts on every processed block, so with passes slower than a block (a loaded node, RPC latency) there
   * would never be a moment without one, and idle() never resolved (the latency bench's hang, docs/execution.md §8
   * "The readying pass that never ended"). Then the quiet ticks' records written behind their ticks.
   */
  idle(): Promise<void>
  /** Ticks, background tasks and quiet ticks' record writes queued or in progress (0 = idle). */
  busy(): number
  /**
   * Resolves once every approval of the batch buyer sent ahead so far has its outcome (they land in later blocks, so
   * idle() does not wait for them).
   */
  approvalsSettled(): Promise<void>
  /**
   * Whether every sender account of the chain is an operator of its batch buyer, read from the chain: batches then go
   * out from the pool, else from the bundler EOA (batch-operators.ts).
   */
  batchOperatorsReady(chain: ChainKey): boolean
  /**
   * A waiting project's launch clearing as the readying pass last readied it (ready-ahead.ts, plan-batch.ts
   * `readyClearing`): the block it was readied at (or last found unchanged), the buys predicted for a launch then and
   * whether they were walked. What a caller waits for before a launch it wants bought on a readied book (the split
   * bench; docs/execution.md §8 "The launch readied before the launch").
   */
  launchReadied(chain: ChainKey, slug: string): { blockNumber: bigint; buys: number; batchable: number; walked: boolean } | undefined
  /** Why the executor stopped itself, if it did (batch-writes.ts): it ticks no more in this process. */
  failure(): ExecutorFailStop | undefined
  stop(): Promise<void>
}

/**
 * The order executor: on each tick of a launched project, decides (pure planner), records the decision and every
 * transition in one atomic batch, submits one UserOperation per buy in priority order, and records the outcome.
 * Its parts, each in its own file over one shared context (executor-context.ts): the tick queue (tick-queue.ts),
 * deciding a tick (decide-tick.ts), submitting (submit-buys.ts), settling outcomes (settle-buys.ts), revalidating
 * fills after a reorg (revalidate-fills.ts) and work ahead of launches (ready-ahead.ts, warm-books.ts).
 *
 * Exactly once: an order is bought through PrebuyBuyRouter with an order id the router accepts once per account, and
 * the `executing` state plus an in-flight entry are written before submission; after a crash the in-flight entries
 * are settled from the chain (the router's `executed` flag and PrebuyBuy log), never by buying again.
 */
export async function startExecutor(deps: ExecutorDeps): Promise<Executor> {
  let stopped = false
  let failure: ExecutorFailStop | undefined
  const stopping = withResolvers<void>()
  const ctx = createExecutorContext(deps, () => stopped)
  ctx.whenStopped = stopping.promise
  // A committed batch whose orders could not be moved: no further tick in this process (its orders would look active
  // while their money may be collected); the restart rolls the batch forward (roll-forward-batches.ts).
  ctx.failStop = (why) => {
    if (failure) return
    failure = why
    ctx.log.error({ failure: why }, `the executor stops: ${why.message}; restart the daemon (it rolls the batch forward)`)
    stopped = true
    unsubscribe?.()
    queue.stop()
    deps.onFailStop?.(why)
  }
  const settler = createBuySettler(ctx)
  // A released batch's orders are active again: their launch's tick is asked for the next block (docs/execution.md §6).
  const batches = createBatchRunner(ctx, { released: (record) => deps.ticks.request({ chain: record.chain, slugs: [record.slug] }) })
  const decider = createTickDecider(ctx)
  const runTick = createTickRunner(ctx, { decider, settler, batches })
  // Approvals of the batch buyer ahead of launches, on the chains that have one (ready-ahead.ts runs them).
  const approvals =
    deps.batchBuyers && deps.approvalsAhead !== false
      ? createBatchApprovals({
          store: ctx.store,
          chains: deps.chains,
          clients: deps.clients,
          batchBuyers: deps.batchBuyers,
          wallets: deps.wallets,
          log: ctx.log,
          stopped: () => stopped,
        })
      : undefined
  const readiness = createLaunchReadiness(ctx, approvals, decider)
  let unsubscribe: (() => void) | undefined
  const queue = createTickQueue({ handle: runTick, onError: (error, slug) => ctx.log.error({ err: error, slug }, 'tick failed') })
  const background = new Set<Promise<void>>()
  // The readying passes among them (one per processed block): idle() waits only for those under way when called.
  const readyingPasses = new Set<Promise<void>>()
  const inBackground = (task: Promise<void>, failure: (error: unknown) => void, readying = false): void => {
    const run: Promise<void> = task.catch(failure).finally(() => {
      background.delete(run)
      readyingPasses.delete(run)
    })
    background.add(run)
    if (readying) readyingPasses.add(run)
  }

  async function reconcile(): Promise<void> {
    // An order in a batch is settled with its batch (from BatchExecuted), never as a single buy of its own.
    await batches.reconcile()
    // A sweep the chain lost while the daemon was down (a restarted devnet chain, a reorg): swept again.
    for (const chain of Object.keys(ctx.chains) as ChainKey[]) {
      await batches.resweep(chain).catch((error: unknown) => ctx.log.warn({ err: error, chain }, 'checking the swept batches failed'))
    }
    const single = (await ctx.journal.inFlight()).filter((entry) => entry.batchId === undefined)
    const settlements = await Promise.all(single.map((entry) => settler.fromChain(entry)))
    for (const chain of new Set(settlements.map((s) => s.entry.chain))) {
      await ctx.withChainLock(chain, () => settler.settle(settlements.filter((s) => s.entry.chain === chain)))
    }
  }

  const onSignal = (signal: IndexerSignal): void => {
    if (stopped) return
    switch (signal.type) {
      case 'reorg':
        // First: a settle whose chain reads came before this signal and whose write comes after it reads again.
        ctx.reorgEpochs.bump(signal.chain)
        ctx.warm.reset(signal.chain)
        deps.wallets.forgetAhead?.(signal.chain)
        approvals?.forget(signal.chain)
        ctx.warmAllowances?.forget(signal.chain)
        inBackground(
          // Orders put back to active buy on the next block, not at a quiet pool's heartbeat: their tick is asked of
          // the indexer only now, after the undo is written (a tick it owed by itself could come first, while the
          // order is still filled, and buy nothing). docs/execution.md §6.
          // A batch the reorg undid holds its orders until the runner knows its fate (its release asks the tick then).
          revalidateFillsUntilDone(ctx, signal.chain, signal.ancestor).then(async ({ reopened, held }) => {
            for (const record of held) batches.follow(record)
            if (reopened.length > 0) deps.ticks.request({ chain: signal.chain, slugs: reopened })
            // A sweep in an undone block (its batch kept): the record said swept, the tokens still in the batch buyer.
            await batches.resweep(signal.chain)
          }),
          (error) => ctx.log.error({ err: error, chain: signal.chain }, 'revalidating fills failed'),
        )
        return
      case 'block':
        // The block before's books, before this block's refresh replaces them: a launch log of this block sizes its
        // reads ahead on them (decide-tick.ts launchAhead).
        decider.booksBefore?.(signal.chain, signal.blockNumber, ctx.warm.snapshot(signal.chain, signal.blockNumber - 1n))
        ctx.warm.refresh(signal.chain, signal.blockNumber)
        // The launched pools' quotes and allowances of this block, in the round of the indexer's schedule refresh.
        if (signal.nextBlockTimestamp !== undefined)
          decider.ahead?.({ chain: signal.chain, blockNumber: signal.blockNumber, nextBlockTimestamp: signal.nextBlockTimestamp })
        batches.recheck(signal.chain)
        ctx.batchOperators.retry(signal.chain)
        return
      case 'processed':
        // Tracked: idle() and stop() wait for a readying (a deployment ahead may be being sent).
        inBackground(
          readiness.onProcessed(signal.chain, signal.blockNumber, signal.launched),
          (error) => ctx.log.debug({ err: error, chain: signal.chain }, 'readying ahead of launches failed'),
          true,
        )
        return
      case 'launch_ahead':
        decider.launchAhead?.(signal)
        return
      case 'launch_reverted':
        ctx.ticking.delete(signal.launch.slug)
        return
      case 'tick':
        queue.push(signal.tick, signal.launch)
    }
  }

  // A batch committed before its sends whose orders' moves were never written (a crash, a failed write): moved now,
  // before anything settles or ticks (the daemon did it before serving the API; again here: idempotent).
  // Prepared launch entries no commit names are a former process's (this one's readying pass has not run yet): pruned.
  await rollForwardCommittedBatches({
    store: ctx.store,
    journal: ctx.journal,
    batchJournal: ctx.batchJournal,
    log: ctx.log,
    now: ctx.now,
    pruneUnnamedPrepared: true,
  })
  await reconcile()
  // The sender accounts become batch operators in the background (setOperator lands in a later block): until they
  // are, batches go out from the bundler EOA; a block signal tries again on a chain not ready (batch-operators.ts).
  // Not tracked by idle(): their receipts wait for blocks, like the approvals ahead (ensure never rejects).
  for (const chain of Object.keys(ctx.batchBuyers) as ChainKey[]) void ctx.batchOperators.ensure(chain)
  // The held tick's write path compiled before the first tick (warm-held-ticks.ts): the first PATCH of a held book
  // after a start ran it interpreted (68/44/20 ms for the first three, docs/execution.md §3). Synchronous, ~100-300 ms
  // once per process, before the executor takes signals.
  warmHeldTicksOnce()
  unsubscribe = deps.ticks.subscribe(onSignal)
  inBackground(readiness.prepareLaunchedBooks(), (error) => ctx.log.debug({ err: error }, 'preparing launched books at start failed; ticks build them'))

  return {
    handleTick: runTick,
    reconcile,
    busy: () => queue.size() + background.size + (decider.quietWriting?.() ?? 0),
    approvalsSettled: async () => approvals?.settled(),
    batchOperatorsReady: (chain) => ctx.batchOperators.poolReady(chain),
    launchReadied(chain, slug) {
      const readied = decider.readiedLaunch?.(chain, slug)
      return readied && { blockNumber: readied.blockNumber, buys: readied.buys, batchable: readied.batchable, walked: readied.walked !== undefined }
    },
    failure: () => failure,
    async idle() {
      const passesUnderWay = new Set(readyingPasses)
      const awaited = () => [...background].filter((task) => !readyingPasses.has(task) || passesUnderWay.has(task))
      while (queue.size() > 0 || awaited().length > 0) await Promise.all([...queue.running(), ...awaited()])
      // The quiet ticks' records, written behind their ticks.
      await decider.quietWritten?.()
    },
    async stop() {
      stopped = true
      stopping.resolve()
      unsubscribe?.()
      ctx.warm.stop()
      ctx.inFlight.stop()
      queue.stop()
      // In-flight submissions finish (their state is recorded); anything cut off is settled by the next start.
      await Promise.all([...queue.running(), ...background])
      await decider.quietWritten?.()
    },
  }
}
