import { adminRequests, type BlockEntry, type BlockRequest, type IssuedKey, type PendingChangeItemView } from '../../admin-api/contract.ts'
import type { OwnerChangeKind } from '../../domain/owner-changes.ts'
import type { StreamSignal } from '../../admin-client/event-stream.ts'
import { CHAIN_KEYS } from '../../chain/chain-keys.ts'
import { LAUNCH_METHODS, LAUNCHPADS, type ReviewItem, type ReviewKind } from '../../domain/records.ts'
import { withoutControls } from '../../common/terminal-safe.ts'
import { isInterrupt, type KeyPress } from '../key-press.ts'

/**
 * `prebuy review`: the pending queue (key requests, registrations, feedback), its detail, and the approve, reject and
 * block actions. Pure: the daemon calls an action needs are queued in `outbox` as effects; the runner performs them
 * and feeds their outcome back (`effect_done`, `effect_failed`).
 */

export type ReviewEffect =
  | { id: number; type: 'load_blocklist' }
  | { id: number; type: 'approve_registration'; reviewId: string; request: ApproveRegistrationForm }
  | { id: number; type: 'approve_key_request'; reviewId: string; label?: string }
  | { id: number; type: 'reject'; kind: Exclude<ReviewKind, 'feedback'>; reviewId: string; note?: string }
  | { id: number; type: 'block'; entries: BlockRequest[] }
  /** Owners' changes of what the orders buy (docs/owner-changes.md): the queue, a confirmation, a rejection. */
  | { id: number; type: 'load_changes' }
  | { id: number; type: 'confirm_change'; slug: string; kind: OwnerChangeKind }
  | { id: number; type: 'reject_change'; slug: string; kind: OwnerChangeKind; reason: string }

type EffectBody = ReviewEffect extends infer E ? (E extends ReviewEffect ? Omit<E, 'id'> : never) : never

export interface ApproveRegistrationForm {
  slug: string
  creator: string
  expectedToken?: string
  /** The token's symbol (and name) announced: the binding's second fact (docs/launch-authenticity.md). */
  symbol?: string
  name?: string
  launchpad: (typeof LAUNCHPADS)[number]
  chain: (typeof CHAIN_KEYS)[number]
  method: (typeof LAUNCH_METHODS)[number]
}

/** One field of the approve form: typed text, or a choice cycled with ←/→. */
export interface FormField {
  name: string
  label: string
  value: string
  /** Choices for a cycled field (the value is one of them). */
  options?: readonly string[]
  optional?: boolean
}

export type ReviewMode =
  | { kind: 'list' }
  | { kind: 'detail' }
  | { kind: 'filter' }
  | { kind: 'approve'; fields: FormField[]; focus: number; error: string | null; busy: boolean }
  | { kind: 'reject'; note: string; error: string | null; busy: boolean }
  | { kind: 'block'; entries: BlockRequest[]; error: string | null; busy: boolean }
  /** Rejecting the first owner change listed, with the reason (required: it is public). */
  | { kind: 'reject_change'; change: PendingChangeItemView; reason: string; error: string | null; busy: boolean }
  /** A key just issued: shown once, until any key is pressed. */
  | { kind: 'key'; key: IssuedKey; what: string }

export interface ReviewState {
  connection: { state: 'connecting' | 'connected' | 'disconnected'; message: string | null }
  /** Every submission the daemon holds (all kinds and statuses), newest first. */
  items: ReviewItem[]
  blocklist: BlockEntry[]
  /** Owners' changes of what the orders buy waiting for the operator or their notice (reloaded after each action, g). */
  changes: PendingChangeItemView[]
  filter: string
  /** The review shown selected (by id, so a new arrival does not move the selection). */
  selectedId: string | null
  mode: ReviewMode
  /** What the last action did, for the status line. */
  notice: string | null
  outbox: ReviewEffect[]
  nextEffectId: number
  quit: boolean
}

export type ReviewAction =
  | { type: 'signals'; signals: readonly StreamSignal[] }
  | { type: 'key'; key: KeyPress }
  | { type: 'effect_done'; id: number; value: unknown }
  | { type: 'effect_failed'; id: number; message: string }
  /** The owners' changes as last read (the runner polls them: the reviews stream does not carry them). */
  | { type: 'changes'; items: PendingChangeItemView[] }

