import { describe, expect, it } from 'vitest'
import { key } from '../../../src/console/key-press.ts'
import { initialWatchState, reduceWatch, type WatchState } from '../../../src/console/watch/watch-state.ts'
import { watchText, watchView } from '../../../src/console/watch/watch-view.ts'
import { projectRecord } from '../../support/records.ts'
import { events, launchesSnapshot, launchRecord, orderBrief, orderEvent, priceTick } from '../../support/console-fixtures.ts'

const snapshot = launchesSnapshot

const feed = (state: WatchState, ...list: Parameters<typeof events>) => reduceWatch(state, { type: 'signals', signals: events(...list) })
const connected = (): WatchState => reduceWatch(initialWatchState(), { type: 'signals', signals: [{ type: 'connected' }] })

describe('launches watch: reducer and view model', () => {
  it('starts connecting; a connection with an empty snapshot says there is nothing yet', () => {
    expect(watchView(initialWatchState()).connection).toEqual({ text: 'connecting to the daemon…', tone: 'warn' })
    expect(watchView(initialWatchState()).empty).toBeNull()
    const view = watchView(feed(connected(), snapshot()))
    expect(view.connection.tone).toBe('ok')
    expect(view.empty).toBe('No projects yet.')
    expect(watchView(feed(reduceWatch(initialWatchState('moon'), { type: 'signals', signals: [{ type: 'connected' }] }), snapshot())).empty).toBe(
      'No project moon.',
    )
  })

  it('with no launch, shows the projects waiting and their order books', () => {
    const state = feed(
      connected(),
      snapshot({
        projects: [projectRecord('rocket'), projectRecord('apple', { launchpad: 'zora' })],
        orders: [
          orderBrief('rocket', 'k1', { maxSpendUsdc: '100', maxFdvUsdc: '50000' }),
          orderBrief('rocket', 'k2', { maxSpendUsdc: '25.5', maxFdvUsdc: '2000000' }),
          orderBrief('rocket', 'k3', { maxSpendUsdc: '10', maxFdvUsdc: null }),
        ],
      }),
    )
    const view = watchView(state)
    expect(view.launched).toEqual([])
    expect(view.waiting).toEqual([
      { slug: 'apple', chain: 'base', launchpad: 'zora', method: 'open_market', orders: 0, spend: '$0', limits: '-' },
      { slug: 'rocket', chain: 'base', launchpad: 'clanker', method: 'open_market', orders: 3, spend: '$136', limits: '$50k–$2M, 1 without limit' },
    ])
  })

  it('a new order, an edit and a delete update the book; an older copy of an order never replaces a newer one', () => {
    let state = feed(connected(), snapshot({ projects: [projectRecord('rocket')] }))
    state = feed(state, { type: 'order', order: orderBrief('rocket', 'k1', { maxSpendUsdc: '10', updatedAt: 5 }) })
    state = feed(state, { type: 'order', order: orderBrief('rocket', 'k1', { maxSpendUsdc: '99', updatedAt: 4 }) })
    expect(watchView(state).waiting[0]).toMatchObject({ orders: 1, spend: '$10' })
    state = feed(state, { type: 'order', order: orderBrief('rocket', 'k2', { updatedAt: 6 }) })
    state = feed(state, { type: 'order', order: orderBrief('rocket', 'k1', { status: 'deleted', updatedAt: 7 }) })
    expect(watchView(state).waiting[0]).toMatchObject({ orders: 1, spend: '$100' })
  })

  it('a quiet tick’s partial decision (its changes) is applied to the project’s verdicts, not put in their place', () => {
    let state = feed(
      connected(),
      snapshot({
        projects: [projectRecord('rocket')],
        orders: ['k1', 'k2', 'k3'].map((k) => orderBrief('rocket', k, { maxSpendUsdc: '10', maxFdvUsdc: '10000' })),
      }),
    )
    const waiting = (s: WatchState) =>
      watchView(s)
        .launched[0]!.orders.map((o) => `${o.label} ${o.count}`)
        .slice(0, 2)
    state = feed(
      state,
      { type: 'launch', launch: launchRecord('rocket') },
      { type: 'tick', tick: priceTick('rocket', 100, { reason: 'launch', logIndex: 3 }) },
      { type: 'decision', decision: { slug: 'rocket', blockNumber: '100', at: 5, verdicts: { k1: 'limit_below_cap', k2: 'no_balance', k3: 'no_balance' } } },
    )
    expect(waiting(state)).toEqual(['waiting for the price 1', 'eligible 2'])
    // k2's verdict changed, k3 is no longer decided; k1's stands.
    state = feed(state, {
      type: 'decision',
      decision: { slug: 'rocket', blockNumber: '101', at: 6, verdicts: { k2: 'limit_below_cap' }, partial: true, removed: ['k3'] },
    })
    expect(state.decisions.get('rocket')?.verdicts).toEqual({ k1: 'limit_below_cap', k2: 'limit_below_cap' })
    expect(waiting(state)).toEqual(['waiting for the price 3', 'eligible 0'])
    // A partial decision older than the one held is ignored, as a whole one is.
    state = feed(state, { type: 'decision', decision: { slug: 'rocket', blockNumber: '99', at: 4, verdicts: { k1: 'no_balance' }, partial: true } })
    expect(state.decisions.get('rocket')?.verdicts).toEqual({ k1: 'limit_below_cap', k2: 'limit_below_cap' })
  })

  it('a launch: spot FDV, fee now and next block, effective cap, sparkline, orders by state with spend, actions and latency', () => {
    let state = feed(
      connected(),
      snapshot({
        projects: [projectRecord('rocket')],
        orders: [
          orderBrief('rocket', 'k1', { maxSpendUsdc: '100', maxFdvUsdc: null }),
          orderBrief('rocket', 'k2', { maxSpendUsdc: '50', maxFdvUsdc: '31000' }),
          orderBrief('rocket', 'k3', { maxSpendUsdc: '20', maxFdvUsdc: '10000' }),
        ],
      }),
    )
    state = feed(
      state,
      { type: 'launch', launch: launchRecord('rocket') },
      { type: 'tick', tick: priceTick('rocket', 100, { reason: 'launch', logIndex: 3, totalFeeFraction: 0.5 }) },
      { type: 'tick', tick: priceTick('rocket', 101, { totalFeeFraction: 0.2 }) },
      { type: 'tick', tick: priceTick('rocket', 102, { totalFeeFraction: 0.01 }) },
      { type: 'decision', decision: { slug: 'rocket', blockNumber: '102', at: 5, verdicts: { k1: 'submitted', k2: 'deferred', k3: 'limit_below_cap' } } },
      { type: 'order', order: orderBrief('rocket', 'k1', { status: 'executing', maxFdvUsdc: null, updatedAt: 10 }) },
      { type: 'order_event', event: orderEvent('rocket', 'k1', 'executing', { blockNumber: '102', at: 1_002_100 }) },
    )
    let panel = watchView(state).launched[0]!
    expect(panel).toMatchObject({ slug: 'rocket', block: '102', spotFdv: '$30k', feeNow: '20%', feeNext: '1%', effectiveCap: '$30.3k', swapsAllowed: true })
    expect(panel.heading).toBe('rocket · RKT · base · clanker · token 0x8399…8630 · pool 0x6121…a4b1')
    expect(panel.sparkline).toBe('█▃▁')
    expect(panel.orders).toEqual([
      { label: 'waiting for the price', count: 1, spend: '$20' },
      { label: 'eligible', count: 1, spend: '$50' },
      { label: 'executing', count: 1, spend: '$100' },
      { label: 'filled', count: 0, spend: '$0' },
      { label: 'expired', count: 0, spend: '$0' },
      { label: 'failed', count: 0, spend: '$0' },
    ])
    expect(panel.actions).toEqual(['block 102 sent 1 buy'])
    expect(panel.latency).toBe('no fills yet')

    const tx = `0x${'12'.repeat(32)}` as const
    state = feed(
      state,
      { type: 'order', order: orderBrief('rocket', 'k1', { status: 'filled', maxFdvUsdc: null, spentUsdc: '99.5', txHash: tx, updatedAt: 11 }) },
      { type: 'order_event', event: orderEvent('rocket', 'k1', 'filled', { blockNumber: '103', txHash: tx, at: 1_004_500 }) },
      { type: 'order_event', event: orderEvent('rocket', 'k2', 'failed', { blockNumber: '103', txHash: tx, errorName: 'TooLittleReceived', at: 1_004_500 }) },
    )
    panel = watchView(state).launched[0]!
    expect(panel.orders[3]).toEqual({ label: 'filled', count: 1, spend: '$99.5' })
    expect(panel.actions).toEqual([
      'block 103 reverted 1 buy tx 0x1212…1212 (TooLittleReceived)',
      'block 103 mined 1 buy tx 0x1212…1212',
      'block 102 sent 1 buy',
    ])
    expect(panel.latency).toBe('median 3 blocks / 4.5 s · max 3 blocks / 4.5 s (1 fills)')
    expect(panel.swaps).toEqual(['block 100 launch FDV $30k · cap $60k'])
  })

  it('applies an event the snapshot already reflected without change (the feed may send both)', () => {
    const event = orderEvent('rocket', 'k1', 'filled', { blockNumber: '103', txHash: `0x${'12'.repeat(32)}` })
    const tick = priceTick('rocket', 101)
    let state = feed(connected(), snapshot({ projects: [projectRecord('rocket')], launches: [launchRecord('rocket')], ticks: [tick], actions: [event] }))
    const before = watchView(state)
    state = feed(state, { type: 'tick', tick }, { type: 'order_event', event })
    expect(watchView(state)).toEqual(before)
    expect(before.launched[0]!.actions).toEqual(['block 103 mined 1 buy tx 0x1212…1212'])
  })

  it('a new snapshot (the daemon restarted) replaces everything known before', () => {
    let state = feed(connected(), snapshot({ projects: [projectRecord('rocket')], launches: [launchRecord('rocket')] }))
    state = feed(state, snapshot({ projects: [projectRecord('other')] }))
    const view = watchView(state)
    expect(view.launched).toEqual([])
    expect(view.waiting.map((w) => w.slug)).toEqual(['other'])
  })

  it('a reorg that removes the launch puts the project back among those waiting', () => {
    let state = feed(connected(), snapshot({ projects: [projectRecord('rocket')], launches: [launchRecord('rocket')], ticks: [priceTick('rocket', 101)] }))
    expect(watchView(state).launched).toHaveLength(1)
    state = feed(state, { type: 'launch_reverted', slug: 'rocket' })
    expect(watchView(state).launched).toEqual([])
    expect(watchView(state).waiting.map((w) => w.slug)).toEqual(['rocket'])
  })

  it('a daemon that goes away is shown with the reason and the retry; reconnecting shows live again', () => {
    let state = feed(connected(), snapshot())
    state = reduceWatch(state, { type: 'signals', signals: [{ type: 'disconnected', message: 'cannot reach the daemon (ECONNREFUSED)', retryInMs: 2000 }] })
    expect(watchView(state).connection).toEqual({ text: 'daemon unreachable: cannot reach the daemon (ECONNREFUSED); retrying in 2 s', tone: 'bad' })
    expect(watchView(state).empty).toBeNull()
    state = reduceWatch(state, { type: 'signals', signals: [{ type: 'connected' }] })
    expect(watchView(state).connection.tone).toBe('ok')
  })

  it('candidates held back are listed (confirmed ones are not); a hostile reason or symbol cannot reach the terminal raw', () => {
    const base = {
      chain: 'base' as const,
      launchpad: 'clanker' as const,
      deployer: '0x00000000000000000000000000000000000000d1' as const,
      claimedCreators: [],
      name: null,
      symbol: null,
      txHash: `0x${'ef'.repeat(32)}` as const,
      blockNumber: '100',
      blockHash: `0x${'ab'.repeat(32)}` as const,
      logIndex: 0,
      launchedAt: 1,
      attempts: 0,
      seenAt: 1,
    }
    const state = feed(
      connected(),
      snapshot({
        projects: [projectRecord('rocket')],
        launches: [launchRecord('rocket', { symbol: 'X\u001b[2J' })],
        candidates: [
          {
            ...base,
            slug: 'rocket',
            token: '0x00000000000000000000000000000000000000f1',
            status: 'rejected',
            reason: 'not the deployer\u001b[31m',
            updatedAt: 2,
          },
          { ...base, slug: 'rocket', token: '0x00000000000000000000000000000000000000f2', status: 'confirmed', reason: 'confirmed', updatedAt: 3 },
        ],
      }),
    )
    const view = watchView(state)
    expect(view.candidates).toEqual([{ slug: 'rocket', status: 'rejected', token: '0x0000…00f1', reason: 'not the deployer\\x1b[31m' }])
    expect(view.launched[0]!.heading).toContain('X\\x1b[2J')
    expect(watchText(view, { all: true }).join('\n')).not.toContain('\u001b')
  })

  it('keys: ↑/↓ and j/k choose among launches within bounds; q, Esc and Ctrl-C quit', () => {
    let state = feed(
      connected(),
      snapshot({ launches: [launchRecord('a', { launchedAt: 3 }), launchRecord('b', { launchedAt: 2 }), launchRecord('c', { launchedAt: 1 })] }),
    )
    expect(watchView(state).launched.map((p) => p.slug)).toEqual(['a', 'b', 'c'])
    for (const k of [key('', { down: true }), key('j'), key('j')]) state = reduceWatch(state, { type: 'key', key: k })
    expect(state.selected).toBe(2)
    state = reduceWatch(state, { type: 'key', key: key('k') })
    state = reduceWatch(state, { type: 'key', key: key('', { up: true }) })
    state = reduceWatch(state, { type: 'key', key: key('', { up: true }) })
    expect(state.selected).toBe(0)
    expect(reduceWatch(state, { type: 'key', key: key('x') })).toBe(state)
    for (const k of [key('q'), key('', { escape: true }), key('c', { ctrl: true })]) expect(reduceWatch(state, { type: 'key', key: k }).quit).toBe(true)
  })

  it('1,000 orders and 240 ticks reduce and render in one pass (a launch batch is one state copy)', () => {
    const orders = Array.from({ length: 1000 }, (_, i) => orderBrief('rocket', `k${i}`, { maxSpendUsdc: String(10 + (i % 90)) }))
    let state = feed(connected(), snapshot({ projects: [projectRecord('rocket')], launches: [launchRecord('rocket')], orders }))
    const fills = orders.flatMap((o, i) => [
      { type: 'order' as const, order: { ...o, status: 'filled' as const, spentUsdc: o.maxSpendUsdc, updatedAt: 2 } },
      {
        type: 'order_event' as const,
        event: orderEvent('rocket', o.keyId, 'filled', {
          blockNumber: String(101 + (i % 2)),
          txHash: `0x${(i % 2 ? 'aa' : 'bb').repeat(32)}`,
          at: 1_001_000 + (i % 2) * 1000,
        }),
      },
    ])
    const ticks = Array.from({ length: 300 }, (_, i) => ({
      type: 'tick' as const,
      tick: priceTick('rocket', 100 + i, { totalFeeFraction: Math.max(0.01, 0.8 - i / 100) }),
    }))
    state = feed(state, ...fills, ...ticks)
    const panel = watchView(state).launched[0]!
    expect(panel.orders[3]!.count).toBe(1000)
    expect(panel.latency).toBe('median 1.5 blocks / 1.5 s · max 2 blocks / 2.0 s (1000 fills)')
    expect(state.ticks.get('rocket')).toHaveLength(240)
    expect(panel.sparkline).toHaveLength(48)
    expect(panel.actions).toEqual(['block 102 mined 500 buys tx 0xaaaa…aaaa', 'block 101 mined 500 buys tx 0xbbbb…bbbb'])
  })
})
