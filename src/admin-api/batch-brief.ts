import type { BatchBrief } from './console-events.ts'
import type { BatchRecord } from '../journal/batch-records.ts'

/** How many left-out orders a batch's brief names (the counts cover them all). */
export const BATCH_EXCLUDED_SHOWN = 5

/**
 * A journaled batch as the dashboard shows it: who is in, what was paid and returned (the chain's figures once it
 * executed, the clearing's before), who was left out and why.
 */
export function batchBrief(record: BatchRecord): BatchBrief {
  const excludedCounts: BatchBrief['excludedCounts'] = {}
  for (const e of record.excluded) excludedCounts[e.reason] = (excludedCounts[e.reason] ?? 0) + 1
  const execution = record.execution
  return {
    slug: record.slug,
    batchId: record.batchId,
    sequence: record.sequence,
    tickBlock: record.tickBlock,
    state: record.state,
    blockNumber: execution?.blockNumber ?? null,
    txHash: execution?.txHash ?? null,
    buyers: record.included.length,
    skipped: execution?.skipped.length ?? 0,
    totalInAtoms: execution?.totalIn ?? record.included.reduce((sum, e) => sum + BigInt(e.spendAtoms), 0n).toString(),
    tokensOut: execution?.tokensOut ?? record.predictedTokensOut,
    lowestLimitFdv: record.lowestLimitFdv,
    excludedCounts,
    excluded: record.excluded.slice(0, BATCH_EXCLUDED_SHOWN).map((e) => ({ keyId: e.keyId, spendAtoms: e.spendAtoms, rank: e.rank, reason: e.reason })),
    releaseReason: record.releaseReason ?? null,
  }
}
