import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import { orderKey } from '../../src/store/order-index.ts'
import type { StoreOperation } from '../../src/store/open-store.ts'
import type { ExecutorContext } from './executor-context.ts'
import { transitionOps } from './order-transition-ops.ts'
import { executionOf } from './settle-buys.ts'
import { followerCountOf } from '../../src/store/follower-count.ts'
import type { FillRecord } from '../../src/journal/journal-records.ts'
import type { BuyOutcome } from './find-buy.ts'
import type { Hash } from 'viem'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { batchEntryInFlight } from './in-flight-entry.ts'

export type FillRevalidatorContext = Pick<ExecutorContext, 'store' | 'journal' | 'reads' | 'withOrderLocks' | 'now' | 'log'> &
  Partial<Pick<ExecutorContext, 'batchReads' | 'batchJournal' | 'splitReads'>>

/** Waits between attempts after a failed revalidation: 250 ms doubling, at most 5 s (a stop is noticed within it). */
export const revalidationRetryDelayMs = (failures: number): number => Math.min(250 * 2 ** Math.min(failures - 1, 5), 5_000)

/**
 * revalidateFills (under the chain lock) until it succeeds or the executor stops: a chain read failing right after a
 * reorg must not leave a buy the reorg undid recorded as filled (its order would never buy again). Each failure is
 * logged and retried after revalidationRetryDelayMs. Resolves to revalidateFills' outcome (nothing when stopped first).
 */
