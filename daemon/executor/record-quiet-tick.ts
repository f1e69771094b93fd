import { quietRecordOf, type RecordedBook, recordedBook } from '../../src/domain/execution/decision-delta.ts'
import { type ExecutionPlan, sameVerdicts } from '../../src/domain/execution/executor-plan.ts'
import type { LaunchRecord, PriceTick, TickDecision } from '../../src/journal/journal-records.ts'
import { decisionInputs } from './decision-inputs.ts'
import type { ExecutorContext } from './executor-context.ts'

/** The journal record of the ticks where nothing happens (decide-tick.ts): per project, what its last one recorded. */
export interface QuietTickRecorder {
  /**
   * Nothing happens this tick: journal it only when a verdict changed since the last recorded decision, so a quiet
   * book priced every block (fee decay, heartbeats) does not grow the journal with identical entries. The record holds
   * only what changed since the project's previous record when it can (decision-delta.ts): a PATCH changes one order,
   * and the whole book's verdicts and inputs were ~250 bytes an order stringified and written inside the tick. Every
   * 65th record holds what changed since the last whole record instead (a cumulative delta on it), so the book is
   * written whole only after a restart, a tick that acted, a rebuilt book, or changes of half the book.
   */
  record(tick: PriceTick, launch: LaunchRecord, plan: ExecutionPlan, input: Parameters<typeof decisionInputs>[0], heldBack: ReadonlySet<string>): Promise<void>
  /** A tick of the project acted (and wrote its own decision, whole): its next quiet record is whole too. */
  forget(slug: string): void
}

export function createQuietTickRecorder(ctx: Pick<ExecutorContext, 'store' | 'journal' | 'policy' | 'now'>): QuietTickRecorder {
  const { store, journal } = ctx
  const last = new Map<string, RecordedBook>()
  return {
    async record(tick, launch, plan, input, heldBack) {
      const previous = last.get(launch.slug)
      if (previous && sameVerdicts(previous.decisions, plan.decisions)) return
      const record = quietRecordOf(previous, plan.decisions, plan.rows)
      const base = { slug: launch.slug, chain: launch.chain, tick, policy: ctx.policy.name, at: ctx.now() }
      const decision: TickDecision =
        record.kind === 'delta'
          ? { ...base, orders: record.orders, inputs: decisionInputs(input, record.changedCandidates, heldBack), delta: record.delta }
          : { ...base, orders: plan.decisions.slice(), inputs: decisionInputs(input, plan.candidatesInPriority(), heldBack) }
      const op = journal.putDecision(decision)
      // Taken now: the plan's decisions and rows are the book cache's, rewritten by the project's next plan
      // (executor-plan.ts). A delta brings the previous memory up to date in place: it is dropped until the write
      // succeeded, so after a failed write the next record is whole.
      last.delete(launch.slug)
      const recorded = recordedBook(op.key, record, plan.decisions, plan.rows, previous)
      await store.batch([op])
      if (recorded) last.set(launch.slug, recorded)
    },
    forget: (slug) => void last.delete(slug),
  }
}