export function initialReviewState(): ReviewState {
  return {
    connection: { state: 'connecting', message: null },
    items: [],
    blocklist: [],
    changes: [],
    filter: '',
    selectedId: null,
    mode: { kind: 'list' },
    notice: null,
    outbox: [{ id: 1, type: 'load_blocklist' }],
    nextEffectId: 2,
    quit: false,
  }
}

const searchable = (item: ReviewItem): string => {
  const s = item.submission as unknown as Record<string, unknown>
  return [item.id, item.kind, item.requesterIp, s.projectName, s.name, s.contact, s.email, s.message]
    .filter((v) => typeof v === 'string')
    .join(' ')
    .toLowerCase()
}

/** The queue as shown: pending submissions matching the filter, newest first. */
export const visibleItems = (state: Pick<ReviewState, 'items' | 'filter'>): ReviewItem[] => {
  const filter = state.filter.trim().toLowerCase()
  return state.items.filter((item) => item.status === 'pending' && (filter === '' || searchable(item).includes(filter)))
}

export const selectedItem = (state: ReviewState): ReviewItem | undefined => {
  const visible = visibleItems(state)
  return visible.find((item) => item.id === state.selectedId) ?? visible[0]
}

/** A slug proposed from a project name ("Moon Beam!" -> "moon-beam"). */
export const slugFrom = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '')

const shape = adminRequests.approveRegistration.shape

/** The error of one form field as typed (null: valid), with the daemon's own schema for it. */
export function fieldError(field: FormField): string | null {
  if (field.optional && field.value === '') return null
  const schema =
    field.name === 'slug'
      ? shape.slug
      : field.name === 'creator'
        ? shape.creator
        : field.name === 'expectedToken'
          ? shape.expectedToken
          : field.name === 'label'
            ? shape.label
            : field.name === 'symbol'
              ? shape.symbol
              : field.name === 'name'
                ? shape.name
                : undefined
  if (!schema) return null
  const parsed = schema.safeParse(field.value)
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'invalid')
}

function approveFields(item: ReviewItem): FormField[] {
  if (item.kind === 'key_request') return [{ name: 'label', label: 'key label', value: slugFrom(item.submission.projectName), optional: true }]
  const name = item.kind === 'registration' ? item.submission.projectName : ''
  return [
    { name: 'slug', label: 'slug', value: slugFrom(name) },
    { name: 'creator', label: 'creator / deployer', value: '' },
    { name: 'expectedToken', label: 'expected token', value: '', optional: true },
    { name: 'launchpad', label: 'launchpad', value: LAUNCHPADS[0], options: LAUNCHPADS },
    { name: 'chain', label: 'chain', value: CHAIN_KEYS[0], options: CHAIN_KEYS },
    { name: 'method', label: 'launch method', value: LAUNCH_METHODS[0], options: LAUNCH_METHODS },
    // The second fact with the deployer: without it (or the expected token) every launch waits for a confirmation.
    { name: 'symbol', label: 'token symbol', value: '', optional: true },
    { name: 'name', label: 'token name', value: '', optional: true },
  ]
}

const withEffect = (state: ReviewState, effect: EffectBody): ReviewState => ({
  ...state,
  outbox: [...state.outbox, { ...effect, id: state.nextEffectId } as ReviewEffect],
  nextEffectId: state.nextEffectId + 1,
})

/** Inserts or replaces a review item, keeping newest first. */
const upsert = (items: readonly ReviewItem[], item: ReviewItem): ReviewItem[] => {
  const rest = items.filter((i) => i.id !== item.id)
  const at = rest.findIndex((i) => i.createdAt < item.createdAt || (i.createdAt === item.createdAt && i.id < item.id))
  return at < 0 ? [...rest, item] : [...rest.slice(0, at), item, ...rest.slice(at)]
}

