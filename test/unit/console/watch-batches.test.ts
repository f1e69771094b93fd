import { describe, expect, it } from 'vitest'
import type { BatchBrief } from '../../../src/admin-api/console-events.ts'
import { BATCH_EXCLUDED_SHOWN, batchBrief } from '../../../src/admin-api/batch-brief.ts'
import { BATCHES_KEPT, initialWatchState, reduceWatch, type WatchState } from '../../../src/console/watch/watch-state.ts'
import { watchText, watchView } from '../../../src/console/watch/watch-view.ts'
import type { BatchRecord } from '../../../src/journal/batch-records.ts'
import { projectRecord } from '../../support/records.ts'
import { events, launchesSnapshot, launchRecord, orderBrief } from '../../support/console-fixtures.ts'

const USDC = 1_000_000n
const feed = (state: WatchState, ...list: Parameters<typeof events>) => reduceWatch(state, { type: 'signals', signals: events(...list) })
const connected = (): WatchState => reduceWatch(initialWatchState(), { type: 'signals', signals: [{ type: 'connected' }] })
const TX = `0x${'77'.repeat(32)}` as const

/** A journaled batch of `rocket` (supply 1e27 atoms, 18 decimals): `buyers` of $100 each, then `left` left out. */
function batchRecord(sequence: number, patch: Partial<BatchRecord> = {}, buyers = 3, left: BatchRecord['excluded'] = []): BatchRecord {
  return {
    batchId: `0x${sequence.toString(16).padStart(64, '0')}`,
    chain: 'base',
    slug: 'rocket',
    launchBlock: '100',
    sequence,
    tickBlock: String(101 + sequence),
    batchBuyer: `0x${'b0'.repeat(20)}`,
    token: `0x${'70'.repeat(20)}`,
    lowestLimitFdv: null,
    predictedTokensOut: (30n * 10n ** 24n).toString(),
    included: Array.from({ length: buyers }, (_, i) => ({
      keyId: `k${i}`,
      slug: 'rocket',
      userIndex: i,
      wallet: `0x${String(i).padStart(40, '0')}` as const,
      orderId: `0x${'00'.repeat(32)}` as const,
      spendAtoms: (100n * USDC).toString(),
      rank: i,
      predicted: { gross: '0', fee: '0', net: '0' },
    })),
    excluded: left,
    state: 'journaled',
    at: 1,
    swept: 0,
    ...patch,
  }
}

const leftOut = (keyId: string, rank: number, reason: BatchRecord['excluded'][number]['reason'], usd = 10n): BatchRecord['excluded'][number] => ({
  keyId,
  slug: 'rocket',
  wallet: `0x${'99'.repeat(20)}`,
  spendAtoms: (usd * USDC).toString(),
  rank,
  reason,
})

const executed = (record: BatchRecord, tokensOut: bigint, skipped: number[] = []): BatchRecord => ({
  ...record,
  state: 'executed',
  txHash: TX,
  execution: {
    txHash: TX,
    blockNumber: String(BigInt(record.tickBlock) + 1n),
    totalIn: record.included.reduce((sum, e, i) => sum + (skipped.includes(i) ? 0n : BigInt(e.spendAtoms)), 0n).toString(),
    tokensOut: tokensOut.toString(),
    skipped,
    allocationHash: `0x${'11'.repeat(32)}`,
  },
})

const launched = () =>
  feed(connected(), launchesSnapshot({ projects: [projectRecord('rocket')], launches: [launchRecord('rocket')], orders: [orderBrief('rocket', 'k0')] }))

