import { blocksIn, ON_DEMAND_NOMINAL_BLOCK_SECONDS, TIMING_SECONDS } from '../../chain/block-seconds.ts'
import type { ChainKey } from '../../chain/chain-keys.ts'

/**
 * A batch's last block (docs/execution.md §8, "A last block for every pull"): every executeBatch and collect carries
 * `validUntilBlock` and PrebuyBatchBuyer refuses it in any later block (BatchExpired). Without it a released batch's
 * signed transaction, still held by some node or rebroadcast after a reorg, could land long after its orders bought again
 * in a new batch and pull the same wallets a second time (the contract refuses a batch id twice, not an order bought
 * under another id).
 */

/**
 * Seconds a batch's transactions may take to land after the tick it was cleared at. They are sent within the tick and
 * land in the next block when all is well; the bench's 5,000-buyer launch tick took up to ~4 s on a loaded machine
 * before the first send (docs/execution.md §8), so 12 s (60 Base blocks of 200 ms) leaves room for a slow tick and a
 * fee bump, while a batch lost on the way is given up (and its orders buy again) at most this plus the finality depth
 * later. Not the split batch's SETTLE_WINDOW_BLOCKS (one minute from the first collect): that bounds how long collected
 * funds may wait for a settle, this how long a signed pull may wait to land; a minute here would hold every lost batch's
 * buyers for ~84 s on Base instead of ~36 s.
 */
export const BATCH_LANDING_SECONDS = 12

/** How a chain's batches are bounded, in its blocks. */
export interface BatchDeadlineBlocks {
  /** Blocks after the tick's block a batch's pulls may still land in: validUntilBlock = tickBlock + landingBlocks. */
  landingBlocks: number
  /**
   * Depth at which a block is final for the daemon: the indexer's reorg window (TIMING_SECONDS.finality: 120 Base
   * blocks, 12 of 2 s). A batch is given up only once its last block is this deep: a reorg that could still bring its
   * transaction into a block at or below its last block would be deeper than the daemon detects at all.
   */
  finalityBlocks: number
}

/** The deadline figures on a chain with blocks of `blockSeconds`. */
export const batchDeadlineBlocks = (blockSeconds: number): BatchDeadlineBlocks => ({
  landingBlocks: blocksIn(BATCH_LANDING_SECONDS, blockSeconds),
  finalityBlocks: blocksIn(TIMING_SECONDS.finality, blockSeconds),
})

/**
 * Each chain's figures as the executor counts them: from the chain's block time (default the nominal 2 s of a devnet
 * mined on demand), overridden in blocks for every chain when `override` says so. An override it could not honour (not
 * a positive integer) is refused.
 */
export function batchDeadlineOf(options: {
  blockSeconds?: Partial<Record<ChainKey, number>> | undefined
  override?: Partial<BatchDeadlineBlocks> | undefined
}): (chain: ChainKey) => BatchDeadlineBlocks {
  const override = options.override ?? {}
  for (const [name, blocks] of Object.entries(override))
    if (!Number.isSafeInteger(blocks) || (blocks as number) < 1) throw new RangeError(`batchDeadline.${name} must be a positive integer, got ${blocks}.`)
  return (chain) => ({ ...batchDeadlineBlocks(options.blockSeconds?.[chain] ?? ON_DEMAND_NOMINAL_BLOCK_SECONDS), ...override })
}

/** The last block a batch cleared at `tickBlock` may pull in (what its executeBatch or collects carry). */
export const validUntilBlockOf = (tickBlock: bigint, deadline: BatchDeadlineBlocks): bigint => tickBlock + BigInt(deadline.landingBlocks)

/**
 * Whether no transaction of a batch with this last block can ever pull again, seen at `head`: its last block is
 * `finalityBlocks` deep (head ≥ validUntilBlock + finalityBlocks), so the contract refuses it in every block still to
 * come, on this chain and on any reorg of it the daemon accounts for.
 */
export const pastLastBlock = (head: bigint, validUntilBlock: bigint, deadline: Pick<BatchDeadlineBlocks, 'finalityBlocks'>): boolean =>
  head >= validUntilBlock + BigInt(deadline.finalityBlocks)
