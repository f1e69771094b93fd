import type { BindingTerms, OwnerChangeEntry, OwnerChangeKind, PendingOwnerChange, ProjectRecord, ProposedTerms, TermsSummary } from './records.ts'

export { OWNER_CHANGE_KINDS } from './records.ts'
export type { BindingTerms, OwnerChangeEntry, OwnerChangeKind, PendingOwnerChange, ProposedTerms, TermsSummary } from './records.ts'

/**
 * Changes of what a project's orders will buy (docs/owner-changes.md). The project's owner key may propose them (the
 * launch binding's expected token, the pooled-OTC offer's terms); they take effect only once the operator confirmed
 * them and, when orders placed before the proposal are live, after a notice period counted from the confirmation. The
 * operator's own edits take effect at once. Every change that took effect, and every rejected proposal, stays in the
 * project's history with its times, on the public project detail.
 */

/**
 * The owner's edit of what the orders buy: recorded as a change for the operator to confirm, or, when it asks for the
 * terms in force, nothing to confirm (a pending proposal of that kind is withdrawn).
 */
export type OwnerEditOutcome =
  | { outcome: 'pending_confirmation'; project: ProjectRecord; change: PendingOwnerChange }
  | { outcome: 'in_force'; project: ProjectRecord }

/** Entries kept per project (oldest dropped first). */
export const MAX_CHANGE_HISTORY = 100

export const bindingTermsOf = (project: ProjectRecord): BindingTerms => ({
  creatorAddress: project.creatorAddress,
  expectedTokenAddress: project.expectedTokenAddress ?? null,
  expectedSymbol: project.expectedSymbol ?? null,
  expectedName: project.expectedName ?? null,
})

export function summarize(terms: ProposedTerms): TermsSummary {
  if (terms.kind === 'launch_binding') return { kind: 'launch_binding', ...terms.binding }
  const o = terms.offer
  return {
    kind: 'otc_offer',
    tokenAddress: o.tokenAddress,
    tokenSymbol: o.tokenSymbol,
    tokenAmount: o.tokenAmount,
    tokenDecimals: o.tokenDecimals,
    totalSupply: o.totalSupply,
    fdvUsdc: o.fdvUsdc,
    settleAt: o.settleAt,
    lockSeconds: o.lock?.lockSeconds ?? 0,
    vestingSeconds: o.lock?.vestingSeconds ?? 0,
  }
}

/** The project's terms of this kind in force now (null: none, an OTC project without an offer). */
export function termsInForce(project: ProjectRecord, kind: OwnerChangeKind): TermsSummary | null {
  if (kind === 'launch_binding') return summarize({ kind, binding: bindingTermsOf(project) })
  return project.otc ? summarize({ kind, offer: project.otc }) : null
}

/** The pending change of this kind, if any. */
export const pendingOf = <K extends OwnerChangeKind>(project: ProjectRecord, kind: K): (PendingOwnerChange & { kind: K }) | undefined =>
  (project.pendingChanges ?? []).find((c): c is PendingOwnerChange & { kind: K } => c.kind === kind)

/**
 * When a confirmed change takes effect: at once if no live order predates the proposal (every buyer since saw it on
 * the project), else `noticeMs` after the confirmation (counted from then, not from the proposal: until the operator
 * confirms, a buyer cannot know the change will happen).
 */
export const effectiveAtOf = (confirmedAt: number, ordersBefore: number, noticeMs: number): number => (ordersBefore > 0 ? confirmedAt + noticeMs : confirmedAt)

const withHistory = (project: ProjectRecord, entry: OwnerChangeEntry): OwnerChangeEntry[] =>
  [...(project.changeHistory ?? []), entry].slice(-MAX_CHANGE_HISTORY)
const withoutPending = (project: ProjectRecord, kind: OwnerChangeKind): PendingOwnerChange[] => (project.pendingChanges ?? []).filter((c) => c.kind !== kind)

/** The owner's proposal recorded (replacing an earlier one of the same kind); the terms in force do not change. */
export const withProposal = (project: ProjectRecord, terms: ProposedTerms, at: number): ProjectRecord => ({
  ...project,
  pendingChanges: [...withoutPending(project, terms.kind), { ...terms, proposedAt: at, confirmedAt: null, effectiveAt: null, ordersBefore: null }],
  updatedAt: at,
})

/** The terms set on the record (the binding fields, or the offer). */
function setTerms(project: ProjectRecord, terms: ProposedTerms): ProjectRecord {
  if (terms.kind === 'launch_binding') return { ...project, ...terms.binding }
  return { ...project, otc: terms.offer }
}

/** The operator's own edit: in force at once, recorded in the history. */
export function withOperatorChange(project: ProjectRecord, terms: ProposedTerms, at: number): ProjectRecord {
  const entry: OwnerChangeEntry = {
    kind: terms.kind,
    by: 'operator',
    outcome: 'effective',
    from: termsInForce(project, terms.kind),
    to: summarize(terms),
    proposedAt: null,
    decidedAt: null,
    effectiveAt: at,
    reason: null,
  }
  return { ...setTerms(project, terms), changeHistory: withHistory(project, entry), updatedAt: at }
}

/** A pending change brought into force: the terms set, the change moved to the history. */
export function withChangeInForce(project: ProjectRecord, change: PendingOwnerChange, at: number): ProjectRecord {
  const entry: OwnerChangeEntry = {
    kind: change.kind,
    by: 'owner',
    outcome: 'effective',
    from: termsInForce(project, change.kind),
    to: summarize(change),
    proposedAt: change.proposedAt,
    decidedAt: change.confirmedAt,
    effectiveAt: change.effectiveAt ?? at,
    reason: null,
  }
  return { ...setTerms(project, change), pendingChanges: withoutPending(project, change.kind), changeHistory: withHistory(project, entry), updatedAt: at }
}

/** A pending change the operator confirmed: in force now, or at its effectiveAt (the notice period). */
export const withConfirmation = (project: ProjectRecord, change: PendingOwnerChange, at: number, ordersBefore: number, noticeMs: number): ProjectRecord => {
  const confirmed: PendingOwnerChange = { ...change, confirmedAt: at, effectiveAt: effectiveAtOf(at, ordersBefore, noticeMs), ordersBefore }
  if (confirmed.effectiveAt! <= at) return withChangeInForce(project, confirmed, at)
  return { ...project, pendingChanges: [...withoutPending(project, change.kind), confirmed], updatedAt: at }
}

/** A pending change the operator rejected (or withdrew after confirming, before it took effect), with the reason. */
export function withRejection(project: ProjectRecord, change: PendingOwnerChange, at: number, reason: string): ProjectRecord {
  const entry: OwnerChangeEntry = {
    kind: change.kind,
    by: 'owner',
    outcome: 'rejected',
    from: termsInForce(project, change.kind),
    to: summarize(change),
    proposedAt: change.proposedAt,
    decidedAt: at,
    effectiveAt: null,
    reason,
  }
  return { ...project, pendingChanges: withoutPending(project, change.kind), changeHistory: withHistory(project, entry), updatedAt: at }
}

/** Confirmed changes whose notice period has passed by `now`. */
export const dueChanges = (project: ProjectRecord, now: number): PendingOwnerChange[] =>
  (project.pendingChanges ?? []).filter((c) => c.effectiveAt !== null && c.effectiveAt <= now)
