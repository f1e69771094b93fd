import { render } from 'ink-testing-library'
import { describe, expect, it } from 'vitest'
import { key } from '../../../src/console/key-press.ts'
import { replayAll } from '../../../src/console/replay/replay-check.ts'
import { initialReplayState, reduceReplay, type ReplayState } from '../../../src/console/replay/replay-state.ts'
import { ReplayScreen } from '../../../src/console/replay/replay-screen.tsx'
import { replayText, replayView } from '../../../src/console/replay/replay-view.ts'
import type { TickDecision } from '../../../src/journal/journal-records.ts'
import type { ExecutionJournal } from '../../../src/services/execution-journal-service.ts'
import { launchRecord, orderEvent, priceTick } from '../../support/console-fixtures.ts'

const tx = `0x${'77'.repeat(32)}` as const
const decision = (block: number, orders: TickDecision['orders'], at: number): TickDecision => ({
  slug: 'rocket',
  chain: 'base',
  tick: priceTick('rocket', block),
  policy: 'spend-desc-then-limit-desc',
  orders,
  at,
})
/** Three ticks recorded without inputs (not checkable), the last buying 30 orders. */
const journal: ExecutionJournal = {
  launch: launchRecord('rocket', { symbol: 'R\u001b[2J' }),
  decisions: [
    decision(100, [{ keyId: 'k0', slug: 'rocket', verdict: 'swaps_not_allowed' }], 10),
    decision(101, [{ keyId: 'k0', slug: 'rocket', verdict: 'limit_below_cap' }], 20),
    decision(
      102,
      Array.from({ length: 30 }, (_, i) => ({ keyId: `k${i}`, slug: 'rocket', verdict: 'submitted' as const, rank: i, spendAtoms: '5000000' })),
      30,
    ),
  ],
  events: [
    orderEvent('rocket', 'k0', 'filled', { at: 40, blockNumber: '103', txHash: tx }),
    orderEvent('rocket', 'k1', 'failed', { at: 40, errorName: 'TooLittleReceived' }),
  ],
}
const start = (): ReplayState => initialReplayState(journal, replayAll(journal))
const press = (state: ReplayState, ...keys: Parameters<typeof key>[]) => keys.reduce((s, k) => reduceReplay(s, { type: 'key', key: key(...k) }), state)

describe('executions replay: reducer, view and frames', () => {
  it('←/→, h/l, Home/End move between ticks within bounds and stop play', () => {
    let state = start()
    state = press(state, ['', { right: true }], ['l'], ['l'])
    expect(state.index).toBe(2)
    state = press(state, ['', { left: true }], ['', { home: true }], ['h'])
    expect(state.index).toBe(0)
    state = press(state, ['', { end: true }])
    expect(state.index).toBe(2)
    expect(press(state, ['x'])).toBe(state)
    expect(press(state, ['q']).quit).toBe(true)
    expect(press(state, ['c', { ctrl: true }]).quit).toBe(true)
  })

  it('space plays one tick per step to the end, then stops; space at the end plays from the start', () => {
    let state = press(start(), [' '])
    expect(state.playing).toBe(true)
    state = reduceReplay(state, { type: 'play_step' })
    state = reduceReplay(state, { type: 'play_step' })
    expect(state.index).toBe(2)
    state = reduceReplay(state, { type: 'play_step' })
    expect(state.playing).toBe(false)
    expect(reduceReplay(state, { type: 'play_step' })).toBe(state)
    state = press(state, [' '])
    expect(state).toMatchObject({ index: 0, playing: true })
    expect(press(state, ['', { right: true }]).playing).toBe(false)
  })

  it('↑/↓ scroll the orders of a tick; changing tick scrolls back to the top', () => {
    let state = press(start(), ['', { end: true }])
    for (let i = 0; i < 40; i++) state = press(state, ['j'])
    expect(state.scroll).toBe(15)
    expect(replayView(state).rowsInfo).toBe('orders 16–30 of 30')
    state = press(state, ['k'], ['', { up: true }])
    expect(state.scroll).toBe(13)
    expect(press(state, ['', { home: true }]).scroll).toBe(0)
  })

  it('the view: block, pool, fees, cap, rows with outcome and transaction; not checkable without inputs', () => {
    const view = replayView(press(start(), ['', { end: true }]))
    expect(view.title).toBe('prebuy · executions replay rocket · R\\x1b[2J · base · clanker')
    expect(view.position).toBe('tick 3/3')
    expect(view.status).toBe('not checkable: recorded before the journal kept the planner’s inputs')
    expect(view.block).toMatch(/^block 102 · block · /)
    expect(view.pool).toBe('sqrtPriceX96 1 · liquidity 1 · spot FDV $30k')
    expect(view.fee).toBe('next block: LP fee 1% · all fees 1%')
    expect(view.cap).toBe('effective cap $30.3k · policy spend-desc-then-limit-desc')
    expect(view.rows.slice(0, 3)).toEqual([
      { rank: '0', keyId: 'k0', verdict: 'submitted', spend: '$5', outcome: 'filled in block 103', tx: '0x7777…7777', flag: '' },
      { rank: '1', keyId: 'k1', verdict: 'submitted', spend: '$5', outcome: 'failed (TooLittleReceived)', tx: '', flag: '' },
      { rank: '2', keyId: 'k2', verdict: 'submitted', spend: '$5', outcome: '', tx: '', flag: '' },
    ])
    expect(view.summary).toBe("3 ticks · 0 checkable · 0 differ from today's code")
    expect(replayText(view).join('\n')).not.toContain('\u001b')
  })

  it('Ink frame of a tick', () => {
    const { lastFrame, unmount } = render(<ReplayScreen view={replayView(press(start(), ['l']))} />)
    const text = lastFrame() ?? ''
    unmount()
    expect(text).toContain('tick 2/3')
    expect(text).toContain('block 101 · block')
    expect(text).toContain('k0')
    expect(text).toContain('limit_below_cap')
    expect(text).toContain('←/→ tick · space play')
  })

  it('a launch with no recorded tick says so', () => {
    const view = replayView(initialReplayState({ ...journal, decisions: [] }, []))
    expect(view.position).toBe('no ticks recorded')
    expect(view.rows).toEqual([])
  })
})
