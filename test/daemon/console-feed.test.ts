import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ConsoleEvent } from '../../src/admin-api/console-events.ts'
import { createConsoleFeed, type ConsoleFeed } from '../../daemon/events/console-feed.ts'
import type { OrderRecord, ReviewItem } from '../../src/domain/records.ts'
import { createJournal, type Journal } from '../../src/journal/journal.ts'
import type { Store } from '../../src/store/open-store.ts'
import { put } from '../../src/store/open-store.ts'
import { openTempStore } from '../support/temp-store.ts'
import { projectRecord } from '../support/records.ts'
import { launchRecord, orderEvent, priceTick } from '../support/console-fixtures.ts'

const order = (slug: string, keyId: string, patch: Partial<OrderRecord> = {}): OrderRecord => ({
  keyId,
  slug,
  status: 'active',
  maxSpendUsdc: '100',
  maxFdvUsdc: null,
  expiresInMs: 60_000,
  createdAt: 1,
  updatedAt: 1,
  ...patch,
})

const review = (id: string): ReviewItem =>
  ({
    id,
    kind: 'feedback',
    status: 'pending',
    submission: { message: 'hello' },
    createdAt: 1,
    updatedAt: 1,
  }) as unknown as ReviewItem

/** A subscription's messages as they arrive. */
function collector() {
  const got: Array<{ id: string; event: ConsoleEvent }> = []
  const state = { ended: false }
  return {
    got,
    ended: () => state.ended,
    types: () => got.map((m) => m.event.type),
    subscription: {
      send: (id: string, event: ConsoleEvent) => void got.push({ id, event }),
      end: () => {
        state.ended = true
      },
    },
  }
}

