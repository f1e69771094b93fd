import { describeTerms } from '../../admin-client/cli/describe-terms.ts'
import type { PendingChangeItemView } from '../../admin-api/contract.ts'
import { terminalSafeLine } from '../../common/terminal-safe.ts'
import type { ReviewItem, ReviewKind } from '../../domain/records.ts'
import { fieldError, type ReviewState, selectedItem, visibleItems } from './review-state.ts'

/** Queue rows shown at once (the window follows the selection). */
export const QUEUE_ROWS = 12

export interface QueueRow {
  id: string
  kind: string
  name: string
  contact: string
  ip: string
  received: string
  selected: boolean
}

export interface ReviewView {
  title: string
  connection: { text: string; tone: 'ok' | 'warn' | 'bad' }
  counts: string
  filter: string | null
  rows: QueueRow[]
  position: string
  empty: string | null
  detail: { heading: string; fields: Array<[string, string]>; requester: string[]; earlier: string[] } | null
  form: {
    title: string
    fields: Array<{ label: string; value: string; focused: boolean; error: string | null; choice: boolean }>
    error: string | null
    busy: boolean
  } | null
  reject: { title: string; note: string; error: string | null; busy: boolean } | null
  block: { title: string; entries: string[]; error: string | null; busy: boolean } | null
  keyBox: { what: string; apiKey: string; label: string; wallet: string; warning: string } | null
  /** Owners' changes of what the orders buy waiting for the operator or their notice period (docs/owner-changes.md). */
  changes: { title: string; lines: string[] }
  rejectChange: { title: string; reason: string; error: string | null; busy: boolean } | null
  notice: string | null
  help: string
}

const KIND_NAMES: Record<ReviewKind, [string, string]> = {
  key_request: ['key request', 'key requests'],
  registration: ['registration', 'registrations'],
  feedback: ['feedback', 'feedback'],
}

const safe = (value: unknown): string => terminalSafeLine(String(value ?? '').replace(/\s+/g, ' '))
const nameOf = (item: ReviewItem): string => safe(item.kind === 'feedback' ? item.submission.name : item.submission.projectName)
const when = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 16)
const norm = (value: string) => value.trim().toLowerCase()

function submissionFields(item: ReviewItem): Array<[string, string]> {
  const fields: Array<[string, string]> = [
    ['id', item.id],
    ['kind', KIND_NAMES[item.kind][0]],
    ['received', `${when(item.createdAt)} UTC`],
  ]
  for (const [name, value] of Object.entries(item.submission)) fields.push([name, Array.isArray(value) ? value.map(safe).join(', ') : safe(value)])
  return fields
}

export function reviewView(state: ReviewState): ReviewView {
  const visible = visibleItems(state)
  const current = selectedItem(state)
  const index = current ? visible.indexOf(current) : -1
  const start = Math.max(0, Math.min(index - Math.floor(QUEUE_ROWS / 2), visible.length - QUEUE_ROWS))
  const pending = state.items.filter((i) => i.status === 'pending')
  const count = (kind: ReviewKind) => {
    const n = pending.filter((i) => i.kind === kind).length
    return `${n} ${KIND_NAMES[kind][n === 1 ? 0 : 1]}`
  }
  const blocked = new Set(state.blocklist.map((b) => `${b.type}!${norm(b.value)}`))
  const isBlocked = (type: string, value: string) => blocked.has(`${type}!${norm(value)}`)
  const mode = state.mode
  const showDetail = current !== undefined && mode.kind !== 'list' && mode.kind !== 'filter' && mode.kind !== 'key'
  const connection =
    state.connection.state === 'connected'
      ? { text: 'live', tone: 'ok' as const }
      : state.connection.state === 'connecting'
        ? { text: 'connecting to the daemon…', tone: 'warn' as const }
        : { text: `daemon unreachable: ${state.connection.message ?? 'disconnected'}; retrying`, tone: 'bad' as const }
  return {
    title: 'prebuy · review',
    connection,
    counts: `${count('key_request')} · ${count('registration')} · ${count('feedback')} pending`,
    filter: mode.kind === 'filter' || state.filter !== '' ? state.filter : null,
    rows: visible.slice(Math.max(0, start), Math.max(0, start) + QUEUE_ROWS).map((item) => ({
      id: item.id,
      kind: KIND_NAMES[item.kind][0],
      name: nameOf(item),
      contact: safe(item.submission.contact),
      ip: safe(item.requesterIp),
      received: when(item.createdAt),
      selected: item === current,
    })),
    position: visible.length === 0 ? '' : `${index + 1} of ${visible.length}`,
    empty:
      state.connection.state !== 'connected' && state.items.length === 0
        ? null
        : visible.length > 0
          ? null
          : state.filter
            ? `Nothing pending matches “${safe(state.filter)}”.`
            : 'Nothing to review.',
    detail:
      showDetail && current
        ? {
            heading: `${KIND_NAMES[current.kind][0]} from ${nameOf(current)}`,
            fields: submissionFields(current),
            requester: [
              `IP ${safe(current.requesterIp) || '-'}${current.requesterIp && isBlocked('ip', current.requesterIp) ? ' (blocked)' : ''}`,
              `contact ${safe(current.submission.contact)}${isBlocked('contact', current.submission.contact) ? ' (blocked)' : ''}`,
              ...(current.kind === 'registration'
                ? [`email ${safe(current.submission.email)}${isBlocked('email', current.submission.email) ? ' (blocked)' : ''}`]
                : []),
            ],
            earlier: earlierLines(state.items, current),
          }
        : null,
    form:
      mode.kind === 'approve'
        ? {
            title: current?.kind === 'key_request' ? 'Approve the key request' : 'Approve the registration',
            fields: mode.fields.map((f, i) => ({
              label: f.label + (f.optional ? ' (optional)' : ''),
              value: safe(f.value),
              focused: i === mode.focus,
              error: f.value === '' && !f.optional && i !== mode.focus ? null : fieldError(f),
              choice: f.options !== undefined,
            })),
            error: mode.error === null ? null : safe(mode.error),
            busy: mode.busy,
          }
        : null,
    reject:
      mode.kind === 'reject'
        ? {
            title: 'Reject with a reason (optional, sent to nobody, kept on the record)',
            note: safe(mode.note),
            error: mode.error === null ? null : safe(mode.error),
            busy: mode.busy,
          }
        : null,
    block:
      mode.kind === 'block'
        ? {
            title: 'Block this requester from submitting?',
            entries: mode.entries.map((e) => `${e.type} ${safe(e.value)}`),
            error: mode.error === null ? null : safe(mode.error),
            busy: mode.busy,
          }
        : null,
    keyBox:
      mode.kind === 'key'
        ? {
            what: mode.what,
            apiKey: mode.key.apiKey,
            label: safe(mode.key.label),
            wallet: mode.key.serviceWalletAddress,
            warning: 'Shown once: copy it now and send it to the submitter. It cannot be recovered; a lost key is revoked and replaced.',
          }
        : null,
    changes: {
      title:
        state.changes.length === 0
          ? 'No owner change waits.'
          : `Owner changes of what the orders buy (${state.changes.length}), first one: C confirm · X reject`,
      lines: state.changes.map(changeLine),
    },
    rejectChange:
      mode.kind === 'reject_change'
        ? {
            title: `Reject the ${mode.change.change.kind} change of ${safe(mode.change.slug)}: the reason (public, on the project)`,
            reason: safe(mode.reason),
            error: mode.error === null ? null : safe(mode.error),
            busy: mode.busy,
          }
        : null,
    notice: state.notice === null ? null : safe(state.notice),
    help: helpFor(state),
  }
}

