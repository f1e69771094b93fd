import { formatDecimal } from './decimal.ts'
import type { OwnerChangeEntry, PendingOwnerChange, TermsSummary } from './owner-changes.ts'
import { summarize } from './owner-changes.ts'
import type { ProjectRecord } from './records.ts'

/** Terms as the API shows them: token amounts in token units, times in ISO 8601. */
export type TermsView =
  | { kind: 'launch_binding'; creatorAddress: string; expectedTokenAddress: string | null; expectedSymbol?: string | null; expectedName?: string | null }
  | {
      kind: 'otc_offer'
      tokenAddress: string
      tokenSymbol: string
      tokenAmount: string
      totalSupply: string
      fdvUsdc: string
      settleAt: string
      lockSeconds: number
      vestingSeconds: number
    }

export interface PendingChangeView {
  kind: PendingOwnerChange['kind']
  /** awaiting_confirmation: the operator has not confirmed it (it may never take effect); confirmed: it takes effect at effectiveAt. */
  status: 'awaiting_confirmation' | 'confirmed'
  proposed: TermsView
  proposedAt: string
  confirmedAt: string | null
  effectiveAt: string | null
}

export interface ChangeEntryView {
  kind: OwnerChangeEntry['kind']
  by: OwnerChangeEntry['by']
  outcome: OwnerChangeEntry['outcome']
  from: TermsView | null
  to: TermsView
  proposedAt: string | null
  decidedAt: string | null
  effectiveAt: string | null
  reason: string | null
}

export interface ProjectChangesView {
  pending: PendingChangeView[]
  /** Newest first. */
  history: ChangeEntryView[]
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

export function termsView(terms: TermsSummary): TermsView {
  if (terms.kind === 'launch_binding') return terms
  const { tokenDecimals, ...rest } = terms
  return {
    ...rest,
    tokenAmount: formatDecimal(BigInt(terms.tokenAmount), tokenDecimals),
    totalSupply: formatDecimal(BigInt(terms.totalSupply), tokenDecimals),
    settleAt: new Date(terms.settleAt).toISOString(),
  }
}

export const pendingChangeView = (change: PendingOwnerChange): PendingChangeView => ({
  kind: change.kind,
  status: change.confirmedAt === null ? 'awaiting_confirmation' : 'confirmed',
  proposed: termsView(summarize(change)),
  proposedAt: new Date(change.proposedAt).toISOString(),
  confirmedAt: iso(change.confirmedAt),
  effectiveAt: iso(change.effectiveAt),
})

export const changeEntryView = (entry: OwnerChangeEntry): ChangeEntryView => ({
  kind: entry.kind,
  by: entry.by,
  outcome: entry.outcome,
  from: entry.from === null ? null : termsView(entry.from),
  to: termsView(entry.to),
  proposedAt: iso(entry.proposedAt),
  decidedAt: iso(entry.decidedAt),
  effectiveAt: iso(entry.effectiveAt),
  reason: entry.reason,
})

export const projectChangesView = (project: ProjectRecord): ProjectChangesView => ({
  pending: (project.pendingChanges ?? []).map(pendingChangeView),
  history: [...(project.changeHistory ?? [])].reverse().map(changeEntryView),
})
