import { getAddress } from 'viem'
import type { ChainKey } from '../chain/chain-keys.ts'
import { PrebuyError } from '../common/errors.ts'
import { bindingTermsOf, type OwnerEditOutcome, pendingOf, withOperatorChange, withProposal } from '../domain/owner-changes.ts'
import type { ProjectRecord } from '../domain/records.ts'
import type { Journal } from '../journal/journal.ts'
import type { CandidateRecord, QuarantinedLog } from '../journal/journal-records.ts'
import type { Store } from '../store/open-store.ts'
import { projectWriteOps } from '../store/project-writes.ts'
import type { Clock } from './clock.ts'
import { PROJECT_LOCK } from './project-service.ts'

/** What binds a project to its launch (see src/domain/launches/judge-launch.ts); each field optional in an edit. */
export interface BindingPatch {
  /** The registered deployer. */
  creatorAddress?: string
  /** The token address expected at launch; null clears it. */
  expectedTokenAddress?: string | null
}

export interface LaunchCandidates {
  candidates: CandidateRecord[]
  quarantinedLogs: QuarantinedLog[]
}

export interface LaunchBindingService {
  /** Launches that touched a project without binding it, and launch logs that could not be decoded yet; newest first. */
  candidates(filter?: { slug?: string | undefined; chain?: ChainKey | undefined }): Promise<LaunchCandidates>
  /**
   * The operator binds a candidate the rules held back (a shared deployer's launch awaiting confirmation, or a rejected
   * one they vouch for): the indexer completes it on its next block and the project's orders buy it.
   */
  confirm(slug: string, token: string): Promise<CandidateRecord>
  /** Edits a waiting project's binding (operator): in force at once, recorded in the change history; refused once launched. */
  updateBinding(slug: string, patch: BindingPatch): Promise<ProjectRecord>
  /**
   * The project's owner proposes (or clears) the token address expected at launch: it takes effect only once the
   * operator confirms it, and after the notice period if orders placed before it are live (owner-change-service.ts).
   */
  setExpectedToken(slug: string, ownerKeyId: string, expectedTokenAddress: string | null): Promise<OwnerEditOutcome>
}

export interface LaunchBindingServiceDeps {
  store: Store
  journal: Journal
  clock: Clock
}

const CONFIRMABLE: ReadonlySet<CandidateRecord['status']> = new Set(['awaiting_confirmation', 'rejected'])

