import { PrebuyError } from '../common/errors.ts'
import {
  dueChanges,
  type OwnerChangeKind,
  type PendingOwnerChange,
  type TermsSummary,
  termsInForce,
  withChangeInForce,
  withConfirmation,
  withRejection,
} from '../domain/owner-changes.ts'
import { judgeLaunch, type LaunchBinding } from '../domain/launches/judge-launch.ts'
import type { ProjectRecord } from '../domain/records.ts'
import { DEFAULT_SHARED_DEPLOYERS } from '../launchpads/shared-deployers.ts'
import type { Journal } from '../journal/journal.ts'
import type { Store, StoreOperation } from '../store/open-store.ts'
import { projectWriteOps } from '../store/project-writes.ts'
import type { Clock } from './clock.ts'
import { otcOfferId } from '../launch-methods/pooled-otc/otc-service.ts'
import { PROJECT_LOCK, type ProjectService } from './project-service.ts'

/** Default notice period (config ownerChanges.noticeHours): two days, room for a buyer to see the change and leave. */
export const DEFAULT_NOTICE_HOURS = 48

/** A pending change as the operator's queue lists it. */
export interface PendingChangeItem {
  slug: string
  displayName: string
  change: PendingOwnerChange
  /** The terms in force it would replace. */
  inForce: TermsSummary | null
  /** Orders placed before the proposal and still live now (the notice period applies when there are any). */
  ordersBefore: number
}

/** The operator's confirmation: in force now, or after the notice period. */
export type ConfirmOutcome =
  | { outcome: 'in_force'; project: ProjectRecord }
  | { outcome: 'awaiting_notice'; project: ProjectRecord; change: PendingOwnerChange }

export interface OwnerChangeService {
  /** Every pending change (unconfirmed first, then by proposal time). */
  pending(): Promise<PendingChangeItem[]>
  /** The operator confirms a project's pending change (`kind` may be omitted when there is one). */
  confirm(slug: string, kind?: OwnerChangeKind): Promise<ConfirmOutcome>
  /** The operator rejects (or, before it takes effect, withdraws the confirmation of) a pending change, with the reason. */
  reject(slug: string, reason: string, kind?: OwnerChangeKind): Promise<ProjectRecord>
  /** Brings into force the confirmed changes whose notice passed (the daemon's worker); returns the slugs changed. */
  applyDue(): Promise<string[]>
}

export interface OwnerChangeServiceDeps {
  store: Store
  journal: Journal
  projects: Pick<ProjectService, 'ordersOfProject'>
  now: Clock
  /** The notice period (ms) of a change confirmed while orders placed before it are live. */
  noticeMs: number
}

/** Why a change can no longer take effect (the terms it would replace are fixed by now); undefined: it can. */
function blockedBecause(project: ProjectRecord, change: PendingOwnerChange): string | undefined {
  if (change.kind === 'launch_binding') return project.launch !== null ? 'the project launched before the change took effect' : undefined
  const offer = project.otc
  const status = offer?.settlement?.status
  if (status === 'settled' || status === 'settling' || status === 'retrying') return 'the offer in force settled (or is settling) before the change took effect'
  if (offer?.deposit && status !== 'cancelled') return 'the offer in force was deposited before the change took effect'
  return undefined
}

/** The proposed offer on the id it will have: the next round after a cancelled offer (an id closed on chain is never reused). */
function rebased(project: ProjectRecord, change: PendingOwnerChange): PendingOwnerChange {
  if (change.kind !== 'otc_offer') return change
  const previous = project.otc
  const round = (previous?.round ?? 0) + (previous?.settlement?.status === 'cancelled' ? 1 : 0)
  return { ...change, offer: { ...change.offer, round, offerId: otcOfferId(project.slug, round) } }
}

