import type { Address } from 'viem'
import type { OrderRecord } from '../../src/domain/records.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import type { LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'
import { capForSpend, type QuotedCaps } from '../../src/pricing/quote/quoted-caps.ts'
import type { SendBatch } from './batch-writes.ts'
import { type BatchMoves, type CommitContext, commitThenMove } from './commit-batch.ts'
import type { ExecutorContext } from './executor-context.ts'
import type { BatchPlanner } from './plan-batch.ts'
import type { ReadiedClearing, ReadiedInputs } from './readied-clearing.ts'

/*
 * A readied launch's first tick, committed and sent before its plan (issue 23 item 3; docs/execution.md §8, "The
 * launch committed on its readied walk"). The readying pass holds each waiting launch's readied walk: the buys a
 * launch tick is predicted to make (predict-batch-total.ts predictBatchBuys), filtered by the batch buyer's
 * allowances, priority-ordered and walked (readied-clearing.ts). When the tick's inputs are the readied ones and
 * nothing the planner looks at beyond them can turn a predicted buy away, the plan's batch is that walk's candidates:
 * the tick prices the walk, commits the record built from it and sends its first collect, and the plan, its split and
 * its record run after the sends (commit-batch.ts `after`), where the record they build is checked to be the one
 * committed (a difference fail-stops the executor).
 */

/** Why the readied walk is not provably the launch tick's plan (the tick then plans first, as always). */
export type ReadiedMiss =
  | 'swaps_not_allowed'
  | 'backing_off'
  | 'max_buys'
  | 'limited_order'
  | 'expiring_order'
  | 'quote_short'
  | 'not_all_batchable'
  | 'inputs_changed'
  | 'not_exact'
  | 'written_since'

/** What the planner (executor-plan.ts planPrepared, columnar-planner.ts decideAll) looks at beyond the readied inputs. */
export interface ReadiedPlanTick {
  /** The tick's candidates (their orders' status, limit and expiry). */
  candidates: readonly { order: Pick<OrderRecord, 'status' | 'maxFdvUsdc' | 'expiresInMs'> }[]
  launchedAt: number
  /** The tick's `now` (the next block's time, ms): an order expires when now ≥ launchedAt + expiresInMs. */
  now: number
  /** The tick's own swapsAllowed (the schedule's). */
  swapsAllowed: boolean
  quote: QuotedCaps | undefined
  /** Orders the price back-off counts (PriceBackoff.size): any may hold a buy back (`backing_off`). */
  backingOff: number
  maxBuys: number
}

/** What the readying pass predicted with (ready-launches.ts). */
export interface ReadiedPrediction {
  /** The largest predicted spend: each buy's spend must find a quoted bucket (capForSpend), else it is not bought. */
  largestSpend: bigint
  maxBuys: number
}

/**
 * Whether the planner, given the inputs the prediction was made from (the same book, balances and reservations:
 * checked apart, `sameReadiedInputs`), buys exactly the predicted buys, in their order and with their spends; the miss
 * otherwise. The prediction (predictBatchBuys) applies the planner's status, priority, sizing and `maxBuys` rules and
 * none of these, so each must be void at the tick:
 * - swaps allowed by the schedule and by the quote (else every order is `swaps_not_allowed`);
 * - no order counted by the price back-off (else `holdBack` may turn a buy away: `backing_off`);
 * - the same `maxBuys` (the plan's first `maxBuys` buys);
 * - no active order with a limit (a limit may be below the cap: `limit_below_cap`; a readied walk exists only over a
 *   book whose walked orders have none, but a limited order the walk never reached may still be planned);
 * - no active order expired at the tick's `now` (the readying pass knows no launch time: an expired order is
 *   `expired`, not bought, and its expiry is written);
 * - with a quote, a bucket covering the largest predicted spend (a spend above every bucket is `limit_below_cap`).
 * Proved by a property test against the real planner (test/unit/executor/readied-launch.test.ts).
 */
export function readiedWalkIsPlan(tick: ReadiedPlanTick, prediction: ReadiedPrediction): ReadiedMiss | undefined {
  if (!tick.swapsAllowed || (tick.quote !== undefined && !tick.quote.swapsAllowed)) return 'swaps_not_allowed'
  if (tick.backingOff > 0) return 'backing_off'
  if (tick.maxBuys !== prediction.maxBuys) return 'max_buys'
  if (tick.quote !== undefined && capForSpend(tick.quote, prediction.largestSpend) === undefined) return 'quote_short'
  return activeOrdersMiss(tick.candidates, tick.launchedAt, tick.now)
}