export function createLaunchBindingService({ store, journal, clock }: LaunchBindingServiceDeps): LaunchBindingService {
  const mustGetProject = async (slug: string): Promise<ProjectRecord> => {
    const project = await store.sub.projects.get(slug)
    if (!project) throw new PrebuyError('project_not_found', 'No project has this slug.')
    return project
  }

  /** Under the project lock: the binding the edit asks for, checked (refused once the project launched). */
  const editBinding = <T>(slug: string, edit: (project: ProjectRecord) => BindingPatch, write: (project: ProjectRecord, next: ProjectRecord) => Promise<T>) =>
    store.mutex.run(PROJECT_LOCK, async () => {
      const project = await mustGetProject(slug)
      if (project.launch !== null) throw new PrebuyError('binding_fixed', 'The project has launched: what binds it to its launch no longer changes.')
      const patch = edit(project)
      if (project.launchMethod === 'dev_buy' && patch.expectedTokenAddress !== undefined) {
        throw new PrebuyError('binding_fixed', "A dev_buy project's token is the one its dev-buy launch deploys: the launch records it, nobody else.")
      }
      const next: ProjectRecord = {
        ...project,
        ...(patch.creatorAddress === undefined ? {} : { creatorAddress: getAddress(patch.creatorAddress) }),
        ...(patch.expectedTokenAddress === undefined
          ? {}
          : { expectedTokenAddress: patch.expectedTokenAddress === null ? null : getAddress(patch.expectedTokenAddress) }),
      }
      return write(project, next)
    })
  const sameBinding = (a: ProjectRecord, b: ProjectRecord): boolean =>
    a.creatorAddress.toLowerCase() === b.creatorAddress.toLowerCase() &&
    (a.expectedTokenAddress ?? '').toLowerCase() === (b.expectedTokenAddress ?? '').toLowerCase()

  return {
    async candidates(filter = {}) {
      const [candidates, quarantinedLogs] = await Promise.all([journal.candidates(filter.chain), journal.quarantinedLogs(filter.chain)])
      return {
        candidates: candidates.filter((c) => filter.slug === undefined || c.slug === filter.slug).sort((a, b) => b.seenAt - a.seenAt),
        quarantinedLogs: quarantinedLogs.sort((a, b) => b.seenAt - a.seenAt),
      }
    },
    async confirm(slug, token) {
      return store.mutex.run(PROJECT_LOCK, async () => {
        const project = await mustGetProject(slug)
        const candidate = await journal.getCandidate(project.chain, slug, token)
        if (!candidate) throw new PrebuyError('candidate_not_found', `No launch candidate ${token} for ${slug}.`)
        if (project.launch !== null) throw new PrebuyError('binding_fixed', 'The project has launched already.')
        // A dev_buy project's token is the one its own launch deploys (judge-launch.ts): anything else, even at the
        // address the launch expected, is someone else's deployment and must never be bought for its orders.
        if (project.launchMethod === 'dev_buy') {
          throw new PrebuyError(
            'candidate_not_confirmable',
            `${slug} launches by its dev buy: only the token its own launch deploys binds it, never a candidate (${candidate.reason}).`,
          )
        }
        if (!CONFIRMABLE.has(candidate.status) || !candidate.launch) {
          throw new PrebuyError(
            'candidate_not_confirmable',
            `The candidate is ${candidate.status}${candidate.launch ? '' : ' and not a launch prebuy can buy'}: ${candidate.reason}`,
          )
        }
        const confirmed: CandidateRecord = {
          ...candidate,
          status: 'confirmed',
          reason: `confirmed by the operator (was: ${candidate.reason})`,
          updatedAt: clock(),
        }
        await store.batch([journal.putCandidate(confirmed)])
        return confirmed
      })
    },
    updateBinding: (slug, patch) =>
      editBinding(
        slug,
        () => patch,
        async (project, edited) => {
          if (sameBinding(project, edited)) return project
          const next = withOperatorChange(project, { kind: 'launch_binding', binding: bindingTermsOf(edited) }, clock())
          await store.batch(projectWriteOps(store, project, next))
          return next
        },
      ),
    setExpectedToken: (slug, ownerKeyId, expectedTokenAddress) =>
      editBinding(
        slug,
        (project) => {
          if (project.ownerKeyId === null || project.ownerKeyId !== ownerKeyId) {
            throw new PrebuyError('not_project_owner', 'Only the key that owns the project may set its expected token address.')
          }
          return { expectedTokenAddress }
        },
        async (project, edited): Promise<OwnerEditOutcome> => {
          // What is in force already: nothing to confirm; a pending proposal of the binding is withdrawn.
          if (sameBinding(project, edited)) {
            if (!pendingOf(project, 'launch_binding')) return { outcome: 'in_force', project }
            const next: ProjectRecord = {
              ...project,
              pendingChanges: (project.pendingChanges ?? []).filter((c) => c.kind !== 'launch_binding'),
              updatedAt: clock(),
            }
            await store.batch(projectWriteOps(store, project, next))
            return { outcome: 'in_force', project: next }
          }
          const next = withProposal(project, { kind: 'launch_binding', binding: bindingTermsOf(edited) }, clock())
          await store.batch(projectWriteOps(store, project, next))
          return { outcome: 'pending_confirmation', project: next, change: pendingOf(next, 'launch_binding')! }
        },
      ),
  }
}
