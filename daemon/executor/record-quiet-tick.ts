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
   *
   * Resolves once the record is built and handed to the store, not written: the write (1.5 ms at the median after a
   * PATCH at 17,000 orders, up to 7 ms behind the warm refresh's reads, held-ticks bench 2026-11-28) runs behind the
   * tick, which then gives up its chain lock. The caller waits for `pending(slug)` before its next `record` or `forget`
   * of the project (decide-tick.ts does, at the start of every tick), so a project has one record in the write at a time
   * and the next one builds its delta on a written one. A failed write makes the next record whole, as before; it is
   * logged, and no longer fails the tick (no money moves on a quiet tick: nothing waits for it).
   */
  record(tick: PriceTick, launch: LaunchRecord, plan: ExecutionPlan, input: Parameters<typeof decisionInputs>[0], heldBack: ReadonlySet<string>): Promise<void>
  /** A tick of the project acted (and wrote its own decision, whole): its next quiet record is whole too. */
  forget(slug: string): void
  /** Resolves once every record handed to the store has been written or has failed (the executor's idle and stop). */
  written(): Promise<void>
  /** Records handed to the store and not yet written (the executor's busy count). */
  writing(): number
  /** The project's record in the write, if any (a tick of the project waits for it first: decide-tick.ts). */
  pending(slug: string): Promise<void> | undefined
}

export function createQuietTickRecorder(ctx: Pick<ExecutorContext, 'store' | 'journal' | 'policy' | 'now' | 'log'>): QuietTickRecorder {
  const { store, journal } = ctx
  const last = new Map<string, RecordedBook>()
  // Per project: its record in the write (waited for by the caller before the project's next record or forget).
  const writing = new Map<string, Promise<void>>()
  return {
    async record(tick, launch, plan, input, heldBack) {
      const { slug } = launch
      const previous = last.get(slug)
      if (previous && sameVerdicts(previous.decisions, plan.decisions)) return
      const record = quietRecordOf(previous, plan.decisions, plan.rows)
      const base = { slug, chain: launch.chain, tick, policy: ctx.policy.name, at: ctx.now() }
      const decision: TickDecision =
        record.kind === 'delta'
          ? { ...base, orders: record.orders, inputs: decisionInputs(input, record.changedCandidates, heldBack), delta: record.delta }
          : { ...base, orders: plan.decisions.slice(), inputs: decisionInputs(input, plan.candidatesInPriority(), heldBack) }
      const op = journal.putDecision(decision)
      // Taken now: the plan's decisions and rows are the book cache's, rewritten by the project's next plan
      // (executor-plan.ts). A delta brings the previous memory up to date in place: it is dropped until the write
      // succeeded, so after a failed write the next record is whole.
      last.delete(slug)
      const recorded = recordedBook(op.key, record, plan.decisions, plan.rows, previous)
      const write = store.batch([op]).then(
        () => {
          if (recorded) last.set(slug, recorded)
        },
        (error: unknown) => ctx.log.warn({ err: error, slug, block: tick.blockNumber }, 'writing a quiet decision failed; the next one is written whole'),
      )
      writing.set(slug, write)
      void write.finally(() => {
        if (writing.get(slug) === write) writing.delete(slug)
      })
    },
    forget: (slug) => void last.delete(slug),
    async written() {
      await Promise.all([...writing.values()])
    },
    writing: () => writing.size,
    pending: (slug) => writing.get(slug),
  }
}
