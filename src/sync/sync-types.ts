import type { Hash, Log } from 'viem'
import { blockTimeMs } from '../chain/block-time-ms.ts'

/** The identity of a block: enough to detect a reorg (a different hash at a known number, or a broken parent link). */
export interface BlockRef {
  number: bigint
  hash: Hash
  parentHash: Hash
  /** Unix seconds. */
  timestamp: bigint
  /**
   * Unix milliseconds from the RPC's optional `timestampMs` (Base since Denim; src/chain/block-time-ms.ts), for latency
   * figures only; absent on nodes without it (anvil). Not stored with checkpoints.
   */
  timestampMs?: number
}

/**
 * What a consumer persists (in the same atomic write as its effects) to resume exactly where it stopped:
 * the last finalized block and every processed block above it, kept by hash until it is deep enough.
 */
export interface SyncCheckpoint {
  finalized: BlockRef
  unfinalized: BlockRef[]
  /** Older finalized blocks, sparse (see finalized-history.ts): where to resume when a node lost more than that. */
  history: BlockRef[]
}

/** A new canonical block with the logs of the watched addresses it holds, in log order. */
export interface BlockEvent {
  type: 'block'
  block: BlockRef
  logs: Log[]
  /**
   * The chain's head when the sync read this block (absent: this block). A block below it is already past when it is
   * delivered (the sync is catching up): a consumer may skip work whose only use is the next block (price ticks).
   */
  head?: bigint
  /**
   * The header of that head when it is above this block: what a consumer prices at when it acts on this block's news
   * without waiting for the head to be delivered (the indexer's launch tick ahead, docs/execution.md §2).
   */
  headBlock?: BlockRef
  /** State after this event: persist it with the consumer's writes for the block. */
  checkpoint: SyncCheckpoint
}

/**
 * Blocks above `ancestor` the consumer processed are no longer canonical: revert everything they caused in one write.
 * The new canonical blocks follow as block events.
 */
export interface ReorgEvent {
  type: 'reorg'
  ancestor: BlockRef
  /** The blocks that left the canonical chain, lowest first. */
  reverted: BlockRef[]
  checkpoint: SyncCheckpoint
}

/** Blocks up to `block` are deep enough to never be reorganised (by the configured confirmation depth). */
export interface FinalizeEvent {
  type: 'finalize'
  block: BlockRef
  checkpoint: SyncCheckpoint
}

export type SyncEvent = BlockEvent | ReorgEvent | FinalizeEvent

export const toBlockRef = (block: { number: bigint | null; hash: Hash | null; parentHash: Hash; timestamp: bigint; timestampMs?: unknown }): BlockRef => {
  if (block.number === null || block.hash === null) throw new Error('pending block has no number or hash')
  const time = blockTimeMs(block)
  return { number: block.number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp, ...(time.precise ? { timestampMs: time.ms } : {}) }
}

/** JSON-safe form for storage (bigints as decimal strings). */
export interface StoredBlockRef {
  number: string
  hash: Hash
  parentHash: Hash
  timestamp: string
}

export const storeBlockRef = (ref: BlockRef): StoredBlockRef => ({
  number: ref.number.toString(),
  hash: ref.hash,
  parentHash: ref.parentHash,
  timestamp: ref.timestamp.toString(),
})

export const loadBlockRef = (ref: StoredBlockRef): BlockRef => ({
  number: BigInt(ref.number),
  hash: ref.hash,
  parentHash: ref.parentHash,
  timestamp: BigInt(ref.timestamp),
})