describe('console feed: the admin event stream from committed store batches', () => {
  let temp: Awaited<ReturnType<typeof openTempStore>>
  let store: Store
  let journal: Journal
  let feed: ConsoleFeed
  beforeEach(async () => {
    temp = await openTempStore('console-feed')
    store = temp.store
    journal = createJournal(store)
    feed = createConsoleFeed({ store, journal })
  })
  afterEach(async () => {
    feed.close()
    await temp.remove()
  })

  it('a snapshot of what the store holds first, then every committed record as its event, in commit order', async () => {
    await store.batch([
      put(store.sub.projects, 'rocket', projectRecord('rocket')),
      put(store.sub.orders, 'k1!rocket', order('rocket', 'k1')),
      put(store.sub.orders, 'k2!rocket', order('rocket', 'k2', { status: 'deleted' })),
      put(store.sub.orders, 'k3!rocket', order('rocket', 'k3', { status: 'filled' })),
      ...journal.putLaunch(launchRecord('rocket')),
      ...journal.putTick(priceTick('rocket', 100, { reason: 'launch', logIndex: 1 })),
      ...journal.putTick(priceTick('rocket', 101)),
      journal.putOrderEvent(orderEvent('rocket', 'k3', 'filled', { blockNumber: '102' })),
      journal.putDecision({
        slug: 'rocket',
        chain: 'base',
        tick: priceTick('rocket', 101),
        policy: 'p',
        orders: [{ keyId: 'k1', slug: 'rocket', verdict: 'limit_below_cap' }],
        at: 5,
      }),
    ])
    const c = collector()
    await feed.subscribe({ scope: 'launches', ...c.subscription })
    const [first] = c.got
    expect(first!.event).toMatchObject({
      type: 'snapshot',
      scope: 'launches',
      projects: [{ slug: 'rocket' }],
      launches: [{ slug: 'rocket', blockNumber: '100' }],
      ticks: [{ blockNumber: '100' }, { blockNumber: '101' }],
      decisions: [{ slug: 'rocket', blockNumber: '101', verdicts: { k1: 'limit_below_cap' } }],
      actions: [{ keyId: 'k3', to: 'filled', blockNumber: '102' }],
    })
    // Deleted orders are not in the book.
    expect((first!.event as { orders: Array<{ keyId: string }> }).orders.map((o) => o.keyId)).toEqual(['k1', 'k3'])

    await store.batch([put(store.sub.orders, 'k4!rocket', order('rocket', 'k4', { updatedAt: 9 }))])
    await store.batch([...journal.putTick(priceTick('rocket', 102)), journal.putOrderEvent(orderEvent('rocket', 'k1', 'executing'))])
    await store.batch([put(store.sub.reviews, 'r1', review('r1'))])
    expect(c.types()).toEqual(['snapshot', 'order', 'tick', 'order_event'])
    expect(c.got[1]!.event).toEqual({
      type: 'order',
      order: { keyId: 'k4', slug: 'rocket', status: 'active', maxSpendUsdc: '100', maxFdvUsdc: null, updatedAt: 9 },
    })
    const seqs = c.got.map((m) => Number(m.id.split('-')[1]))
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
  })

  it('a reorg that deletes a launch is a launch_reverted event', async () => {
    const launch = launchRecord('rocket')
    await store.batch(journal.putLaunch(launch))
    const c = collector()
    await feed.subscribe({ scope: 'launches', ...c.subscription })
    await store.batch(journal.deleteLaunch(launch))
    expect(c.got.at(-1)!.event).toEqual({ type: 'launch_reverted', slug: 'rocket' })
  })

  it('a batch committed while the snapshot is read comes after the snapshot', async () => {
    const c = collector()
    const subscribed = feed.subscribe({ scope: 'launches', ...c.subscription })
    const written = store.batch([put(store.sub.orders, 'k1!rocket', order('rocket', 'k1'))])
    await Promise.all([subscribed, written])
    expect(c.got[0]!.event.type).toBe('snapshot')
    expect(c.types().filter((t) => t === 'order').length).toBeLessThanOrEqual(1)
    // Whether the order made it into the snapshot or came after it, the client ends up knowing it.
    const inSnapshot = (c.got[0]!.event as { orders: unknown[] }).orders.length === 1
    expect(inSnapshot || c.types().includes('order')).toBe(true)
  })

  it('Last-Event-ID resumes with exactly the missed events; an id from another boot or too old gets a snapshot', async () => {
    const first = collector()
    const unsubscribe = await feed.subscribe({ scope: 'launches', ...first.subscription })
    await store.batch([put(store.sub.orders, 'k1!rocket', order('rocket', 'k1'))])
    const lastSeen = first.got.at(-1)!.id
    unsubscribe()
    await store.batch([put(store.sub.orders, 'k2!rocket', order('rocket', 'k2'))])
    await store.batch([put(store.sub.orders, 'k3!rocket', order('rocket', 'k3'))])
    expect(first.got).toHaveLength(2)

    const resumed = collector()
    await feed.subscribe({ scope: 'launches', lastEventId: lastSeen, ...resumed.subscription })
    expect(resumed.got.map((m) => (m.event.type === 'order' ? m.event.order.keyId : m.event.type))).toEqual(['k2', 'k3'])

    const stranger = collector()
    await feed.subscribe({ scope: 'launches', lastEventId: `ffffffff-${lastSeen.split('-')[1]}`, ...stranger.subscription })
    expect(stranger.types()).toEqual(['snapshot'])

    const small = createConsoleFeed({ store, journal, history: 2 })
    const early = collector()
    await small.subscribe({ scope: 'launches', ...early.subscription })
    for (const k of ['a', 'b', 'c', 'd']) await store.batch([put(store.sub.orders, `${k}!rocket`, order('rocket', k))])
    const late = collector()
    await small.subscribe({ scope: 'launches', lastEventId: early.got[0]!.id, ...late.subscription })
    expect(late.types()).toEqual(['snapshot'])
    small.close()
  })

  it('scopes and slugs: a project stream carries only its project, the reviews stream only review items', async () => {
    await store.batch([put(store.sub.projects, 'a', projectRecord('a')), put(store.sub.projects, 'b', projectRecord('b'))])
    const onlyA = collector()
    const reviews = collector()
    await feed.subscribe({ scope: 'launches', slug: 'a', ...onlyA.subscription })
    await feed.subscribe({ scope: 'reviews', ...reviews.subscription })
    expect((onlyA.got[0]!.event as { projects: Array<{ slug: string }> }).projects.map((p) => p.slug)).toEqual(['a'])
    await store.batch([
      put(store.sub.orders, 'k1!a', order('a', 'k1')),
      put(store.sub.orders, 'k1!b', order('b', 'k1')),
      put(store.sub.reviews, 'r1', review('r1')),
    ])
    expect(onlyA.got.slice(1).map((m) => (m.event.type === 'order' ? m.event.order.slug : m.event.type))).toEqual(['a'])
    expect(reviews.types()).toEqual(['snapshot', 'review'])
    expect(reviews.got[0]!.event).toMatchObject({ scope: 'reviews', reviews: [] })
  })

  it('close ends every subscription and stops publishing', async () => {
    const c = collector()
    await feed.subscribe({ scope: 'launches', ...c.subscription })
    feed.close()
    expect(c.ended()).toBe(true)
    await store.batch([put(store.sub.orders, 'k1!rocket', order('rocket', 'k1'))])
    expect(c.types()).toEqual(['snapshot'])
  })
})
