import { allocateBatch } from '../../src/domain/batch/batch-allocation.ts'
import { type BatchEntryRecord, type BatchRecord, predictedShareRecord } from '../../src/journal/batch-records.ts'

/*
 * A readied launch's predicted shares, filled in once its transactions are out (issue 23 item 3; docs/execution.md
 * §8, "The readied launch's shares after its sends, its entries before the launch"). A launch tick's batch record names, per included order, the
 * share the clearing predicted (`predicted`: the pro-rata rule over the included spends and the pool's answer,
 * allocateBatch). Nothing before the first send needs them: the collects carry wallets and spends, the compact commit
 * leaves the shares out (the roll forward computes them again, compact-batch-commit.ts), the settle carries the route
 * and the limit. For 5,000 orders they cost 10-13 ms of the launch tick (the allocation, three decimal strings and an
 * object per order, and the scavenges those 25,000 live young objects bring) before the first collect could leave.
 * So the readied launch's record (plan-batch.ts `clearReadied`) is built with SHARES_PENDING in every entry and its
 * filling registered here; `completeShares` fills it in, once, wherever the record is next read whole: after the
 * collects and the settle are out (send-split-batch.ts), before a record is written in full or checked (commit-batch.ts).
 */

/** An included entry's `predicted` until its record's shares are filled in: never written (completeShares first). */
export const SHARES_PENDING: BatchEntryRecord['predicted'] = Object.freeze({ gross: 'pending', fee: 'pending', net: 'pending' })

const pending = new WeakMap<BatchRecord, () => void>()

/** Registers how `record`'s pending shares are filled in (completeShares calls `fill` once). */
export function sharesLater(record: BatchRecord, fill: () => void): void {
  pending.set(record, fill)
}

/** Fills in `record`'s pending shares, if it has any (a no-op otherwise, and on every later call). */
export function completeShares(record: BatchRecord): void {
  const fill = pending.get(record)
  if (!fill) return
  pending.delete(record)
  fill()
}

/** Whether `record` still has shares to fill in. */
export const sharesPending = (record: BatchRecord): boolean => pending.has(record)

/**
 * Fills in `entries`' predicted shares: the pro-rata rule over the chosen spends and the pool's answer `tokensOut`
 * (allocateBatch, the platform fee), exactly as clearBatchAfter's finishClearing computes a cleared entry's share;
 * `entries[i]` is `chosen[i]`'s.
 */
export function fillPredictedShares(entries: readonly BatchEntryRecord[], tokensOut: bigint, chosen: readonly { candidate: { spend: bigint } }[]): void {
  const spends: bigint[] = new Array(chosen.length)
  for (let i = 0; i < chosen.length; i++) spends[i] = chosen[i]!.candidate.spend
  const { shares } = allocateBatch(tokensOut, spends)
  for (let i = 0; i < entries.length; i++) entries[i]!.predicted = predictedShareRecord(shares[i]!)
}
