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

export type FillRevalidatorContext = Pick<ExecutorContext, 'store' | 'journal' | 'reads' | 'withOrderLocks' | 'now' | 'log'> &
  Partial<Pick<ExecutorContext, 'batchReads' | 'batchJournal' | 'splitReads'>>

/** Waits between attempts after a failed revalidation: 250 ms doubling, at most 5 s (a stop is noticed within it). */
export const revalidationRetryDelayMs = (failures: number): number => Math.min(250 * 2 ** Math.min(failures - 1, 5), 5_000)

/**
 * revalidateFills (under the chain lock) until it succeeds or the executor stops: a chain read failing right after a
 * reorg must not leave a buy the reorg undid recorded as filled (its order would never buy again). Each failure is
 * logged and retried after revalidationRetryDelayMs. Resolves to revalidateFills' launches (none when stopped first).
 */
export async function revalidateFillsUntilDone(
  ctx: FillRevalidatorContext & Pick<ExecutorContext, 'withChainLock' | 'stopped'>,
  chain: ChainKey,
  ancestor: bigint,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<string[]> {
  for (let failures = 1; ; failures++) {
    try {
      return await ctx.withChainLock(chain, () => revalidateFills(ctx, chain, ancestor))
    } catch (error) {
      if (ctx.stopped()) throw error
      ctx.log.warn({ err: error, chain, ancestor: ancestor.toString(), failures }, 'revalidating fills after a reorg failed; retrying')
      await sleep(revalidationRetryDelayMs(failures))
      if (ctx.stopped()) return []
    }
  }
}

/**
 * After a reorg above `ancestor`: every buy mined above it is checked against the new chain. Still bought in the same
 * transaction and block -> unchanged; bought elsewhere (re-included) -> the fill is re-pointed; undone -> the order is
 * active again and buys on a later tick (the router's order id still guarantees a single buy if the old transaction
 * lands after all). Call under the chain lock. Returns the launches (slugs) with an order put back to active, written:
 * the caller asks the indexer for their tick on the next block (a quiet pool would only tick at its heartbeat).
 */
export async function revalidateFills(ctx: FillRevalidatorContext, chain: ChainKey, ancestor: bigint): Promise<string[]> {
  const { store, journal } = ctx
  const fills = await journal.fillsAbove(chain, ancestor)
  if (fills.length === 0) return []
  const reactivated = new Set<string>()
  const outcomes = await Promise.all(
    fills.map((f) => (f.batchId ? batchFillOutcome(ctx, f, ancestor) : ctx.reads.buyOf(chain, f.wallet, f.orderId, ancestor + 1n))),
  )
  await ctx.withOrderLocks(
    fills.map((f) => f.keyId),
    async () => {
      const ops: StoreOperation[] = []
      const at = ctx.now()
      ops.push(
        ...(await undoneBatchOps(
          ctx,
          fills.filter((fill, i) => fill.batchId && !outcomes[i]),
        )),
      )
      for (const [i, fill] of fills.entries()) {
        const outcome = outcomes[i]
        if (outcome && outcome.txHash === fill.txHash && outcome.blockNumber.toString() === fill.blockNumber) continue
        const current = (await store.sub.orders.get(orderKey(fill.keyId, fill.slug))) as OrderRecord | undefined
        ops.push(journal.deleteFill(fill))
        if (current?.status !== 'filled') continue
        const followers = await followerCountOf(store, fill.keyId)
        if (outcome) {
          ops.push(journal.putFill({ ...fill, blockNumber: outcome.blockNumber.toString(), txHash: outcome.txHash, spendAtoms: outcome.amountIn.toString() }))
          const event = { reason: 'buy re-mined after a reorg', txHash: outcome.txHash, blockNumber: outcome.blockNumber.toString() }
          // A batch fill keeps its share (the batch's id and entries are the same wherever it is mined): only where moves.
          const execution = fill.batchId && current.execution ? { ...current.execution, txHash: outcome.txHash } : executionOf(outcome, at)
          ops.push(...transitionOps(ctx, current, 'filled', at, event, followers, { execution }))
        } else {
          const { execution: _undone, ...rest } = current
          ops.push(...transitionOps(ctx, rest, 'active', at, { reason: 'buy undone by a reorg', txHash: fill.txHash }, followers))
          reactivated.add(fill.slug)
        }
      }
      await store.batch(ops)
    },
  )
  ctx.log.warn({ chain, ancestor: ancestor.toString(), fills: fills.length }, 'revalidated fills after a reorg')
  return [...reactivated]
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
 * The records of the batches whose fills the reorg undid (their BatchExecuted is not on the new chain): `released`, so the
 * journal no longer holds as executed or swept a batch the chain does not have. Found by the crash rounds: a batch swept
 * before a kill -9 whose blocks the restarted chain lost stayed `swept` while its orders bought again in a new batch. (An
 * `executed` one is also asked again by its sweep, run-batch.ts, which releases it too.) Its `execution` is kept: the
 * orders' filled events of that transaction are in their history, which the replay checks it against.
 */
async function undoneBatchOps(ctx: FillRevalidatorContext, undone: readonly FillRecord[]): Promise<StoreOperation[]> {
  const { batchJournal } = ctx
  if (!batchJournal || undone.length === 0) return []
  const ops: StoreOperation[] = []
  const seen = new Set<string>()
  for (const fill of undone) {
    if (seen.has(fill.batchId!)) continue
    seen.add(fill.batchId!)
    const launch = await ctx.journal.getLaunchBySlug(fill.slug)
    if (!launch || launch.chain !== fill.chain) continue
    const record = (await batchJournal.ofLaunch(fill.chain, fill.slug, launch.blockNumber)).find((b) => b.batchId === fill.batchId)
    if (record?.state !== 'executed' && record?.state !== 'swept') continue
    // A split batch's fate (collected chunks to refund or settle again) is its own: run-split-batch.ts asks the chain.
    if (record.split) continue
    ops.push(batchJournal.put({ ...record, state: 'released', releaseReason: `its execution (${record.txHash}) was undone by a reorg; its orders buy again` }))
  }
  return ops
}