/** What blocking a requester blocks: their IP, and their contact (and email for a registration). */
export function blockEntriesOf(item: ReviewItem): BlockRequest[] {
  const note = `blocked from prebuy review (${item.kind} ${item.id})`
  const entries: BlockRequest[] = []
  if (item.requesterIp) entries.push({ type: 'ip', value: item.requesterIp, note })
  entries.push({ type: 'contact', value: item.submission.contact, note })
  if (item.kind === 'registration') entries.push({ type: 'email', value: item.submission.email, note })
  return entries
}

export function reduceReview(state: ReviewState, action: ReviewAction): ReviewState {
  switch (action.type) {
    case 'signals':
      return action.signals.reduce(reduceSignal, state)
    case 'key':
      return reduceKey(state, action.key)
    case 'effect_done':
      return effectDone(state, action.id, action.value)
    case 'effect_failed':
      return effectFailed(state, action.id, action.message)
    case 'changes':
      return { ...state, changes: action.items }
  }
}

function reduceSignal(state: ReviewState, signal: StreamSignal): ReviewState {
  if (signal.type === 'connected') return { ...state, connection: { state: 'connected', message: null } }
  if (signal.type === 'disconnected') return { ...state, connection: { state: 'disconnected', message: signal.message } }
  const event = signal.event
  if (event.type === 'snapshot' && event.scope === 'reviews')
    return { ...state, items: [...event.reviews].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)) }
  if (event.type === 'review') return { ...state, items: upsert(state.items, event.item) }
  return state
}

const takeEffect = (state: ReviewState, id: number): [ReviewEffect | undefined, ReviewState] => {
  const effect = state.outbox.find((e) => e.id === id)
  return [effect, { ...state, outbox: state.outbox.filter((e) => e.id !== id) }]
}

function effectDone(before: ReviewState, id: number, value: unknown): ReviewState {
  const [effect, state] = takeEffect(before, id)
  if (!effect) return state
  switch (effect.type) {
    case 'load_blocklist':
      return { ...state, blocklist: value as BlockEntry[] }
    case 'approve_registration': {
      const result = value as {
        review: ReviewItem
        key: IssuedKey
        project: { slug: string; launchMethod?: string; expectedSymbol?: string | null; expectedTokenAddress?: string | null }
        deployerWarnings?: string[]
      }
      // What the operator must know of the binding just recorded (docs/launch-authenticity.md).
      const warnings = [
        ...(result.project.launchMethod === 'open_market' && !result.project.expectedSymbol && !result.project.expectedTokenAddress
          ? ['no symbol or expected token recorded: its launches wait for your confirmation']
          : []),
        ...(result.deployerWarnings ?? []),
      ]
      return {
        ...state,
        items: upsert(state.items, result.review),
        mode: { kind: 'key', key: result.key, what: `Project ${result.project.slug} created. Its owner's API key:` },
        notice: `approved registration ${effect.reviewId} as ${result.project.slug}${warnings.map((w) => `; warning: ${w}`).join('')}`,
      }
    }
    case 'approve_key_request': {
      const result = value as { review: ReviewItem; key: IssuedKey }
      return {
        ...state,
        items: upsert(state.items, result.review),
        mode: { kind: 'key', key: result.key, what: `API key ${result.key.label} issued:` },
        notice: `approved key request ${effect.reviewId}`,
      }
    }
    case 'reject':
      return {
        ...state,
        items: upsert(state.items, value as ReviewItem),
        mode: { kind: 'list' },
        notice: `rejected ${effect.kind.replace('_', ' ')} ${effect.reviewId}`,
      }
    case 'load_changes':
      return { ...state, changes: value as PendingChangeItemView[] }
    case 'confirm_change': {
      const result = value as { outcome: 'in_force' | 'awaiting_notice'; pendingChange: { effectiveAt: string | null } | null }
      const what = result.outcome === 'in_force' ? 'in force now' : `in force at ${result.pendingChange?.effectiveAt} (notice)`
      return withEffect({ ...state, notice: `confirmed the ${effect.kind} change of ${effect.slug}: ${what}` }, { type: 'load_changes' })
    }
    case 'reject_change':
      return withEffect({ ...state, mode: { kind: 'list' }, notice: `rejected the ${effect.kind} change of ${effect.slug}` }, { type: 'load_changes' })
    case 'block': {
      const added = value as BlockEntry[]
      const known = new Set(state.blocklist.map((b) => `${b.type}!${b.value}`))
      return {
        ...state,
        blocklist: [...state.blocklist, ...added.filter((b) => !known.has(`${b.type}!${b.value}`))],
        mode: { kind: 'list' },
        notice: `blocked ${added.map((b) => `${b.type} ${b.value}`).join(', ')}`,
      }
    }
  }
}