export function createOwnerChangeService({ store, journal, projects, now, noticeMs }: OwnerChangeServiceDeps): OwnerChangeService {
  const mustGet = async (slug: string): Promise<ProjectRecord> => {
    const project = await store.sub.projects.get(slug)
    if (!project) throw new PrebuyError('project_not_found', 'No project has this slug.')
    return project
  }
  const pendingIn = (project: ProjectRecord, kind: OwnerChangeKind | undefined): PendingOwnerChange => {
    const all = project.pendingChanges ?? []
    const matching = kind === undefined ? all : all.filter((c) => c.kind === kind)
    if (matching.length === 0) throw new PrebuyError('change_not_found', `${project.slug} has no pending owner change${kind ? ` of its ${kind}` : ''}.`)
    if (matching.length > 1)
      throw new PrebuyError('change_kind_required', `${project.slug} has pending changes of ${matching.map((c) => c.kind).join(' and ')}: say which.`)
    return matching[0]!
  }
  const ordersBefore = async (project: ProjectRecord, change: PendingOwnerChange): Promise<number> =>
    (await projects.ordersOfProject(project.slug, ['active', 'executing'])).filter((o) => o.createdAt < change.proposedAt).length

  /**
   * A binding change in force: a launch the indexer recorded as bound by this change while it waited (rule
   * pending_owner_change) and that the binding now in force binds, judged again on its recorded facts (the deployer,
   * the symbol, the shared sender: judge-launch.ts), is confirmed, so the indexer binds it on its next block, as the
   * operator's `launches confirm` would. Never a launch at the new expected address sent by someone else (a squat).
   */
  const candidateOps = async (project: ProjectRecord, change: PendingOwnerChange, at: number): Promise<StoreOperation[]> => {
    if (change.kind !== 'launch_binding') return []
    const next = { ...project, ...change.binding }
    const binding: LaunchBinding = {
      deployer: next.creatorAddress,
      expectedToken: next.expectedTokenAddress ?? null,
      expectedSymbol: next.expectedSymbol ?? null,
      expectedName: next.expectedName ?? null,
    }
    const sharedDeployers = new Set(DEFAULT_SHARED_DEPLOYERS.map((d) => d.address.toLowerCase()))
    const waiting = (await journal.candidates(project.chain)).filter(
      (c) =>
        c.slug === project.slug &&
        c.rule === 'pending_owner_change' &&
        c.launch &&
        (c.status === 'rejected' || c.status === 'awaiting_confirmation') &&
        judgeLaunch(binding, c.launch, sharedDeployers).verdict === 'bound',
    )
    return waiting.map((c) =>
      journal.putCandidate({ ...c, status: 'confirmed', reason: `the owner's binding change to it took effect (was: ${c.reason})`, updatedAt: at }),
    )
  }

  const bringIntoForce = async (project: ProjectRecord, change: PendingOwnerChange, at: number): Promise<ProjectRecord> => {
    const next = withChangeInForce(project, rebased(project, change), at)
    await store.batch([...projectWriteOps(store, project, next), ...(await candidateOps(project, change, at))])
    return next
  }

  return {
    async pending() {
      const items: PendingChangeItem[] = []
      for await (const project of store.sub.projects.values()) {
        for (const change of project.pendingChanges ?? []) {
          items.push({
            slug: project.slug,
            displayName: project.profile.identity.displayName,
            change,
            inForce: termsInForce(project, change.kind),
            ordersBefore: await ordersBefore(project, change),
          })
        }
      }
      const rank = (item: PendingChangeItem) => (item.change.confirmedAt === null ? 0 : 1)
      return items.sort((a, b) => rank(a) - rank(b) || a.change.proposedAt - b.change.proposedAt)
    },

    confirm: (slug, kind) =>
      store.mutex.run(PROJECT_LOCK, async () => {
        const project = await mustGet(slug)
        const change = pendingIn(project, kind)
        if (change.confirmedAt !== null) {
          return { outcome: 'awaiting_notice', project, change }
        }
        const blocked = blockedBecause(project, change)
        if (blocked) throw new PrebuyError('change_not_applicable', `${slug}: ${blocked}; reject it (prebuy projects reject-change).`)
        const at = now()
        const next = withConfirmation(project, rebased(project, change), at, await ordersBefore(project, change), noticeMs)
        const stillPending = next.pendingChanges?.find((c) => c.kind === change.kind)
        await store.batch([...projectWriteOps(store, project, next), ...(stillPending ? [] : await candidateOps(project, change, at))])
        return stillPending ? { outcome: 'awaiting_notice', project: next, change: stillPending } : { outcome: 'in_force', project: next }
      }),

    reject: (slug, reason, kind) =>
      store.mutex.run(PROJECT_LOCK, async () => {
        const project = await mustGet(slug)
        const next = withRejection(project, pendingIn(project, kind), now(), reason)
        await store.batch(projectWriteOps(store, project, next))
        return next
      }),

    async applyDue() {
      const due: string[] = []
      for await (const project of store.sub.projects.values()) {
        if (dueChanges(project, now()).length > 0) due.push(project.slug)
      }
      const applied: string[] = []
      for (const slug of due) {
        await store.mutex.run(PROJECT_LOCK, async () => {
          let project = await mustGet(slug)
          for (const change of dueChanges(project, now())) {
            const blocked = blockedBecause(project, change)
            if (blocked) {
              const next = withRejection(project, change, now(), blocked)
              await store.batch(projectWriteOps(store, project, next))
              project = next
            } else {
              project = await bringIntoForce(project, change, now())
            }
          }
          applied.push(slug)
        })
      }
      return applied
    },
  }
}
