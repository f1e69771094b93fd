import { type Address, getAddress } from 'viem'
import { sharedDeployerWhy } from '../launchpads/shared-deployers.ts'
import type { ChainKey } from '../chain/chain-keys.ts'
import { PrebuyError } from '../common/errors.ts'
import { normalizeTokenText } from '../domain/launches/judge-launch.ts'
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
  /** The token symbol (a second fact with the deployer); null clears it (and the name). */
  expectedSymbol?: string | null
  /** The token name, with the symbol; null clears it. */
  expectedName?: string | null
}

/** What the project's owner may change of the binding: the second fact (the deployer stays the operator's). */
export type OwnerBindingPatch = Pick<BindingPatch, 'expectedTokenAddress' | 'expectedSymbol' | 'expectedName'>

/** A candidate with what the operator should know of its deployer (a shared deployer, one seen launching many tokens). */
export type NotedCandidate = CandidateRecord & { deployerNotes: string[] }

export interface LaunchCandidates {
  candidates: NotedCandidate[]
  quarantinedLogs: QuarantinedLog[]
}

export interface LaunchBindingService {
  /**
   * Why a deployer about to be registered may not identify one project's launch: a contract (a platform, a presale, a
   * bot: it may launch for many), a known or configured shared deployer, or one seen launching more than one token.
   */
  deployerWarnings(chain: ChainKey, deployer: string): Promise<string[]>
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
  /** The owner proposes a change of the binding's second fact (expected token, symbol, name): as setExpectedToken. */
  proposeBinding(slug: string, ownerKeyId: string, patch: OwnerBindingPatch): Promise<OwnerEditOutcome>
}

export interface LaunchBindingServiceDeps {
  store: Store
  journal: Journal
  now: Clock
  /** The code at an address on a chain (deployerWarnings); absent: not read. */
  readCode?: (chain: ChainKey, address: Address) => Promise<string | undefined>
  /** The configured shared deployers (config launches.sharedDeployers), beside the defaults. */
  sharedDeployers?: readonly string[]
}

/** A recorded symbol or name: NFKC, trimmed (judge-launch.ts compares the same way); empty is refused. */
function tokenText(text: string | null): string | null {
  if (text === null) return null
  const normalized = normalizeTokenText(text)
  if (normalized === '' || normalized.length > 200 || /\p{Cc}/u.test(normalized)) {
    throw new PrebuyError('invalid_token_text', 'A token symbol or name is 1 to 200 printable characters.')
  }
  return normalized
}

const CONFIRMABLE: ReadonlySet<CandidateRecord['status']> = new Set(['awaiting_confirmation', 'rejected'])

