import { render } from 'ink-testing-library'
import { describe, expect, it } from 'vitest'
import { initialWatchState, reduceWatch, type WatchState } from '../../../src/console/watch/watch-state.ts'
import { WatchScreen } from '../../../src/console/watch/watch-screen.tsx'
import { watchView } from '../../../src/console/watch/watch-view.ts'
import { batchBrief } from '../../../src/admin-api/batch-brief.ts'
import type { BatchRecord } from '../../../src/journal/batch-records.ts'
import { projectRecord } from '../../support/records.ts'
import { events, launchesSnapshot, launchRecord, orderBrief, orderEvent, priceTick } from '../../support/console-fixtures.ts'

const frame = (state: WatchState): string => {
  const { lastFrame, unmount } = render(<WatchScreen view={watchView(state)} />)
  const text = lastFrame() ?? ''
  unmount()
  return text
}
const live = (...list: Parameters<typeof events>) => reduceWatch(initialWatchState(), { type: 'signals', signals: [{ type: 'connected' }, ...events(...list)] })
const snapshot = launchesSnapshot()

describe('launches watch: Ink frames', () => {
  it('empty states: connecting, then no projects', () => {
    expect(frame(initialWatchState())).toContain('connecting to the daemon…')
    const text = frame(live(snapshot))
    expect(text).toContain('prebuy · launches watch · live')
    expect(text).toContain('No projects yet.')
    expect(text).toContain('q quit')
  })

  it('a daemon that went away: the reason and the retry on the header line, the last known figures kept', () => {
    const state = reduceWatch(live({ ...snapshot, projects: [projectRecord('rocket')] }), {
      type: 'signals',
      signals: [{ type: 'disconnected', message: 'cannot reach the daemon (ECONNREFUSED)', retryInMs: 1000 }],
    })
    const text = frame(state)
    // ink-testing-library's terminal is 100 columns wide: the header wraps.
    expect(text.replace(/\n/g, ' ')).toContain('prebuy · launches watch · daemon unreachable: cannot reach the daemon (ECONNREFUSED); retrying in 1 s')
    expect(text).toContain('Waiting to launch')
    expect(text).toContain('rocket · base · clanker · open_market · 0 orders')
  })

  it('a launch with 1,000 orders: the panel with every figure, in a bounded number of lines', () => {
    const orders = Array.from({ length: 1000 }, (_, i) => orderBrief('rocket', `k${i}`, { status: i < 600 ? 'filled' : 'active', spentUsdc: '100' }))
    const tx = `0x${'ab'.repeat(32)}` as const
    const state = live(
      { ...snapshot, projects: [projectRecord('rocket'), projectRecord('later')], launches: [launchRecord('rocket')], orders },
      { type: 'tick', tick: priceTick('rocket', 100, { reason: 'launch', logIndex: 2, totalFeeFraction: 0.6 }) },
      { type: 'tick', tick: priceTick('rocket', 101, { totalFeeFraction: 0.3 }) },
      ...orders
        .slice(0, 600)
        .map((o) => ({ type: 'order_event' as const, event: orderEvent('rocket', o.keyId, 'filled', { blockNumber: '102', txHash: tx }) })),
    )
    const text = frame(state)
    expect(text).toContain('rocket · RKT · base · clanker · token 0x8399…8630 · pool 0x6121…a4b1')
    expect(text).toContain('block 101 · spot FDV $30k · fee now 60% · next block 30% · effective cap $42.9k')
    expect(text).toContain('cap since launch █▁')
    expect(text).toContain('waiting for the price 400 ($40k) · eligible 0 · executing 0 · filled 600 ($60k)')
    expect(text).toContain('latency median 2 blocks / 2.0 s · max 2 blocks / 2.0 s (600 fills)')
    expect(text).toContain('block 102 mined 600 buys tx 0xabab…abab')
    expect(text).toContain('later · base · clanker · open_market · 0 orders')
    expect(text.split('\n').length).toBeLessThan(30)
  })

  it('the batch of a block: clearing price per token and as FDV, buyers, total spent, who was left out and why, each line whole in 100 columns', () => {
    const tx = `0x${'cd'.repeat(32)}` as const
    const record: BatchRecord = {
      batchId: `0x${'01'.repeat(32)}`,
      chain: 'base',
      slug: 'rocket',
      launchBlock: '100',
      sequence: 0,
      tickBlock: '101',
      batchBuyer: `0x${'b0'.repeat(20)}`,
      token: `0x${'70'.repeat(20)}`,
      lowestLimitFdv: null,
      predictedTokensOut: (30n * 10n ** 24n).toString(),
      included: Array.from({ length: 30 }, (_, i) => ({
        keyId: `k${i}`,
        slug: 'rocket',
        userIndex: i,
        wallet: `0x${String(i).padStart(40, '0')}` as const,
        orderId: `0x${'00'.repeat(32)}` as const,
        spendAtoms: '10000000',
        rank: i,
        predicted: { gross: '0', fee: '0', net: '0' },
      })),
      excluded: [{ keyId: 'kTight\u001b[2J', slug: 'rocket', wallet: `0x${'99'.repeat(20)}`, spendAtoms: '5000000', rank: 30, reason: 'limit_below_clearing' }],
      state: 'swept',
      at: 1,
      swept: 30,
      txHash: tx,
      execution: { txHash: tx, blockNumber: '102', totalIn: '300000000', tokensOut: (24n * 10n ** 24n).toString(), skipped: [], allocationHash: tx },
    }
    const text = frame(live({ ...snapshot, projects: [projectRecord('rocket')], launches: [launchRecord('rocket')], batches: [batchBrief(record)] }))
    expect(text).toContain('block 102 batch 0 · 30 buyers · $300 spent · clearing $0.0000125 per token (FDV $12.5k)')
    expect(text).toContain('left out 1: 1 limit below the clearing price')
    expect(text).toContain('kTight\\x1b[2J $5 (rank 30): limit below the clearing price')
    expect(text).not.toContain('\u001b[2J')
  })
})