function effectFailed(before: ReviewState, id: number, message: string): ReviewState {
  const [effect, state] = takeEffect(before, id)
  if (!effect) return state
  // The daemon's error is shown where the action was asked for; the form keeps everything typed.
  const mode = state.mode
  if (
    (mode.kind === 'approve' || mode.kind === 'reject' || mode.kind === 'block' || mode.kind === 'reject_change') &&
    effect.type !== 'load_blocklist' &&
    effect.type !== 'load_changes'
  ) {
    return { ...state, mode: { ...mode, error: message, busy: false } }
  }
  const what = effect.type === 'load_blocklist' ? 'the blocklist' : effect.type === 'load_changes' ? "the owners' changes" : undefined
  return { ...state, notice: what ? `could not read ${what}: ${message}` : message }
}

function reduceKey(state: ReviewState, key: KeyPress): ReviewState {
  if (isInterrupt(key)) return { ...state, quit: true }
  const mode = state.mode
  switch (mode.kind) {
    case 'key':
      // The key is gone from the screen for good once dismissed.
      return key.enter || key.escape || key.input === 'q' ? { ...state, mode: { kind: 'list' } } : state
    case 'filter':
      if (key.enter || key.escape) return { ...state, mode: { kind: 'list' }, ...(key.escape ? { filter: '' } : {}) }
      return { ...state, filter: editText(state.filter, key) }
    case 'approve':
      return reduceApproveKey(state, mode, key)
    case 'reject': {
      if (mode.busy) return state
      if (key.escape) return { ...state, mode: { kind: 'list' } }
      const item = selectedItem(state)
      if (key.enter && item && item.kind !== 'feedback') {
        const note = mode.note.trim()
        return withEffect(
          { ...state, mode: { ...mode, busy: true, error: null } },
          { type: 'reject', kind: item.kind, reviewId: item.id, ...(note ? { note } : {}) },
        )
      }
      return { ...state, mode: { ...mode, note: editText(mode.note, key).slice(0, 500) } }
    }
    case 'reject_change': {
      if (mode.busy) return state
      if (key.escape) return { ...state, mode: { kind: 'list' } }
      const reason = mode.reason.trim()
      if (key.enter && reason === '') return { ...state, mode: { ...mode, error: 'a reason is required: it is shown on the project' } }
      if (key.enter) {
        return withEffect(
          { ...state, mode: { ...mode, busy: true, error: null } },
          { type: 'reject_change', slug: mode.change.slug, kind: mode.change.change.kind, reason },
        )
      }
      return { ...state, mode: { ...mode, reason: editText(mode.reason, key).slice(0, 500) } }
    }
    case 'block':
      if (mode.busy) return state
      if (key.input === 'y') return withEffect({ ...state, mode: { ...mode, busy: true, error: null } }, { type: 'block', entries: mode.entries })
      if (key.input === 'n' || key.escape) return { ...state, mode: { kind: 'list' } }
      return state
    default:
      return reduceListKey(state, key)
  }
}

