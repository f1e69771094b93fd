import type { BatchBrief, ConsoleEvent, DecisionBrief, LaunchesSnapshot, OrderBrief } from '../../admin-api/console-events.ts'
import type { StreamSignal } from '../../admin-client/event-stream.ts'
import type { ProjectRecord } from '../../domain/records.ts'
import type { CandidateRecord, LaunchRecord, OrderEvent, PriceTick } from '../../journal/journal-records.ts'
import { isInterrupt, type KeyPress } from '../key-press.ts'

/** Ticks kept per project for the sparkline and the swap list. */
export const TICKS_KEPT = 240
/** Executor actions kept per project. */
export const ACTIONS_KEPT = 40
/** Batches kept per project (the latest by sequence). */
export const BATCHES_KEPT = 20

/** One line of a project's action log: executor order events of one kind grouped by block (sent) or transaction. */
export interface ActionEntry {
  kind: 'sent' | 'mined' | 'reverted' | 'expired'
  blockNumber: string | null
  txHash: string | null
  count: number
  /** The decoded revert (`errorName`) or the failure reason. */
  detail: string | null
  at: number
}

export interface FillLatency {
  blocks: number
  seconds: number
}

export interface WatchState {
  connection: { state: 'connecting' | 'connected' | 'disconnected'; message: string | null; retryInMs: number | null }
  /** `launches watch <slug>`: the one project watched (the daemon filters; kept for the header). */
  slug: string | null
  projects: ReadonlyMap<string, ProjectRecord>
  launches: ReadonlyMap<string, LaunchRecord>
  ticks: ReadonlyMap<string, readonly PriceTick[]>
  orders: ReadonlyMap<string, ReadonlyMap<string, OrderBrief>>
  decisions: ReadonlyMap<string, DecisionBrief>
  /** By `${chain}!${slug}!${token}`. */
  candidates: ReadonlyMap<string, CandidateRecord>
  actions: ReadonlyMap<string, readonly ActionEntry[]>
  /** Per project, its latest batches in sequence order, each as last written (journaled, sent, executed, ...). */
  batches: ReadonlyMap<string, readonly BatchBrief[]>
  /** Per project, per order: its fill's latency from the launch. */
  fills: ReadonlyMap<string, ReadonlyMap<string, FillLatency>>
  /** Order events already applied (a snapshot and the events held while it was read may overlap). */
  seenEvents: ReadonlySet<string>
  /** Index of the launched project shown in detail. */
  selected: number
  quit: boolean
}

export type WatchAction = { type: 'signals'; signals: readonly StreamSignal[] } | { type: 'key'; key: KeyPress }

export function initialWatchState(slug: string | null = null): WatchState {
  return {
    connection: { state: 'connecting', message: null, retryInMs: null },
    slug,
    projects: new Map(),
    launches: new Map(),
    ticks: new Map(),
    orders: new Map(),
    decisions: new Map(),
    candidates: new Map(),
    actions: new Map(),
    batches: new Map(),
    fills: new Map(),
    seenEvents: new Set(),
    selected: 0,
    quit: false,
  }
}

/** A batch's states in the order it moves through them (released ends a journaled or sent one). */
const BATCH_STATE_ORDER: Readonly<Record<BatchBrief['state'], number>> = { journaled: 0, sent: 1, executed: 2, swept: 3, released: 3 }

const candidateKey = (c: Pick<CandidateRecord, 'chain' | 'slug' | 'token'>) => `${c.chain}!${c.slug}!${c.token.toLowerCase()}`
const orderEventKey = (e: OrderEvent) => `${e.keyId}!${e.slug}!${e.at}!${e.to}`

/**
 * A project's brief after a decision: a whole one replaces it, a partial one (a quiet tick's changes) is applied to it.
 * A partial one with nothing before it stands alone (the orders it does not name show as waiting, as with no decision).
 */
export function withDecision(before: DecisionBrief | undefined, decision: DecisionBrief): DecisionBrief {
  if (!decision.partial) return decision
  const verdicts = { ...before?.verdicts }
  for (const keyId of decision.removed ?? []) delete verdicts[keyId]
  Object.assign(verdicts, decision.verdicts)
  return { slug: decision.slug, blockNumber: decision.blockNumber, at: decision.at, verdicts }
}

/** The launched projects in display order (latest launch first): `selected` indexes this list. */
export const launchedSlugs = (state: WatchState): string[] =>
  [...state.launches.values()].sort((a, b) => b.launchedAt - a.launchedAt || a.slug.localeCompare(b.slug)).map((l) => l.slug)

