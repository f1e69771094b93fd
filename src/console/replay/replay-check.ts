import type { ExecutionJournal } from '../../services/execution-journal-service.ts'
import { replayTick, type TickReplay } from '../../domain/execution/replay-tick.ts'

/** `prebuy executions replay --check`: every recorded tick of a launch decided again with today's code. */
export interface ReplayCheck {
  slug: string
  ticks: number
  /** Ticks recorded with their inputs (decisions journaled before inputs were recorded cannot be planned again). */
  checkable: number
  /** Every tick where today's code decides otherwise, with what differs. */
  differing: Array<{ tick: number; blockNumber: string; reason: string; differences: string[] }>
}

export const replayAll = (journal: ExecutionJournal): TickReplay[] => journal.decisions.map((decision) => replayTick(decision, journal.launch))

export function checkReplays(slug: string, replays: readonly TickReplay[]): ReplayCheck {
  return {
    slug,
    ticks: replays.length,
    checkable: replays.filter((r) => r.checkable).length,
    differing: replays.flatMap((r, i) =>
      r.differences.length === 0 ? [] : [{ tick: i + 1, blockNumber: r.decision.tick.blockNumber, reason: r.decision.tick.reason, differences: r.differences }],
    ),
  }
}

/** The check as plain lines. */
export function checkText(check: ReplayCheck): string[] {
  const lines = [`${check.slug}: ${check.ticks} recorded ticks, ${check.checkable} checkable, ${check.differing.length} differing from today's code`]
  for (const tick of check.differing) {
    lines.push(`tick ${tick.tick} (block ${tick.blockNumber}, ${tick.reason}):`)
    for (const line of tick.differences) lines.push(`  ${line}`)
  }
  return lines
}
