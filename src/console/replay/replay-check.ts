import type { ExecutionJournal } from '../../services/execution-journal-service.ts'
import { replayTick, type TickReplay } from '../../domain/execution/replay-tick.ts'
import { type BatchReplay, replayBatch } from './replay-batch.ts'

/** `prebuy executions replay --check`: every recorded tick of a launch decided again with today's code. */
export interface ReplayCheck {
  slug: string
  ticks: number
  /** Ticks recorded with their inputs (decisions journaled before inputs were recorded cannot be planned again). */
  checkable: number
  /** Every tick where today's code decides otherwise, with what differs. */
  differing: Array<{ tick: number; blockNumber: string; reason: string; differences: string[] }>
  /**
   * The launch's batches: each one's inclusion (the priority rule over its recorded candidates and pool answers), its
   * committed lowest limit and its allocation (the chain's tokensOut split, against what each order was credited)
   * decided again.
   */
  batches: {
    count: number
    /** Batches recorded with their clearing's inputs. */
    checkable: number
    /** Batches that executed, whose allocation was checked. */
    allocationsChecked: number
    differing: Array<{ batchId: string; sequence: number; tickBlock: string; differences: string[] }>
  }
}

export const replayAll = (journal: ExecutionJournal): TickReplay[] => journal.decisions.map((decision) => replayTick(decision, journal.launch))

export const replayBatches = (journal: ExecutionJournal): BatchReplay[] => (journal.batches ?? []).map((batch) => replayBatch(batch, journal.events))

export function checkReplays(slug: string, replays: readonly TickReplay[], batches: readonly BatchReplay[] = []): ReplayCheck {
  return {
    slug,
    ticks: replays.length,
    checkable: replays.filter((r) => r.checkable).length,
    differing: replays.flatMap((r, i) =>
      r.differences.length === 0 ? [] : [{ tick: i + 1, blockNumber: r.decision.tick.blockNumber, reason: r.decision.tick.reason, differences: r.differences }],
    ),
    batches: {
      count: batches.length,
      checkable: batches.filter((b) => b.checkable).length,
      allocationsChecked: batches.filter((b) => b.allocationChecked).length,
      differing: batches.flatMap((b) =>
        b.differences.length === 0 ? [] : [{ batchId: b.batchId, sequence: b.sequence, tickBlock: b.tickBlock, differences: b.differences }],
      ),
    },
  }
}

/** Whether the check found any difference, in a tick or a batch. */
export const checkDiffers = (check: ReplayCheck): boolean => check.differing.length > 0 || check.batches.differing.length > 0

/** Whether anything could be checked at all (a tick with its inputs, or a batch with its clearing's). */
export const checkedAnything = (check: ReplayCheck): boolean => check.checkable > 0 || check.batches.checkable > 0 || check.batches.allocationsChecked > 0

/** The check as plain lines. */
export function checkText(check: ReplayCheck): string[] {
  const lines = [`${check.slug}: ${check.ticks} recorded ticks, ${check.checkable} checkable, ${check.differing.length} differing from today's code`]
  for (const tick of check.differing) {
    lines.push(`tick ${tick.tick} (block ${tick.blockNumber}, ${tick.reason}):`)
    for (const line of tick.differences) lines.push(`  ${line}`)
  }
  const b = check.batches
  if (b.count > 0) {
    lines.push(`${b.count} batches, ${b.checkable} with their clearing recorded, ${b.allocationsChecked} allocations checked, ${b.differing.length} differing`)
    for (const batch of b.differing) {
      lines.push(`batch ${batch.sequence} ${batch.batchId} (cleared at block ${batch.tickBlock}):`)
      for (const line of batch.differences) lines.push(`  ${line}`)
    }
  }
  return lines
}