function reduceListKey(state: ReviewState, key: KeyPress): ReviewState {
  const visible = visibleItems(state)
  const current = selectedItem(state)
  const index = current ? visible.indexOf(current) : -1
  const move = (to: number) => ({ ...state, selectedId: visible[Math.max(0, Math.min(visible.length - 1, to))]?.id ?? null })
  if (key.input === 'q') return { ...state, quit: true }
  if (key.escape) return state.mode.kind === 'detail' ? { ...state, mode: { kind: 'list' } } : state
  if (key.down || key.input === 'j') return move(index + 1)
  if (key.up || key.input === 'k') return move(index - 1)
  if (key.input === '/') return { ...state, mode: { kind: 'filter' } }
  // Owners' changes: the first listed (the oldest unconfirmed) is confirmed with C, rejected with X; g reloads them.
  if (key.input === 'g') return withEffect(state, { type: 'load_changes' })
  const change = state.changes[0]
  if ((key.input === 'C' || key.input === 'X') && !change) return { ...state, notice: 'no owner change waits' }
  if (key.input === 'C' && change) return withEffect(state, { type: 'confirm_change', slug: change.slug, kind: change.change.kind })
  if (key.input === 'X' && change) return { ...state, mode: { kind: 'reject_change', change, reason: '', error: null, busy: false } }
  if (!current) return state
  if (key.enter) return { ...state, selectedId: current.id, mode: state.mode.kind === 'detail' ? { kind: 'list' } : { kind: 'detail' } }
  if (key.input === 'a') {
    if (current.kind === 'feedback') return { ...state, notice: 'feedback is read, not approved' }
    return { ...state, selectedId: current.id, mode: { kind: 'approve', fields: approveFields(current), focus: 0, error: null, busy: false } }
  }
  if (key.input === 'r') {
    if (current.kind === 'feedback') return { ...state, notice: 'feedback is read, not rejected' }
    return { ...state, selectedId: current.id, mode: { kind: 'reject', note: '', error: null, busy: false } }
  }
  if (key.input === 'b') return { ...state, selectedId: current.id, mode: { kind: 'block', entries: blockEntriesOf(current), error: null, busy: false } }
  return state
}

function reduceApproveKey(state: ReviewState, mode: Extract<ReviewMode, { kind: 'approve' }>, key: KeyPress): ReviewState {
  if (mode.busy) return state
  if (key.escape) return { ...state, mode: { kind: 'list' } }
  const fields = mode.fields
  const focus = mode.focus
  if (key.tab || key.down) return { ...state, mode: { ...mode, focus: (focus + 1) % fields.length } }
  if (key.up) return { ...state, mode: { ...mode, focus: (focus - 1 + fields.length) % fields.length } }
  const field = fields[focus]!
  if (key.enter) {
    const invalid = fields.map((f) => [f, fieldError(f)] as const).find(([, error]) => error !== null)
    if (invalid) return { ...state, mode: { ...mode, error: `${invalid[0].label}: ${invalid[1]}`, focus: fields.indexOf(invalid[0]) } }
    const item = selectedItem(state)
    if (!item || item.kind === 'feedback') return state
    const value = (name: string) => fields.find((f) => f.name === name)?.value ?? ''
    const busy = { ...state, mode: { ...mode, busy: true, error: null } }
    if (item.kind === 'key_request') {
      const label = value('label')
      return withEffect(busy, { type: 'approve_key_request', reviewId: item.id, ...(label ? { label } : {}) })
    }
    const expectedToken = value('expectedToken')
    const symbol = value('symbol')
    const name = value('name')
    return withEffect(busy, {
      type: 'approve_registration',
      reviewId: item.id,
      request: {
        slug: value('slug'),
        creator: value('creator'),
        ...(expectedToken ? { expectedToken } : {}),
        ...(symbol ? { symbol } : {}),
        ...(name ? { name } : {}),
        launchpad: value('launchpad') as ApproveRegistrationForm['launchpad'],
        chain: value('chain') as ApproveRegistrationForm['chain'],
        method: value('method') as ApproveRegistrationForm['method'],
      },
    })
  }
  let next: FormField
  if (field.options) {
    const at = field.options.indexOf(field.value)
    const step = key.right || key.input === ' ' ? 1 : key.left ? -1 : 0
    if (step === 0) return state
    next = { ...field, value: field.options[(at + step + field.options.length) % field.options.length]! }
  } else {
    next = { ...field, value: editText(field.value, key).slice(0, 200) }
  }
  return { ...state, mode: { ...mode, fields: fields.map((f, i) => (i === focus ? next : f)), error: null } }
}

/** Typing into a text field: printable input appended, backspace removes the last character. */
function editText(text: string, key: KeyPress): string {
  if (key.backspace) return text.slice(0, -1)
  if (key.ctrl || key.tab || key.enter || key.escape || key.up || key.down || key.left || key.right) return text
  // Control characters pasted into a field are dropped: the value is sent to the daemon and shown on screen.
  return text + withoutControls(key.input)
}