export function createLaunchBindingService({ store, journal, now, readCode, sharedDeployers = [] }: LaunchBindingServiceDeps): LaunchBindingService {
  /** Distinct tokens each deployer launched among the candidates the indexer recorded (lower-cased deployer). */
  const launchesByDeployer = (candidates: readonly CandidateRecord[]): Map<string, Set<string>> => {
    const by = new Map<string, Set<string>>()
    for (const c of candidates) {
      const key = c.deployer.toLowerCase()
      by.set(key, (by.get(key) ?? new Set()).add(c.token.toLowerCase()))
    }
    return by
  }
  const notesOf = (deployer: string, seen: Map<string, Set<string>>): string[] => {
    const notes: string[] = []
    const shared = sharedDeployerWhy(deployer, sharedDeployers)
    if (shared) notes.push(`shared deployer: ${shared}`)
    const count = seen.get(deployer.toLowerCase())?.size ?? 0
    if (count > 1) notes.push(`launched ${count} tokens seen by this service`)
    return notes
  }

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
      const secondFact = patch.expectedTokenAddress !== undefined || patch.expectedSymbol !== undefined || patch.expectedName !== undefined
      if (project.launchMethod === 'dev_buy' && secondFact) {
        throw new PrebuyError('binding_fixed', "A dev_buy project's token is the one its dev-buy launch deploys: the launch records it, nobody else.")
      }
      const symbol = patch.expectedSymbol === undefined ? (project.expectedSymbol ?? null) : tokenText(patch.expectedSymbol)
      // A name without a symbol would compare nothing: it is recorded with the symbol only (and cleared with it).
      const name = patch.expectedSymbol === null ? null : patch.expectedName === undefined ? (project.expectedName ?? null) : tokenText(patch.expectedName)
      if (name !== null && symbol === null) throw new PrebuyError('invalid_token_text', 'A token name is recorded with its symbol: give the symbol too.')
      const next: ProjectRecord = {
        ...project,
        ...(patch.creatorAddress === undefined ? {} : { creatorAddress: getAddress(patch.creatorAddress) }),
        ...(patch.expectedTokenAddress === undefined
          ? {}
          : { expectedTokenAddress: patch.expectedTokenAddress === null ? null : getAddress(patch.expectedTokenAddress) }),
        ...(symbol === (project.expectedSymbol ?? null) ? {} : { expectedSymbol: symbol }),
        ...(name === (project.expectedName ?? null) ? {} : { expectedName: name }),
      }
      return write(project, next)
    })
  const sameBinding = (a: ProjectRecord, b: ProjectRecord): boolean =>
    a.creatorAddress.toLowerCase() === b.creatorAddress.toLowerCase() &&
    (a.expectedTokenAddress ?? '').toLowerCase() === (b.expectedTokenAddress ?? '').toLowerCase() &&
    (a.expectedSymbol ?? null) === (b.expectedSymbol ?? null) &&
    (a.expectedName ?? null) === (b.expectedName ?? null)

  const proposeBinding = (slug: string, ownerKeyId: string, patch: OwnerBindingPatch) =>
    editBinding(
      slug,
      (project) => {
        if (project.ownerKeyId === null || project.ownerKeyId !== ownerKeyId) {
          throw new PrebuyError('not_project_owner', 'Only the key that owns the project may change its launch binding.')
        }
        return patch
      },
      async (project, edited): Promise<OwnerEditOutcome> => {
        // What is in force already: nothing to confirm; a pending proposal of the binding is withdrawn.
        if (sameBinding(project, edited)) {
          if (!pendingOf(project, 'launch_binding')) return { outcome: 'in_force', project }
          const next: ProjectRecord = {
            ...project,
            pendingChanges: (project.pendingChanges ?? []).filter((c) => c.kind !== 'launch_binding'),
            updatedAt: now(),
          }
          await store.batch(projectWriteOps(store, project, next))
          return { outcome: 'in_force', project: next }
        }
        const next = withProposal(project, { kind: 'launch_binding', binding: bindingTermsOf(edited) }, now())
        await store.batch(projectWriteOps(store, project, next))
        return { outcome: 'pending_confirmation', project: next, change: pendingOf(next, 'launch_binding')! }
      },
    )

  return {
    async deployerWarnings(chain, deployer) {
      const warnings: string[] = []
      const shared = sharedDeployerWhy(deployer, sharedDeployers)
      if (shared) warnings.push(`${deployer} is a shared deployer (${shared}): its launches bind only once you confirm them.`)
      const code = readCode ? await readCode(chain, getAddress(deployer)).catch(() => undefined) : undefined
      if (code && code !== '0x' && !code.toLowerCase().startsWith('0xef0100')) {
        warnings.push(
          `${deployer} is a contract on ${chain}: a platform, presale or bot contract may launch for many people; record the expected token or the symbol, and check the candidates.`,
        )
      } else if (code?.toLowerCase().startsWith('0xef0100')) {
        warnings.push(
          `${deployer} is an EIP-7702-delegated account on ${chain}: its delegate code may launch for others; its launches wait for your confirmation.`,
        )
      }
      const count = launchesByDeployer(await journal.candidates(chain)).get(deployer.toLowerCase())?.size ?? 0
      if (count > 1)
        warnings.push(
          `${deployer} has launched ${count} tokens this service saw: its next launch is not necessarily the project's; record the symbol or the expected token.`,
        )
      return warnings
    },
    async candidates(filter = {}) {
      const [candidates, quarantinedLogs] = await Promise.all([journal.candidates(filter.chain), journal.quarantinedLogs(filter.chain)])
      const seen = launchesByDeployer(candidates)
      return {
        candidates: candidates
          .filter((c) => filter.slug === undefined || c.slug === filter.slug)
          .sort((a, b) => b.seenAt - a.seenAt)
          .map((c) => ({ ...c, deployerNotes: notesOf(c.deployer, seen) })),
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
          updatedAt: now(),
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
          const next = withOperatorChange(project, { kind: 'launch_binding', binding: bindingTermsOf(edited) }, now())
          await store.batch(projectWriteOps(store, project, next))
          return next
        },
      ),
    setExpectedToken: (slug, ownerKeyId, expectedTokenAddress) => proposeBinding(slug, ownerKeyId, { expectedTokenAddress }),
    proposeBinding,
  }
}
