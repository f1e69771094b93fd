import { PrebuyError } from '../common/errors.ts'
import { createBatchJournal } from '../journal/batch-journal.ts'
import type { BatchRecord } from '../journal/batch-records.ts'
import type { Journal } from '../journal/journal.ts'
import type { LaunchRecord, OrderEvent, TickDecision } from '../journal/journal-records.ts'
import { ORDER_STATUSES } from '../domain/records.ts'
import type { Store } from '../store/open-store.ts'
import type { ProjectService } from './project-service.ts'

/** What the executor recorded about one launch: every journaled tick decision and every order transition. */
export interface ExecutionJournal {
  launch: LaunchRecord
  /** Oldest first. */
  decisions: TickDecision[]
  /** Every executor transition of the project's orders (executing, filled, failed, expired), oldest first. */
  events: OrderEvent[]
  /**
   * Every batch of the launch (one swap, one price per block), in sequence order: inclusion, exclusions, the clearing's
   * inputs and the chain's execution. Absent from daemons older than the batch.
   */
  batches?: BatchRecord[]
}

export interface ExecutionJournalService {
  /** The journal of a launched project (`prebuy executions replay`). */
  journalOf(slug: string): Promise<ExecutionJournal>
}

export function createExecutionJournalService(deps: {
  store: Store
  journal: Journal
  projects: Pick<ProjectService, 'ordersOfProject'>
}): ExecutionJournalService {
  const { store, journal } = deps
  const batchJournal = createBatchJournal(store)
  return {
    async journalOf(slug) {
      const project = await store.sub.projects.get(slug)
      if (!project) throw new PrebuyError('project_not_found', 'No project has this slug.')
      const launch = await journal.getLaunchBySlug(slug)
      if (!launch) throw new PrebuyError('not_launched', `Project ${slug} has not launched: nothing was executed yet.`)
      // The project's buyers, whatever their orders' status, then their events on this project.
      const keyIds = new Set((await deps.projects.ordersOfProject(slug, ORDER_STATUSES)).map((o) => o.keyId))
      const [decisions, perKey, batches] = await Promise.all([
        journal.decisionsOf(slug),
        Promise.all([...keyIds].map((keyId) => journal.orderEventsOf(keyId, slug))),
        batchJournal.ofLaunch(launch.chain, slug, launch.blockNumber),
      ])
      return { launch, decisions, events: perKey.flat().sort((a, b) => a.at - b.at), batches }
    },
  }
}