describe('launches watch: the batch of each block (reducer and view model)', () => {
  it('shows the clearing price per token and as FDV, the buyers, the total spent, and who was left out and why', () => {
    const left = [leftOut('kLimited', 3, 'limit_below_clearing'), leftOut('kLate1', 4, 'gas_budget'), leftOut('kLate2', 5, 'gas_budget')]
    const journaled = batchRecord(0, {}, 3, left)
    let state = feed(launched(), { type: 'batch', batch: batchBrief(journaled) })
    // Before it executes: the clearing's prediction, said so.
    expect(watchView(state).launched[0]!.batches).toEqual([
      'batch 0 cleared at block 101 · 3 buyers · $300 spent · predicted clearing $0.00001 per token (FDV $10k)',
      '  left out 3: 1 limit below the clearing price, 2 over the gas budget',
      '    kLimited $10 (rank 3): limit below the clearing price',
      '    kLate1 $10 (rank 4): over the gas budget',
      '    kLate2 $10 (rank 5): over the gas budget',
    ])
    // Executed: the chain's figures (fewer tokens than predicted: a higher price), in its block.
    state = feed(state, { type: 'batch', batch: batchBrief(executed(journaled, 24n * 10n ** 24n)) })
    const panel = watchView(state).launched[0]!
    expect(panel.batches[0]).toBe('block 102 batch 0 · 3 buyers · $300 spent · clearing $0.0000125 per token (FDV $12.5k)')
    expect(panel.batches).toHaveLength(5)
    expect(watchText(watchView(state)).join('\n')).toContain('  block 102 batch 0 · 3 buyers · $300 spent · clearing $0.0000125 per token (FDV $12.5k)')
  })

  it('newest batch first, three shown; a later write replaces the batch, an earlier state never overwrites a later one', () => {
    let state = launched()
    for (let i = 0; i < 5; i++) state = feed(state, { type: 'batch', batch: batchBrief(executed(batchRecord(i), 30n * 10n ** 24n)) })
    expect(watchView(state).launched[0]!.batches.map((l) => l.split(' · ')[0])).toEqual(['block 106 batch 4', 'block 105 batch 3', 'block 104 batch 2'])
    // The snapshot had batch 4 swept; the event held while it was read says journaled: dropped.
    state = feed(state, { type: 'batch', batch: batchBrief(batchRecord(4)) })
    expect(state.batches.get('rocket')!.find((b) => b.sequence === 4)!.state).toBe('executed')
    expect(state.batches.get('rocket')).toHaveLength(5)
    for (let i = 5; i < BATCHES_KEPT + 10; i++) state = feed(state, { type: 'batch', batch: batchBrief(batchRecord(i)) })
    expect(state.batches.get('rocket')).toHaveLength(BATCHES_KEPT)
    expect(state.batches.get('rocket')![0]!.sequence).toBe(10)
  })

  it('counts every exclusion but names only a few; skipped buyers and a released batch say so', () => {
    const many = Array.from({ length: 40 }, (_, i) => leftOut(`k${100 + i}`, 3 + i, 'limit_below_clearing'))
    const brief = batchBrief(executed(batchRecord(0, {}, 3, many), 30n * 10n ** 24n, [1]))
    expect(brief.excluded).toHaveLength(BATCH_EXCLUDED_SHOWN)
    expect(brief.excludedCounts).toEqual({ limit_below_clearing: 40 })
    const lines = watchView(feed(launched(), { type: 'batch', batch: brief })).launched[0]!.batches
    expect(lines[0]).toBe('block 102 batch 0 · 3 buyers · $200 spent · clearing $0.00000667 per token (FDV $6.67k) · 1 skipped by the chain')
    expect(lines.slice(1)).toEqual([
      '  left out 40: 40 limit below the clearing price',
      '    k100 $10 (rank 3): limit below the clearing price',
      '    k101 $10 (rank 4): limit below the clearing price',
      '    k102 $10 (rank 5): limit below the clearing price',
      '    … and 37 more',
    ])
    const released = batchBrief({ ...batchRecord(1), state: 'released', releaseReason: 'the batch transaction never landed' })
    expect(watchView(feed(launched(), { type: 'batch', batch: released })).launched[0]!.batches).toEqual([
      'batch 1 released at block 102 · 3 buyers · $300 spent · predicted clearing $0.00001 per token (FDV $10k) · the batch transaction never landed',
    ])
  })

  it('a snapshot carries the batches; a reorg that removes the launch drops them', () => {
    const brief: BatchBrief = batchBrief(executed(batchRecord(0), 30n * 10n ** 24n))
    let state = feed(connected(), launchesSnapshot({ projects: [projectRecord('rocket')], launches: [launchRecord('rocket')], batches: [brief] }))
    expect(watchView(state).launched[0]!.batches).toHaveLength(1)
    state = feed(state, { type: 'launch_reverted', slug: 'rocket' })
    expect(state.batches.has('rocket')).toBe(false)
  })

  it('escape sequences in a record (a key id, a release reason) reach the terminal escaped, never raw', () => {
    const hostile = batchBrief({
      ...batchRecord(0, {}, 1, [leftOut('k\u001b[2J', 1, 'gas_budget')]),
      state: 'released',
      releaseReason: 'reverted \u001b[31mred',
    })
    const state = feed(feed(launched(), { type: 'launch', launch: launchRecord('rocket', { symbol: 'X\u001b[2J' }) }), { type: 'batch', batch: hostile })
    const view = watchView(state)
    expect(view.launched[0]!.batches.join('\n')).toContain('reverted \\x1b[31mred')
    expect(view.launched[0]!.batches.join('\n')).toContain('k\\x1b[2J')
    expect(watchText(view, { all: true }).join('\n')).not.toContain('\u001b')
  })
})
