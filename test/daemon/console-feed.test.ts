import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AddressInfo } from 'node:net'
import { buildAdminApp } from '../../daemon/admin/build-admin-app.ts'
import type { AdminOperations } from '../../daemon/admin/admin-operations.ts'
import { createSseParser, followEventStream, type StreamSignal } from '../../src/admin-client/event-stream.ts'
import { silentLogger } from '../../src/common/logger.ts'
import type { ConsoleEvent } from '../../src/admin-api/console-events.ts'
import { createConsoleFeed, type ConsoleFeed } from '../../daemon/events/console-feed.ts'
import type { ReviewItem } from '../../src/domain/records.ts'
import { createJournal, type Journal } from '../../src/journal/journal.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import type { Store } from '../../src/store/open-store.ts'
import { put } from '../../src/store/open-store.ts'
import { openTempStore } from '../support/temp-store.ts'
import { orderRecord, projectRecord } from '../support/records.ts'
import { launchRecord, orderEvent, priceTick } from '../support/console-fixtures.ts'

const order = orderRecord

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

  it('a quiet tick’s record of its changes is a partial decision event; the snapshot has the decision whole', async () => {
    const decision = (at: number, verdicts: Array<[string, 'limit_below_cap' | 'no_balance']>) => ({
      slug: 'rocket',
      chain: 'base' as const,
      tick: priceTick('rocket', 100 + at),
      policy: 'p',
      orders: verdicts.map(([keyId, verdict]) => ({ keyId, slug: 'rocket', verdict })),
      at,
    })
    const whole = journal.putDecision(
      decision(1, [
        ['k1', 'limit_below_cap'],
        ['k2', 'limit_below_cap'],
        ['k3', 'no_balance'],
      ]),
    )
    await store.batch([put(store.sub.projects, 'rocket', projectRecord('rocket')), ...journal.putLaunch(launchRecord('rocket')), whole])
    const c = collector()
    await feed.subscribe({ scope: 'launches', ...c.subscription })
    await store.batch([journal.putDecision({ ...decision(2, [['k2', 'no_balance']]), delta: { base: whole.key, removed: ['k3'] } })])
    expect(c.got.at(-1)!.event).toEqual({
      type: 'decision',
      decision: { slug: 'rocket', blockNumber: '102', at: 2, verdicts: { k2: 'no_balance' }, partial: true, removed: ['k3'] },
    })
    // A new subscriber's snapshot: the newest decision made whole.
    const later = collector()
    await feed.subscribe({ scope: 'launches', ...later.subscription })
    expect(later.got[0]!.event).toMatchObject({
      type: 'snapshot',
      decisions: [{ slug: 'rocket', blockNumber: '102', at: 2, verdicts: { k1: 'limit_below_cap', k2: 'no_balance' } }],
    })
    expect((later.got[0]!.event as unknown as { decisions: Array<Record<string, unknown>> }).decisions[0]).not.toHaveProperty('partial')
  })

  it('a reorg that deletes a launch is a launch_reverted event', async () => {
    const launch = launchRecord('rocket')
    await store.batch(journal.putLaunch(launch))
    const c = collector()
    await feed.subscribe({ scope: 'launches', ...c.subscription })
    await store.batch(journal.deleteLaunch(launch))
    expect(c.got.at(-1)!.event).toEqual({ type: 'launch_reverted', slug: 'rocket' })
  })

  it('a journaled batch (one swap, one price per block) is a batch event as each write lands, and in the snapshot', async () => {
    const launch = launchRecord('rocket')
    await store.batch(journal.putLaunch(launch))
    const batches = createBatchJournal(store)
    const record: BatchRecord = {
      batchId: `0x${'01'.repeat(32)}`,
      chain: 'base',
      slug: 'rocket',
      launchBlock: launch.blockNumber,
      sequence: 0,
      tickBlock: '101',
      batchBuyer: `0x${'b0'.repeat(20)}`,
      token: launch.token,
      lowestLimitFdv: null,
      predictedTokensOut: '1000',
      included: [
        {
          keyId: 'k1',
          slug: 'rocket',
          userIndex: 0,
          wallet: `0x${'01'.repeat(20)}`,
          orderId: `0x${'00'.repeat(32)}`,
          spendAtoms: '5000000',
          rank: 0,
          predicted: { gross: '1000', fee: '30', net: '970' },
        },
      ],
      excluded: [{ keyId: 'k2', slug: 'rocket', wallet: `0x${'02'.repeat(20)}`, spendAtoms: '1000000', rank: 1, reason: 'limit_below_clearing' }],
      state: 'journaled',
      at: 1,
      swept: 0,
    }
    const c = collector()
    await feed.subscribe({ scope: 'launches', ...c.subscription })
    await store.batch([batches.put(record)])
    expect(c.got.at(-1)!.event).toMatchObject({
      type: 'batch',
      batch: { slug: 'rocket', sequence: 0, state: 'journaled', buyers: 1, totalInAtoms: '5000000', excludedCounts: { limit_below_clearing: 1 } },
    })
    const later = collector()
    await feed.subscribe({ scope: 'launches', ...later.subscription })
    expect(later.got[0]!.event).toMatchObject({ type: 'snapshot', batches: [{ batchId: record.batchId, buyers: 1 }] })
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

describe('GET /admin/v1/events over HTTP', () => {
  const TOKEN = 'prebuy_op_events-test'
  let temp: Awaited<ReturnType<typeof openTempStore>>
  let feed: ConsoleFeed
  let app: ReturnType<typeof buildAdminApp>
  let adminUrl: string
  beforeEach(async () => {
    temp = await openTempStore('events-http')
    feed = createConsoleFeed({ store: temp.store, journal: createJournal(temp.store) })
    app = buildAdminApp({ operations: {} as AdminOperations, operatorToken: TOKEN, logger: silentLogger, events: feed })
    await app.listen({ host: '127.0.0.1', port: 0 })
    adminUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  })
  afterEach(async () => {
    feed.close()
    await app.close()
    await temp.remove()
  })

  /** Reads a stream's messages until `count` arrived. */
  async function read(response: Response, count: number) {
    const parse = createSseParser()
    const decoder = new TextDecoder()
    const out: Array<{ id?: string; event: string; data: string }> = []
    const reader = response.body!.getReader()
    while (out.length < count) {
      const { value, done } = await reader.read()
      if (done) break
      out.push(...parse(decoder.decode(value, { stream: true })))
    }
    await reader.cancel()
    return out
  }

  it('needs the operator token; a stream is text/event-stream with ids, types and JSON data; a bad scope is a 400', async () => {
    expect((await fetch(`${adminUrl}/admin/v1/events`)).status).toBe(401)
    const bad = await fetch(`${adminUrl}/admin/v1/events?scope=everything`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: 'invalid_request' })
    const response = await fetch(`${adminUrl}/admin/v1/events?scope=reviews`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const [snapshot] = await read(response, 1)
    expect(snapshot).toMatchObject({ event: 'snapshot', id: expect.stringMatching(/^[0-9a-f]{8}-0$/) })
    expect(JSON.parse(snapshot!.data)).toMatchObject({ type: 'snapshot', scope: 'reviews', reviews: [] })
  })

  it('Last-Event-ID (header) resumes with the missed events only', async () => {
    const first = await fetch(`${adminUrl}/admin/v1/events?scope=launches`, { headers: { authorization: `Bearer ${TOKEN}` } })
    const [snapshot] = await read(first, 1)
    await temp.store.batch([put(temp.store.sub.orders, 'k1!rocket', order('rocket', 'k1'))])
    await temp.store.batch([put(temp.store.sub.orders, 'k2!rocket', order('rocket', 'k2'))])
    const resumed = await fetch(`${adminUrl}/admin/v1/events?scope=launches`, { headers: { authorization: `Bearer ${TOKEN}`, 'last-event-id': snapshot!.id! } })
    const messages = await read(resumed, 2)
    expect(messages.map((m) => [m.event, JSON.parse(m.data).order.keyId])).toEqual([
      ['order', 'k1'],
      ['order', 'k2'],
    ])
  })

  it('the client follows the stream, says when the daemon goes away and resumes where it left off when it is back', async () => {
    const signals: StreamSignal[] = []
    const controller = new AbortController()
    const port = (app.server.address() as AddressInfo).port
    const following = followEventStream({
      locate: async () => ({ adminUrl, operatorToken: TOKEN }),
      scope: 'launches',
      onSignal: (signal) => signals.push(signal),
      signal: controller.signal,
      minDelayMs: 50,
      maxDelayMs: 200,
    })
    const waitFor = async (what: string, check: () => boolean) => {
      const deadline = Date.now() + 10_000
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`never saw ${what}: ${JSON.stringify(signals.map((s) => s.type))}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    const events = () => signals.flatMap((s) => (s.type === 'event' ? [s.event] : []))
    await waitFor('the snapshot', () => events().some((e) => e.type === 'snapshot'))
    await temp.store.batch([put(temp.store.sub.orders, 'k1!rocket', order('rocket', 'k1'))])
    await waitFor('the first order', () => events().some((e) => e.type === 'order'))
    // The admin server goes away, connections cut (the feed and its history stay, as across a network outage).
    const closing = app.close()
    app.server.closeAllConnections()
    await closing
    await waitFor('the disconnection', () => signals.some((s) => s.type === 'disconnected'))
    await temp.store.batch([put(temp.store.sub.orders, 'k2!rocket', order('rocket', 'k2'))])
    app = buildAdminApp({ operations: {} as AdminOperations, operatorToken: TOKEN, logger: silentLogger, events: feed })
    await app.listen({ host: '127.0.0.1', port })
    await waitFor('the missed order', () => events().some((e) => e.type === 'order' && e.order.keyId === 'k2'))
    controller.abort()
    await following
    // Resumed, not restarted: one snapshot in all, each order once.
    expect(events().map((e) => (e.type === 'order' ? e.order.keyId : e.type))).toEqual(['snapshot', 'k1', 'k2'])
    expect(signals.filter((s) => s.type === 'connected')).toHaveLength(2)
  })
})