/** One owner change: the project, what changes, its state and how many older orders it concerns. */
function changeLine(item: PendingChangeItemView): string {
  const c = item.change
  const state = c.status === 'confirmed' ? `confirmed, in force ${c.effectiveAt}` : `proposed ${c.proposedAt}, awaiting confirmation`
  return safe(
    `${item.slug} ${c.kind}: ${describeTerms(item.inForce)} → ${describeTerms(c.proposed)} · ${state} · ${item.ordersBefore} older order${item.ordersBefore === 1 ? '' : 's'}`,
  )
}

/** Earlier submissions shown in the detail; the rest are counted. */
export const EARLIER_SHOWN = 8

/** Other submissions from the same contact or IP, newest first. */
function earlierLines(items: readonly ReviewItem[], current: ReviewItem): string[] {
  const same = items.filter(
    (other) =>
      other.id !== current.id &&
      (norm(other.submission.contact) === norm(current.submission.contact) || (current.requesterIp !== '' && other.requesterIp === current.requesterIp)),
  )
  const lines = same
    .slice(0, EARLIER_SHOWN)
    .map(
      (other) =>
        `${when(other.createdAt)} ${KIND_NAMES[other.kind][0]} “${nameOf(other)}” ${other.status}${other.projectSlug ? ` → ${other.projectSlug}` : ''}`,
    )
  if (same.length > EARLIER_SHOWN) lines.push(`… and ${same.length - EARLIER_SHOWN} more`)
  return lines
}

function helpFor(state: ReviewState): string {
  switch (state.mode.kind) {
    case 'approve':
      return 'type to edit · Tab/↑/↓ field · ←/→ choose · Enter approve · Esc cancel'
    case 'reject':
      return 'type the reason · Enter reject · Esc cancel'
    case 'block':
      return 'y block · n cancel'
    case 'reject_change':
      return 'type the reason · Enter reject the change · Esc cancel'
    case 'filter':
      return 'type to filter · Enter keep · Esc clear'
    case 'key':
      return 'Enter once the key is saved'
    default:
      return '↑/↓ move · Enter open · a approve · r reject · b block · / filter · C/X confirm/reject owner change · g reload changes · q quit'
  }
}

/** The queue as plain lines (non-TTY form). */
export function reviewText(view: ReviewView): string[] {
  const lines = [`${view.title} · ${view.connection.text}`, view.counts]
  if (view.empty) lines.push(view.empty)
  for (const row of view.rows) lines.push(`  ${row.received}  ${row.kind.padEnd(12)} ${row.name} · ${row.contact} · ${row.ip} · ${row.id}`)
  lines.push(view.changes.title)
  for (const line of view.changes.lines) lines.push(`  ${line}`)
  return lines
}