export function reduceWatch(state: WatchState, action: WatchAction): WatchState {
  if (action.type === 'key') return reduceKey(state, action.key)
  let next = state
  const draft = new Draft(state)
  for (const signal of action.signals) {
    if (signal.type === 'connected') next = { ...draft.commit(next), connection: { state: 'connected', message: null, retryInMs: null } }
    else if (signal.type === 'disconnected')
      next = { ...draft.commit(next), connection: { state: 'disconnected', message: signal.message, retryInMs: signal.retryInMs } }
    else if (signal.event.type === 'snapshot') {
      if (signal.event.scope !== 'launches') continue
      next = fromSnapshot(draft.commit(next), signal.event)
      draft.reset(next)
    } else draft.apply(signal.event)
  }
  return draft.commit(next)
}

function reduceKey(state: WatchState, key: KeyPress): WatchState {
  if (isInterrupt(key) || key.input === 'q' || key.escape) return { ...state, quit: true }
  const count = state.launches.size
  if (count === 0) return state
  if (key.down || key.input === 'j') return { ...state, selected: Math.min(count - 1, state.selected + 1) }
  if (key.up || key.input === 'k') return { ...state, selected: Math.max(0, state.selected - 1) }
  return state
}

function fromSnapshot(state: WatchState, snapshot: LaunchesSnapshot): WatchState {
  const fresh = initialWatchState(state.slug)
  const draft = new Draft({ ...fresh, connection: state.connection, selected: state.selected })
  for (const project of snapshot.projects) draft.apply({ type: 'project', project })
  for (const launch of snapshot.launches) draft.apply({ type: 'launch', launch })
  for (const order of snapshot.orders) draft.apply({ type: 'order', order })
  for (const tick of snapshot.ticks) draft.apply({ type: 'tick', tick })
  for (const decision of snapshot.decisions) draft.apply({ type: 'decision', decision })
  for (const candidate of snapshot.candidates) draft.apply({ type: 'candidate', candidate })
  for (const event of snapshot.actions) draft.apply({ type: 'order_event', event })
  for (const batch of snapshot.batches ?? []) draft.apply({ type: 'batch', batch })
  const next = draft.commit({ ...fresh, connection: state.connection, selected: state.selected })
  return { ...next, selected: Math.min(state.selected, Math.max(0, next.launches.size - 1)) }
}

/**
 * Copy-on-write over one batch of events: each map a batch touches is copied once (not once per event), so a launch's
 * 500 order events cost one copy of the book. The state handed in is never mutated.
 */
class Draft {
  private projects!: Map<string, ProjectRecord> | undefined
  private launches!: Map<string, LaunchRecord> | undefined
  private ticks!: Map<string, readonly PriceTick[]> | undefined
  private orders!: Map<string, ReadonlyMap<string, OrderBrief>> | undefined
  private ordersCopied!: Set<string>
  private decisions!: Map<string, DecisionBrief> | undefined
  private candidates!: Map<string, CandidateRecord> | undefined
  private actions!: Map<string, readonly ActionEntry[]> | undefined
  private batches!: Map<string, readonly BatchBrief[]> | undefined
  private fills!: Map<string, ReadonlyMap<string, FillLatency>> | undefined
  private seen!: Set<string> | undefined

  constructor(private base: WatchState) {
    this.reset(base)
  }

  reset(base: WatchState): void {
    this.base = base
    this.projects = undefined
    this.launches = undefined
    this.ticks = undefined
    this.orders = undefined
    this.ordersCopied = new Set()
    this.decisions = undefined
    this.candidates = undefined
    this.actions = undefined
    this.batches = undefined
    this.fills = undefined
    this.seen = undefined
  }

  /** `state` with every map this draft changed; the draft then starts over from the result. */
  commit(state: WatchState): WatchState {
    const next: WatchState = {
      ...state,
      projects: this.projects ?? state.projects,
      launches: this.launches ?? state.launches,
      ticks: this.ticks ?? state.ticks,
      orders: this.orders ?? state.orders,
      decisions: this.decisions ?? state.decisions,
      candidates: this.candidates ?? state.candidates,
      actions: this.actions ?? state.actions,
      batches: this.batches ?? state.batches,
      fills: this.fills ?? state.fills,
      seenEvents: this.seen ?? state.seenEvents,
    }
    this.reset(next)
    return next
  }