// A loop alone in its function (see columnar-planner.ts on V8 and loops): 5,000 orders at a launch, well under 1 ms.
function activeOrdersMiss(candidates: ReadiedPlanTick['candidates'], launchedAt: number, now: number): ReadiedMiss | undefined {
  for (let i = 0; i < candidates.length; i++) {
    const order = candidates[i]!.order
    if (order.status !== 'active') continue
    if (order.maxFdvUsdc !== null) return 'limited_order'
    if (now >= launchedAt + order.expiresInMs) return 'expiring_order'
  }
  return undefined
}

/**
 * The tick's readied inputs (readied-clearing.ts ReadiedInputs) built as the readying pass builds them
 * (ready-launches.ts): the warm snapshot's book array, each order's balance, its wallet's reservations (none: the empty
 * vector) and allowance at the tick's block, the tick's gas cut. Undefined when the tick's candidates are not the book's
 * orders one for one. The statement of what the tick compares: the launch tick asks tickIsReadied (below), which answers
 * the comparison of these with the readying pass's without building them, and is property-tested against it.
 */
export function tickReadiedInputs(
  readied: Pick<ReadiedClearing, 'walletsLower'>,
  tick: {
    book: readonly { order: unknown }[]
    candidates: readonly { order: unknown; balanceAtoms: bigint }[]
    reserved: ReadonlyMap<string, bigint>
    allowances: ReadonlyMap<string, bigint>
    maxBuyers: number
  },
): ReadiedInputs | undefined {
  const { book, candidates, reserved, allowances } = tick
  const { walletsLower } = readied
  if (candidates.length !== book.length || walletsLower.length !== book.length) return undefined
  const balances: bigint[] = new Array(candidates.length)
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!
    if (c.order !== book[i]!.order) return undefined
    balances[i] = c.balanceAtoms
  }
  return {
    book,
    balances,
    reserved: reserved.size === 0 ? [] : walletsLower.map((wallet) => reserved.get(wallet) ?? 0n),
    allowances: walletsLower.map((wallet) => allowances.get(wallet) ?? 0n),
    maxBuyers: tick.maxBuyers,
  }
}

/**
 * Whether the tick's inputs are the readied ones: `sameReadiedInputs(readied.inputs, tickReadiedInputs(readied, tick))`
 * without the tick's vectors built (5,000 balances and allowances at a launch: two arrays and their garbage before the
 * first collect); the same answer, property-tested against that composition (test/unit/executor/readied-launch.test.ts).
 */
export function tickIsReadied(readied: Pick<ReadiedClearing, 'walletsLower' | 'inputs'>, tick: Parameters<typeof tickReadiedInputs>[1]): boolean {
  const { book, candidates, reserved, allowances } = tick
  const { walletsLower, inputs } = readied
  const n = candidates.length
  if (n !== book.length || walletsLower.length !== n || inputs.book !== book || inputs.maxBuyers !== tick.maxBuyers) return false
  if (inputs.balances.length !== n || inputs.allowances.length !== n) return false
  // The tick's reservations vector is empty when the chain has none, else one per order (tickReadiedInputs).
  if (reserved.size === 0 ? inputs.reserved.length !== 0 : inputs.reserved.length !== n) return false
  return sameOrdersAndAmounts(candidates, book, walletsLower, inputs, reserved, allowances)
}

// A loop alone in its function (see columnar-planner.ts on V8 and loops).
function sameOrdersAndAmounts(
  candidates: Parameters<typeof tickReadiedInputs>[1]['candidates'],
  book: Parameters<typeof tickReadiedInputs>[1]['book'],
  walletsLower: readonly string[],
  inputs: ReadiedInputs,
  reserved: ReadonlyMap<string, bigint>,
  allowances: ReadonlyMap<string, bigint>,
): boolean {
  const withReservations = reserved.size > 0
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!
    if (c.order !== book[i]!.order || c.balanceAtoms !== inputs.balances[i]) return false
    const wallet = walletsLower[i]!
    if ((allowances.get(wallet) ?? 0n) !== inputs.allowances[i]) return false
    if (withReservations && (reserved.get(wallet) ?? 0n) !== inputs.reserved[i]) return false
  }
  return true
}

export type ReadiedLaunchContext = CommitContext &
  Pick<ExecutorContext, 'withOrderLocks' | 'warm' | 'backoff' | 'stage'> &
  Partial<Pick<ExecutorContext, 'withOrderLockGroup'>>