export async function revalidateFillsUntilDone(
  ctx: FillRevalidatorContext & Pick<ExecutorContext, 'withChainLock' | 'stopped'>,
  chain: ChainKey,
  ancestor: bigint,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<RevalidationOutcome> {
  for (let failures = 1; ; failures++) {
    try {
      return await ctx.withChainLock(chain, () => revalidateFills(ctx, chain, ancestor))
    } catch (error) {
      if (ctx.stopped()) throw error
      ctx.log.warn({ err: error, chain, ancestor: ancestor.toString(), failures }, 'revalidating fills after a reorg failed; retrying')
      await sleep(revalidationRetryDelayMs(failures))
      if (ctx.stopped()) return { reopened: [], held: [] }
    }
  }
}

/** What revalidateFills did that the executor acts on once it is written. */
export interface RevalidationOutcome {
  /** The launches (slugs) with an order put back to active: their tick is asked for the next block. */
  reopened: string[]
  /** The batches a reorg undid or moved, `sent` again with their orders executing under them: the runner asks their fate. */
  held: BatchRecord[]
}

/**
 * After a reorg above `ancestor`: every buy mined above it is checked against the new chain. Still bought in the same
 * transaction and block -> unchanged; a single buy bought elsewhere (re-included) -> the fill is re-pointed; a single
 * buy undone: the order is active again and buys on a later tick (the router's order id still guarantees a single buy
 * if the old transaction lands after all: PrebuyBuyRouter refuses an order id twice per wallet);
 * - a batch's buy undone OR re-mined at another place (its output and the buyers it skips can differ there, so it is
 *   settled again from there rather than re-pointed with its old shares): the order is held `executing` under its
 *   batch again (filled -> executing, cause
 *   `batch_undone_by_reorg`, its in-flight entry naming the batch) and the batch record is `sent` again: the batch's
 *   signed transactions may be re-included at or before its last block and pull the same wallets, and the contract
 *   refuses a batch id twice, not an order bought under another id. The runner's fate check decides (re-mined -> filled
 *   again with the new block; never -> released once its last block is final, then bought once). A split batch alike:
 *   its collects and settle are the transactions that may come back (resolve-split-batch.ts cancels it, refunds what
 *   was collected, and waits for its last block, or settles it again).
 * Call under the chain lock. Returns what was written for the caller to act on (RevalidationOutcome).
 */
export async function revalidateFills(ctx: FillRevalidatorContext, chain: ChainKey, ancestor: bigint): Promise<RevalidationOutcome> {
  const { store, journal } = ctx
  const fills = await journal.fillsAbove(chain, ancestor)
  if (fills.length === 0) return { reopened: [], held: [] }
  const reactivated = new Set<string>()
  const outcomes = await Promise.all(
    fills.map((f) => (f.batchId ? batchFillOutcome(ctx, f, ancestor) : ctx.reads.buyOf(chain, f.wallet, f.orderId, ancestor + 1n))),
  )
  const at = ctx.now()
  const inPlace = (fill: FillRecord, outcome: BuyOutcome | undefined): boolean =>
    outcome !== undefined && outcome.txHash === fill.txHash && outcome.blockNumber.toString() === fill.blockNumber
  // The records of the batches no longer where they were (undone, or re-mined at another place: the skipped buyers and
  // the swap's output can differ there, so it is settled again from there rather than re-pointed), read before the
  // orders' locks (the chain lock keeps the runner from settling them).
  const undone = await undoneBatches(
    ctx,
    fills.filter((fill, i) => fill.batchId && !inPlace(fill, outcomes[i])),
    at,
  )
  // The orders the undone batches skipped (their pull failed): held too while they are still active (heldSkippedOps).
  const skippedEntries = [...undone.values()].flatMap((record) =>
    (record.execution?.skipped ?? []).flatMap((i) => (record.included[i] ? [{ record, entry: record.included[i]! }] : [])),
  )
  const lockedKeys = [...fills.map((f) => f.keyId), ...skippedEntries.map((s) => s.entry.keyId)]
  await ctx.withOrderLocks(lockedKeys, async () => {
    const ops: StoreOperation[] = [...[...undone.values()].map((record) => ctx.batchJournal!.put(record))]
    for (const [i, fill] of fills.entries()) {
      const outcome = outcomes[i]
      if (inPlace(fill, outcome)) continue
      const current = (await store.sub.orders.get(orderKey(fill.keyId, fill.slug))) as OrderRecord | undefined
      ops.push(journal.deleteFill(fill))
      if (current?.status !== 'filled') continue
      const followers = await followerCountOf(store, fill.keyId)
      const heldBy = fill.batchId ? undone.get(fill.batchId) : undefined
      if (outcome && !heldBy) {
        ops.push(journal.putFill({ ...fill, blockNumber: outcome.blockNumber.toString(), txHash: outcome.txHash, spendAtoms: outcome.amountIn.toString() }))
        const event = { reason: 'buy re-mined after a reorg', txHash: outcome.txHash, blockNumber: outcome.blockNumber.toString() }
        // A batch fill with no batch record to hold it (no batch journal, or released) keeps its share: only where moves.
        const execution = fill.batchId && current.execution ? { ...current.execution, txHash: outcome.txHash } : executionOf(outcome, at)
        ops.push(...transitionOps(ctx, current, 'filled', at, event, followers, { execution }))
        continue
      }
      const { execution: _undone, ...rest } = current
      const entry = heldBy?.included.find((e) => e.keyId === fill.keyId && e.slug === fill.slug)
      if (heldBy && entry && current.execution?.batch?.batchId === heldBy.batchId) {
        const reason = outcome
          ? `buy re-mined at block ${outcome.blockNumber} by a reorg; held by batch ${heldBy.batchId} until it is settled again from there`
          : `buy undone by a reorg; held by batch ${heldBy.batchId} until its fate is known`
        const event = { reason, txHash: fill.txHash }
        ops.push(...transitionOps(ctx, rest, 'executing', at, event, followers, {}, 'batch_undone_by_reorg'))
        ops.push(journal.putInFlight(batchEntryInFlight(heldBy, entry, at)))
        continue
      }
      ops.push(...transitionOps(ctx, rest, 'active', at, { reason: 'buy undone by a reorg', txHash: fill.txHash }, followers))
      reactivated.add(fill.slug)
    }
    ops.push(...(await heldSkippedOps(ctx, skippedEntries, at)))
    await store.batch(ops)
  })
  ctx.log.warn({ chain, ancestor: ancestor.toString(), fills: fills.length, heldBatches: undone.size }, 'revalidated fills after a reorg')
  return { reopened: [...reactivated], held: [...undone.values()] }
}

/**
 * The orders an undone batch SKIPPED (its pull of their wallet failed: withdrawn or revoked; a split batch's chunk never
 * collected) are active again since its settle, and would buy in the next batch. But the undone batch's transactions
 * may come back (held above for that reason), and their pull may now succeed if the wallet was refilled or approved
 * again meanwhile: the wallet would pay in both. So a skipped order that is still `active` is held under the batch as
 * its bought orders are (`active -> executing`, its in-flight entry naming the batch): the batch's fate then settles it
 * (filled when the transaction that comes back pulls it, active again when it skips it again or when the batch is
 * released). A skipped order that is no longer active (another execution holds it, or it filled meanwhile) cannot be
 * held: logged, since if the batch comes back and pulls it, it paid twice (docs/execution.md §6, known limits).
 */
async function heldSkippedOps(
  ctx: FillRevalidatorContext,
  skipped: ReadonlyArray<{ record: BatchRecord; entry: BatchRecord['included'][number] }>,
  at: number,
): Promise<StoreOperation[]> {
  if (skipped.length === 0) return []
  const currents = (await ctx.store.sub.orders.getMany(skipped.map((s) => orderKey(s.entry.keyId, s.entry.slug)))) as Array<OrderRecord | undefined>
  const ops: StoreOperation[] = []
  for (const [i, { record, entry }] of skipped.entries()) {
    const current = currents[i]
    if (current?.status !== 'active') {
      if (current?.status === 'executing' || current?.status === 'filled')
        ctx.log.warn(
          { batchId: record.batchId, keyId: entry.keyId, slug: entry.slug, status: current.status },
          'a buyer the undone batch skipped is bought elsewhere meanwhile: if the batch comes back and pulls it, it pays twice',
        )
      continue
    }
    const followers = await followerCountOf(ctx.store, entry.keyId)
    const event = { reason: `skipped by batch ${record.batchId}, which a reorg undid: held by it until its fate is known` }
    ops.push(...transitionOps(ctx, current, 'executing', at, event, followers))
    ops.push(ctx.journal.putInFlight(batchEntryInFlight(record, entry, at)))
  }
  return ops
}

/** Where a batch fill's batch is on the new chain (BatchExecuted of its id), as a buy outcome of the order's spend. */
async function batchFillOutcome(ctx: FillRevalidatorContext, fill: FillRecord, ancestor: bigint): Promise<BuyOutcome | undefined> {
  if (!ctx.batchReads || !fill.batchBuyer || !fill.batchId) return undefined
  const execution = await ctx.batchReads.executionOf(fill.chain, fill.batchBuyer, fill.batchId, ancestor + 1n)
  if (!execution) {
    // A split batch's fill: its BatchSettled (run-split-batch.ts) instead of BatchExecuted.
    const settled = await ctx.splitReads?.settled(fill.chain, fill.batchBuyer, fill.batchId, ancestor + 1n)
    return settled && { txHash: settled.txHash, blockNumber: settled.blockNumber, amountIn: BigInt(fill.spendAtoms), tokensReceived: 0n, fee: 0n }
  }
  return { txHash: execution.txHash, blockNumber: BigInt(execution.blockNumber), amountIn: BigInt(fill.spendAtoms), tokensReceived: 0n, fee: 0n }
}

/**
 * The records of the batches whose fills the reorg undid (their BatchExecuted or BatchSettled is not on the new chain),
 * as they are to be written: `sent` again, with `undone` saying which execution was lost, so the journal no longer holds
 * as executed or swept a batch the chain does not have (found by the crash rounds: a batch swept before a kill -9 whose
 * blocks the restarted chain lost stayed `swept`) and the runner asks its fate like any batch sent. Its `execution` is
 * kept until it is settled again or released: the orders' filled events of that transaction are in their history,
 * which the replay checks it against. A batch not found (no batch journal), or already released, holds nothing: its
 * orders are active again (the old rule).
 */
async function undoneBatches(ctx: FillRevalidatorContext, undone: readonly FillRecord[], at: number): Promise<Map<Hash, BatchRecord>> {
  const { batchJournal } = ctx
  const held = new Map<Hash, BatchRecord>()
  if (!batchJournal) return held
  const seen = new Set<string>()
  for (const fill of undone) {
    if (seen.has(fill.batchId!)) continue
    seen.add(fill.batchId!)
    const launch = await ctx.journal.getLaunchBySlug(fill.slug)
    if (!launch || launch.chain !== fill.chain) continue
    const record = (await batchJournal.ofLaunch(fill.chain, fill.slug, launch.blockNumber)).find((b) => b.batchId === fill.batchId)
    if (!record || record.state === 'released') continue
    held.set(record.batchId, {
      ...record,
      state: 'sent',
      undone: { txHash: fill.txHash, blockNumber: fill.blockNumber, at },
    })
  }
  return held
}