  apply(event: ConsoleEvent): void {
    switch (event.type) {
      case 'project':
        this.projects ??= new Map(this.base.projects)
        this.projects.set(event.project.slug, event.project)
        return
      case 'launch':
        this.launches ??= new Map(this.base.launches)
        this.launches.set(event.launch.slug, event.launch)
        return
      case 'launch_reverted':
        this.launches ??= new Map(this.base.launches)
        this.launches.delete(event.slug)
        this.ticks ??= new Map(this.base.ticks)
        this.ticks.delete(event.slug)
        this.batches ??= new Map(this.base.batches)
        this.batches.delete(event.slug)
        return
      case 'tick':
        this.addTick(event.tick)
        return
      case 'decision': {
        this.decisions ??= new Map(this.base.decisions)
        const before = this.decisions.get(event.decision.slug)
        if ((before?.at ?? -1) <= event.decision.at) this.decisions.set(event.decision.slug, withDecision(before, event.decision))
        return
      }
      case 'order':
        this.putOrder(event.order)
        return
      case 'order_event':
        this.addOrderEvent(event.event)
        return
      case 'candidate':
        this.candidates ??= new Map(this.base.candidates)
        this.candidates.set(candidateKey(event.candidate), event.candidate)
        return
      case 'batch':
        this.putBatch(event.batch)
        return
      default:
        return
    }
  }

  private addTick(tick: PriceTick): void {
    this.ticks ??= new Map(this.base.ticks)
    const list = this.ticks.get(tick.slug) ?? []
    const last = list[list.length - 1]
    // Ticks arrive in chain order: one at or before the last one held (the snapshot already had it) is dropped.
    if (last) {
      const lastBlock = BigInt(last.blockNumber)
      const block = BigInt(tick.blockNumber)
      if (block < lastBlock || (block === lastBlock && tick.logIndex <= last.logIndex)) return
    }
    const next = [...list, tick]
    this.ticks.set(tick.slug, next.length > TICKS_KEPT ? next.slice(next.length - TICKS_KEPT) : next)
  }

  /**
   * A batch's later write replaces its earlier one; one of an earlier state (a snapshot and the events held while it
   * was read may overlap) is dropped. The list stays in sequence order, the latest kept.
   */
  private putBatch(batch: BatchBrief): void {
    this.batches ??= new Map(this.base.batches)
    const held = this.batches.get(batch.slug) ?? []
    const current = held.find((b) => b.batchId === batch.batchId)
    if (current && BATCH_STATE_ORDER[current.state] > BATCH_STATE_ORDER[batch.state]) return
    const list = held.filter((b) => b.batchId !== batch.batchId)
    list.push(batch)
    list.sort((a, b) => a.sequence - b.sequence)
    this.batches.set(batch.slug, list.length > BATCHES_KEPT ? list.slice(list.length - BATCHES_KEPT) : list)
  }

  private putOrder(order: OrderBrief): void {
    this.orders ??= new Map(this.base.orders)
    let book = this.orders.get(order.slug) as Map<string, OrderBrief> | undefined
    if (!this.ordersCopied.has(order.slug)) {
      book = new Map(book ?? [])
      this.orders.set(order.slug, book)
      this.ordersCopied.add(order.slug)
    }
    const current = book!.get(order.keyId)
    if (current && current.updatedAt > order.updatedAt) return
    if (order.status === 'deleted') book!.delete(order.keyId)
    else book!.set(order.keyId, order)
  }

  private addOrderEvent(event: OrderEvent): void {
    const id = orderEventKey(event)
    if (this.base.seenEvents.has(id) || this.seen?.has(id)) return
    this.seen ??= new Set(this.base.seenEvents)
    this.seen.add(id)
    const kind =
      event.to === 'executing' ? 'sent' : event.to === 'filled' ? 'mined' : event.to === 'failed' ? 'reverted' : event.to === 'expired' ? 'expired' : null
    if (kind === null) return
    if (kind === 'mined') this.addFill(event)
    this.actions ??= new Map(this.base.actions)
    const list = [...(this.actions.get(event.slug) ?? [])]
    const blockNumber = event.blockNumber ?? null
    const txHash = kind === 'sent' ? null : (event.txHash ?? null)
    const detail = kind === 'reverted' ? (event.errorName ?? event.reason ?? null) : null
    const same = list.findIndex((a) => a.kind === kind && a.blockNumber === blockNumber && a.txHash === txHash && a.detail === detail)
    if (same >= 0) list[same] = { ...list[same]!, count: list[same]!.count + 1, at: Math.max(list[same]!.at, event.at) }
    else list.push({ kind, blockNumber, txHash, count: 1, detail, at: event.at })
    list.sort((a, b) => a.at - b.at)
    this.actions.set(event.slug, list.length > ACTIONS_KEPT ? list.slice(list.length - ACTIONS_KEPT) : list)
  }

  private addFill(event: OrderEvent): void {
    const launch = (this.launches ?? this.base.launches).get(event.slug)
    if (!launch || event.blockNumber === undefined) return
    this.fills ??= new Map(this.base.fills)
    const fills = new Map(this.fills.get(event.slug) ?? [])
    fills.set(event.keyId, {
      blocks: Math.max(0, Number(BigInt(event.blockNumber) - BigInt(launch.blockNumber))),
      seconds: Math.max(0, (event.at - launch.launchedAt) / 1000),
    })
    this.fills.set(event.slug, fills)
  }
}
