import type { BlockRef } from './sync-types.ts'

/** At most this many older finalized blocks are remembered (one per power-of-two distance: about 2^32 blocks back). */
export const HISTORY_LIMIT = 32

/**
 * Older finalized blocks, newest first, thinned to one per power-of-two distance below the current finalized block:
 * 1, 2, 4, 8... blocks back. Why: a node can lose more blocks than the confirmation depth (a devnet chain restarted
 * from an older state dump, a node restored from a snapshot, a deep reorg on a badly configured depth). Without these
 * the sync could only refuse the chain for good; with them it finds the deepest block both sides still agree on,
 * within a factor of two of the true ancestor, and the consumer re-processes from there.
 */
export function rememberFinalized(history: readonly BlockRef[], superseded: BlockRef, finalized: bigint): BlockRef[] {
  const kept: BlockRef[] = []
  let bucket = -1
  // Newest first; the oldest entry of each bucket stays (it keeps reaching further back as the chain grows).
  for (const ref of [superseded, ...history].sort((a, b) => (a.number < b.number ? 1 : a.number > b.number ? -1 : 0))) {
    const distance = finalized - ref.number
    if (distance <= 0n) continue
    const b = bucketOf(distance)
    if (b === bucket) kept[kept.length - 1] = ref
    else kept.push(ref)
    bucket = b
  }
  return kept.slice(0, HISTORY_LIMIT)
}

/** floor(log2(distance)) for distance >= 1. */
function bucketOf(distance: bigint): number {
  return distance.toString(2).length - 1
}
