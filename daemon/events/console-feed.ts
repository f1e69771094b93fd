import { randomBytes } from 'node:crypto'
import {
  type ConsoleEvent,
  type DecisionBrief,
  type EventScope,
  eventSlug,
  type LaunchesSnapshot,
  type OrderBrief,
  type ReviewsSnapshot,
  SNAPSHOT_BATCHES,
  SNAPSHOT_TICKS,
  scopeOf,
} from '../../src/admin-api/console-events.ts'
import type { OrderVerdict } from '../../src/domain/execution/verdicts.ts'
import type { OrderRecord, ProjectRecord, ReviewItem } from '../../src/domain/records.ts'
import type { Journal } from '../../src/journal/journal.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { batchBrief } from '../../src/admin-api/batch-brief.ts'
import type { CandidateRecord, LaunchRecord, OrderEvent, PriceTick, TickDecision } from '../../src/journal/journal-records.ts'
import type { Store, StoreOperation } from '../../src/store/open-store.ts'

/**
 * How much the feed keeps for clients reconnecting with Last-Event-ID (older ones get a snapshot), in units: one per
 * event plus one per order verdict of a decision (a 1,000-order decision weighs as much as 1,000 small events). Enough
 * for a reconnection after a network blip, even during a launch (a 500-buy launch is ~3,000 units); kept small because
 * the history is rewritten by every write the daemon makes (200 requests/s under load), listened to or not.
 */
export const FEED_HISTORY = 10_000

export interface FeedSubscription {
  scope: EventScope
  /** Launches scope: only this project's events. */
  slug?: string
  /** The last id the client saw (`Last-Event-ID`): replay after it when the feed still has it. */
  lastEventId?: string
  send(id: string, event: ConsoleEvent): void
  /** The feed is closing (daemon shutdown): end the stream. */
  end(): void
}

export interface ConsoleFeed {
  /** Starts a subscription: a snapshot (or the missed events) first, then every event in scope. Returns the unsubscribe. */
  subscribe(subscription: FeedSubscription): Promise<() => void>
  /** Ends every subscription and stops reading batches. */
  close(): void
}

interface Entry {
  seq: number
  event: ConsoleEvent
  weight: number
}

export const orderBrief = (order: OrderRecord): OrderBrief => ({
  keyId: order.keyId,
  slug: order.slug,
  status: order.status,
  maxSpendUsdc: order.maxSpendUsdc,
  maxFdvUsdc: order.maxFdvUsdc,
  updatedAt: order.updatedAt,
  ...(order.execution ? { spentUsdc: order.execution.spentUsdc, txHash: order.execution.txHash } : {}),
})

/** A decision's brief; a stored delta record (a quiet tick's changes) gives a partial brief of those changes. */
export const decisionBrief = (decision: TickDecision): DecisionBrief => {
  const verdicts: Record<string, OrderVerdict> = {}
  for (const order of decision.orders) verdicts[order.keyId] = order.verdict
  const brief: DecisionBrief = { slug: decision.slug, blockNumber: decision.tick.blockNumber, at: decision.at, verdicts }
  return decision.delta ? { ...brief, partial: true, removed: decision.delta.removed } : brief
}

/**
 * The daemon's one event publisher: every committed store batch (the one write path, Store.onBatch) is turned into the
 * events it records, in commit order, so the console sees exactly what the journal and the store hold and never polls.
 */
