import { PrebuyError } from '../../src/common/errors.ts'
import { withResolvers } from '../../src/common/with-resolvers.ts'
import type { LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'
import type { UserOperationResult } from '../../src/wallets/wallet-service.ts'
import type { SubmittedBuy, TickDecider } from './decide-tick.ts'
import type { ExecutorContext } from './executor-context.ts'
import type { BatchRunner } from './run-batch.ts'
import { type BuySettler, unsentFailure } from './settle-buys.ts'
import { settleReadBuys } from './settle-read-buys.ts'
import { type BuySubmitterContext, submitBuys } from './submit-buys.ts'
import { tickKind, type TickSeen, unseen } from './tick-kind.ts'

export type TickRunnerContext = BuySubmitterContext &
  Pick<ExecutorContext, 'withChainLock' | 'stopped' | 'onTick'> &
  Partial<Pick<ExecutorContext, 'reorgEpochs'>>

/**
 * One tick from decision to recorded outcome: decide and write the executing batch under the chain lock (the buys are
 * submitted as soon as the batch is built, broadcast once it is written; the approved wallets' batch is sent once it is
 * written too), wait for the results outside the lock, then settle them under the chain lock again. A submission that
 * failed as a whole is settled from the chain: some of its operations may have been sent.
 */
export function createTickRunner(ctx: TickRunnerContext, parts: { decider: TickDecider; settler: BuySettler; batches?: BatchRunner }) {
  const { decider, settler, batches } = parts

  async function settleSubmission(launch: LaunchRecord, submitted: SubmittedBuy[], submission: Promise<UserOperationResult[]>): Promise<void> {
    // The reorgs signalled before the outcomes are read (the bundler's receipts, then ours): settle-read-buys.ts.
    const epoch = ctx.reorgEpochs?.of(launch.chain)
    let results: UserOperationResult[]
    try {
      results = await submission
    } catch (error) {
      ctx.log.warn({ err: error, slug: launch.slug }, 'submission failed; settling from the chain')
      const hint = unsentFailure('submission failed', error instanceof PrebuyError ? error.code : undefined)
      const settlements = await Promise.all(submitted.map(({ entry }) => settler.fromChain(entry, hint)))
      return settleReadBuys(ctx, settler, launch, settlements, epoch)
    }
    return settleReadBuys(ctx, settler, launch, await settler.fromResults(submitted, results), epoch)
  }

  return async function runTick(tick: PriceTick, launch: LaunchRecord): Promise<void> {
    if (ctx.stopped()) return
    // Before the chain lock: how long a tick waits for it shows in the stage timings (issue 23 item 3).
    ctx.stage(`executor.tickQueued.${tick.reason}`)
    let submission: Promise<UserOperationResult[]> | undefined
    let batch: Promise<void> | undefined
    const submitted: SubmittedBuy[] = await ctx.withChainLock(launch.chain, () =>
      timedTick(ctx, tick, launch, (seen) =>
        decider.decide(
          tick,
          launch,
          (buys, written) => {
            submission = submitBuys(ctx, launch, tick, buys, written)
            // A failed batch write rejects decide (above) and this submission, which then sent nothing.
            submission.catch(() => undefined)
          },
          batches
            ? (record, writes) => {
                // Never rejects: a failed write sends nothing, an unclear fate is asked of the chain again.
                const out = withResolvers<void>()
                batch = batches.run(record, launch, writes, out.resolve)
                return out.promise
              }
            : undefined,
          seen,
        ),
      ),
    )
    await Promise.all([submitted.length > 0 && submission ? settleSubmission(launch, submitted, submission) : undefined, batch])
  }
}

/**
 * Runs a tick's decision timed for the metrics (ctx.onTick: prebuy_executor_tick_seconds), from its start under the
 * chain lock until it is recorded, by what it did (tick-kind.ts), and its part after its reads answered (the orders
 * and balances of the block's warm snapshot, the reservations, the quote): its planning and recording, what the
 * planning bench measures outside the daemon. A tick that threw is timed too, as `failed`.
 */
async function timedTick<T>(ctx: Pick<ExecutorContext, 'onTick'>, tick: PriceTick, launch: LaunchRecord, run: (seen: TickSeen) => Promise<T>): Promise<T> {
  const seen = unseen()
  const { onTick } = ctx
  if (!onTick) return run(seen)
  const started = performance.now()
  let failed = true
  try {
    const out = await run(seen)
    failed = false
    return out
  } finally {
    const ended = performance.now()
    const kind = failed ? 'failed' : tickKind({ reason: tick.reason, ...seen })
    onTick(launch.chain, kind, (ended - started) / 1000, seen.readAt === undefined ? undefined : (ended - seen.readAt) / 1000)
  }
}