/** A launch tick's state after its quote, for its readied launch (decide-tick.ts). */
export interface ReadiedLaunchTick {
  tick: PriceTick
  launch: LaunchRecord
  readied: ReadiedClearing
  /** The warm snapshot's orders the tick planned on (undefined: not an exact snapshot) and their write version. */
  book: readonly { order: unknown }[] | undefined
  ordersVersion: number | undefined
  /** The user-write version of that snapshot (its buyers' follower counts, which the moves' index keys use). */
  usersVersion: number | undefined
  candidates: ReadiedPlanTick['candidates'] & readonly { order: unknown; balanceAtoms: bigint }[]
  reserved: ReadonlyMap<string, bigint>
  quote: QuotedCaps | undefined
  maxBuys: number
  /** The book's wallet list (the allowances' read ahead was asked with it). */
  wallets: readonly Address[]
  send: SendBatch
  /**
   * The tick's plan, its split and their batch record, run once the committed batch's sends are out: resolves with the
   * orders' moves and the decision when that record is `committed` (field for field), rejects otherwise
   * (commit-batch.ts ReadiedLaunchMismatch).
   */
  after(committed: BatchRecord): Promise<BatchMoves>
}

/**
 * The launch tick committed and sent on its readied walk, when that walk is provably its plan: true once done (the
 * commit written, the batch sent, then the plan checked and the moves written, or the executor fail-stopped); false
 * when the tick must plan first, as always (nothing written; a batch sequence taken is reused by the split). Rejects
 * when the commit fails (nothing sent), as the tick's commit does.
 */
export async function commitReadiedLaunch(ctx: ReadiedLaunchContext, batches: Pick<BatchPlanner, 'clearReadied'>, t: ReadiedLaunchTick): Promise<boolean> {
  const miss = (reason: ReadiedMiss) => {
    ctx.stage(`executor.readiedLaunch.missed.${reason}`)
    return false
  }
  const { tick, launch, readied } = t
  if (t.book === undefined || t.ordersVersion === undefined || !ctx.warm.ordersVersion) return miss('not_exact')
  if (readied.buys !== readied.batchable) return miss('not_all_batchable')
  const planMiss = readiedWalkIsPlan(
    {
      candidates: t.candidates,
      launchedAt: launch.launchedAt,
      now: tick.nextBlockTimestamp * 1000,
      swapsAllowed: tick.swapsAllowed,
      quote: t.quote,
      backingOff: ctx.backoff.size,
      maxBuys: t.maxBuys,
    },
    { largestSpend: readied.largestSpend, maxBuys: t.maxBuys },
  )
  if (planMiss) return miss(planMiss)
  const book = t.book
  const record = await batches.clearReadied(tick, launch, t.wallets, (held, allowances, maxBuyers) => {
    if (held !== readied) return false
    return tickIsReadied(readied, { book, candidates: t.candidates, reserved: t.reserved, allowances, maxBuyers })
  })
  if (!record) return miss('inputs_changed')
  ctx.stage('executor.readiedLaunch.cleared')
  const slug = launch.slug
  return lockedForRecord(ctx, readied, record, async () => {
    ctx.stage('executor.locked')
    // Under the orders' locks, no order of the project written since the snapshot the tick read (decide-tick.ts's
    // rule for skipping the re-read): the planned records are the stored ones. Else the tick plans and re-reads.
    // Nor a user record (a follower count the orders' moves key the buyer index with: decide-tick.ts recordExecuting).
    if (ctx.warm.ordersVersion?.(slug) !== t.ordersVersion || ctx.warm.usersVersion?.() !== t.usersVersion) return miss('written_since')
    ctx.stage('executor.rereadSkipped')
    await commitThenMove(ctx, { singleOps: [], expiryOps: [] }, undefined, {
      record,
      send: t.send,
      after: () => t.after(record),
      // The walk the record was built on (clearReadied took `readied` itself): its commit is written from it.
      ...(readied.walked ? { walk: readied.walked.permutation } : {}),
    })
    return true
  })
}

/**
 * `fn` under the locks of every order the record includes: the readied walk's lock group when the record's entries are
 * the readied walk's own (clearReadied takes `readied.recordEntries` as they are: the same array, so the group built
 * from it holds exactly these orders' locks), else each order's lock taken as always.
 */
function lockedForRecord<T>(ctx: ReadiedLaunchContext, readied: ReadiedClearing, record: BatchRecord, fn: () => Promise<T>): Promise<T> {
  const group = readied.lockGroup
  if (group && ctx.withOrderLockGroup && record.included === readied.recordEntries?.included) return ctx.withOrderLockGroup(group, fn)
  return ctx.withOrderLocks(
    record.included.map((e) => e.keyId),
    fn,
  )
}