export function createConsoleFeed(deps: { store: Store; journal: Journal; history?: number }): ConsoleFeed {
  const { store, journal } = deps
  const batches = createBatchJournal(store)
  const history = deps.history ?? FEED_HISTORY
  const boot = randomBytes(4).toString('hex')
  const entries: Entry[] = []
  let held = 0
  let seq = 0
  const subscribers = new Set<{ subscription: FeedSubscription; pending: Entry[] | undefined }>()
  const idOf = (n: number) => `${boot}-${n}`

  const inScope = (subscription: FeedSubscription, event: ConsoleEvent): boolean => {
    if (scopeOf(event) !== subscription.scope) return false
    return subscription.slug === undefined || eventSlug(event) === subscription.slug
  }

  const publish = (event: ConsoleEvent) => {
    const weight = 1 + (event.type === 'decision' ? Object.keys(event.decision.verdicts).length + (event.decision.removed?.length ?? 0) : 0)
    const entry = { seq: ++seq, event, weight }
    entries.push(entry)
    held += weight
    let drop = 0
    while (held > history && drop < entries.length - 1) held -= entries[drop++]!.weight
    if (drop > 0) entries.splice(0, drop)
    for (const subscriber of subscribers) {
      if (!inScope(subscriber.subscription, event)) continue
      if (subscriber.pending) subscriber.pending.push(entry)
      else subscriber.subscription.send(idOf(entry.seq), event)
    }
  }

  const eventsOf = (operations: readonly StoreOperation[]): ConsoleEvent[] => {
    const out: ConsoleEvent[] = []
    for (const op of operations) {
      if (op.type === 'del') {
        // deleteLaunch (a reorg removed the launch's block) deletes the slug's entry: its key is the slug.
        if (op.sublevel === journal.sub.launchesBySlug) out.push({ type: 'launch_reverted', slug: op.key })
        continue
      }
      const value = op.value
      if (op.sublevel === store.sub.orders) out.push({ type: 'order', order: orderBrief(value as OrderRecord) })
      else if (op.sublevel === store.sub.projects) out.push({ type: 'project', project: value as ProjectRecord })
      else if (op.sublevel === store.sub.reviews) out.push({ type: 'review', item: value as ReviewItem })
      else if (op.sublevel === journal.sub.launches) out.push({ type: 'launch', launch: value as LaunchRecord })
      else if (op.sublevel === journal.sub.ticks) out.push({ type: 'tick', tick: value as PriceTick })
      else if (op.sublevel === journal.sub.decisions) out.push({ type: 'decision', decision: decisionBrief(value as TickDecision) })
      else if (op.sublevel === journal.sub.orderEvents) out.push({ type: 'order_event', event: value as OrderEvent })
      else if (op.sublevel === journal.sub.candidates) out.push({ type: 'candidate', candidate: value as CandidateRecord })
      else if (op.sublevel === batches.sub) out.push({ type: 'batch', batch: batchBrief(value as BatchRecord) })
    }
    return out
  }

  // Events are kept while nobody listens: a client reconnecting after a short outage still catches up exactly.
  const stopReading = store.onBatch((operations) => {
    for (const event of eventsOf(operations)) publish(event)
  })

  async function launchesSnapshot(slug: string | undefined): Promise<LaunchesSnapshot> {
    const wanted = (s: string) => slug === undefined || s === slug
    const projects: ProjectRecord[] = []
    for await (const project of store.sub.projects.values()) if (wanted(project.slug)) projects.push(project)
    const launches: LaunchRecord[] = []
    for await (const launch of journal.sub.launches.values()) if (wanted(launch.slug)) launches.push(launch)
    const orders: OrderBrief[] = []
    for await (const order of store.sub.orders.values()) if (wanted(order.slug) && order.status !== 'deleted') orders.push(orderBrief(order))
    const launched = new Set(launches.map((l) => l.slug))
    const moved = orders.filter((o) => launched.has(o.slug) && o.status !== 'active')
    const [ticks, decisions, actions, candidates, batchBriefs] = await Promise.all([
      Promise.all(launches.map((l) => journal.recentTicks(l.slug, SNAPSHOT_TICKS))).then((lists) => lists.flat()),
      Promise.all(launches.map((l) => journal.latestDecision(l.slug))).then((list) =>
        list.filter((d): d is TickDecision => d !== undefined).map(decisionBrief),
      ),
      Promise.all(moved.map((o) => journal.orderEventsOf(o.keyId, o.slug))).then((lists) => lists.flat().sort((a, b) => a.at - b.at)),
      journal.candidates().then((list) => list.filter((c) => wanted(c.slug))),
      Promise.all(launches.map((l) => batches.ofLaunch(l.chain, l.slug, l.blockNumber))).then((lists) =>
        lists.flatMap((list) => list.slice(-SNAPSHOT_BATCHES).map(batchBrief)),
      ),
    ])
    return {
      type: 'snapshot',
      scope: 'launches',
      at: Date.now(),
      projects,
      launches,
      ticks,
      orders,
      decisions,
      candidates,
      actions,
      batches: batchBriefs,
    }
  }

  async function reviewsSnapshot(): Promise<ReviewsSnapshot> {
    const reviews: ReviewItem[] = []
    for await (const item of store.sub.reviews.values({ reverse: true })) reviews.push(item)
    return { type: 'snapshot', scope: 'reviews', at: Date.now(), reviews }
  }

  /** The entries after `lastEventId` when the feed still holds all of them; undefined: the client needs a snapshot. */
  const missedSince = (lastEventId: string | undefined): Entry[] | undefined => {
    if (lastEventId === undefined) return undefined
    const [bootPart, seqPart] = lastEventId.split('-')
    const last = Number(seqPart)
    if (bootPart !== boot || !Number.isSafeInteger(last) || last > seq) return undefined
    const oldest = entries[0]?.seq ?? seq + 1
    if (last < oldest - 1) return undefined
    return entries.filter((entry) => entry.seq > last)
  }

  return {
    async subscribe(subscription) {
      const missed = missedSince(subscription.lastEventId)
      if (missed) {
        for (const entry of missed) if (inScope(subscription, entry.event)) subscription.send(idOf(entry.seq), entry.event)
        const subscriber = { subscription, pending: undefined }
        subscribers.add(subscriber)
        return () => void subscribers.delete(subscriber)
      }
      // Events committed while the snapshot is read are held, then sent after it: the snapshot may already show some
      // of them, and the console's reducers apply an event they already reflect without change.
      const subscriber: { subscription: FeedSubscription; pending: Entry[] | undefined } = { subscription, pending: [] }
      subscribers.add(subscriber)
      const at = seq
      try {
        const snapshot = subscription.scope === 'reviews' ? await reviewsSnapshot() : await launchesSnapshot(subscription.slug)
        subscription.send(idOf(at), snapshot)
        for (const entry of subscriber.pending ?? []) subscription.send(idOf(entry.seq), entry.event)
        subscriber.pending = undefined
      } catch (error) {
        subscribers.delete(subscriber)
        throw error
      }
      return () => void subscribers.delete(subscriber)
    },
    close() {
      stopReading()
      for (const { subscription } of subscribers) subscription.end()
      subscribers.clear()
    },
  }
}
