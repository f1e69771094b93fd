import type { BatchCandidate, BatchExclusion } from '../../src/domain/batch/clear-batch.ts'
import type { BuyToSubmit } from '../../src/domain/execution/executor-plan.ts'
import type { BatchEntryRecord, BatchExclusionRecord } from '../../src/journal/batch-records.ts'
import { type BatchEntryForm, clearingRowOf } from './batch-entry-forms.ts'

/*
 * A batch record's entries (included and excluded orders), built by one pair of functions wherever they are built: the
 * split's record after its clearing (plan-batch.ts batchRecordFrom) and the readying pass's entries of a readied walk
 * (readied-clearing.ts), which a readied launch's record takes as they are (docs/execution.md §8, "The readied launch's
 * shares after its sends, its entries before the launch"). The plan's record, checked against the committed one after the sends, is built by the same
 * functions from the same candidates, forms and ranks.
 */

/** An entry's order and buyer, and its batch entry form (batch-entry-forms.ts). */
export type EntrySource = { candidate: Pick<BuyToSubmit['candidate'], 'order' | 'userIndex' | 'wallet'>; form: BatchEntryForm }

/** An included order's entry, its predicted share given (the clearing's, or SHARES_PENDING: shares-later.ts). */
export function entryRecordOf(
  source: EntrySource,
  cleared: { candidate: BatchCandidate; rank: number },
  predicted: BatchEntryRecord['predicted'],
): BatchEntryRecord {
  const { candidate, form } = source
  return {
    keyId: candidate.order.keyId,
    slug: candidate.order.slug,
    userIndex: candidate.userIndex,
    wallet: candidate.wallet,
    orderId: form.orderId,
    // The clearing row's string when it spends what the row says (its max spend: the common case).
    spendAtoms: clearingRowOf(form, cleared.candidate.spend)[3],
    rank: cleared.rank,
    predicted,
  }
}

/** An excluded order's entry. */
export function exclusionRecordOf(source: EntrySource, excluded: BatchExclusion): BatchExclusionRecord {
  const { candidate, form } = source
  return {
    keyId: candidate.order.keyId,
    slug: candidate.order.slug,
    wallet: candidate.wallet,
    spendAtoms: clearingRowOf(form, excluded.candidate.spend)[3],
    rank: excluded.rank,
    reason: excluded.reason,
  }
}

/** A record's entries: its included and excluded orders, in the clearing's order. */
export interface BatchRecordEntries {
  included: BatchEntryRecord[]
  excluded: BatchExclusionRecord[]
}

/** The entries of a clearing's included and excluded orders (`includedAt`, `excludedAt`: each one's order, buyer and form). */
export function recordEntriesOf<I extends { candidate: BatchCandidate; rank: number }>(
  cleared: { included: readonly I[]; excluded: readonly BatchExclusion[] },
  includedAt: (entry: I) => EntrySource,
  excludedAt: (entry: BatchExclusion) => EntrySource,
  predictedOf: (entry: I) => BatchEntryRecord['predicted'],
): BatchRecordEntries {
  return {
    included: cleared.included.map((inc) => entryRecordOf(includedAt(inc), inc, predictedOf(inc))),
    excluded: cleared.excluded.map((exc) => exclusionRecordOf(excludedAt(exc), exc)),
  }
}
