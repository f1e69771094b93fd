import type { ReplayedOrder } from '../../domain/execution/replay-tick.ts'
import type { OrderEvent } from '../../journal/journal-records.ts'
import { terminalSafeLine } from '../../common/terminal-safe.ts'
import { percent, shortHex, usdAtoms } from '../format-numbers.ts'
import { ROWS_SHOWN, type ReplayState } from './replay-state.ts'

export interface ReplayRow {
  rank: string
  keyId: string
  verdict: string
  spend: string
  outcome: string
  tx: string
  /** What today's code decides instead (empty: the same). */
  flag: string
}

/** The replay screen's content, computed from the state alone. */
export interface ReplayView {
  title: string
  position: string
  status: string
  block: string
  pool: string
  fee: string
  cap: string
  rows: ReplayRow[]
  rowsInfo: string
  differences: string[]
  summary: string
  help: string
}

/** What finally happened to an order bought at a tick: its first fill or failure recorded after the tick. */
function outcomeOf(events: readonly OrderEvent[], keyId: string, after: number): { outcome: string; tx: string } {
  const event = events.find((e) => e.keyId === keyId && e.at >= after && (e.to === 'filled' || e.to === 'failed'))
  if (!event) return { outcome: '', tx: '' }
  const detail = event.to === 'failed' ? ` (${terminalSafeLine(event.errorName ?? event.reason ?? 'reverted')})` : ''
  return { outcome: `${event.to}${event.blockNumber ? ` in block ${event.blockNumber}` : ''}${detail}`, tx: event.txHash ? shortHex(event.txHash) : '' }
}

const row = (order: ReplayedOrder, events: readonly OrderEvent[], at: number): ReplayRow => {
  const recorded = order.recorded
  const bought = recorded?.verdict === 'submitted' || recorded?.verdict === 'in_flight'
  const { outcome, tx } = bought ? outcomeOf(events, order.keyId, at) : { outcome: '', tx: '' }
  return {
    rank: recorded?.rank === undefined ? '' : String(recorded.rank),
    keyId: order.keyId,
    verdict: recorded?.verdict ?? '-',
    spend: recorded?.spendAtoms === undefined ? '' : usdAtoms(recorded.spendAtoms),
    outcome,
    tx,
    flag: order.difference ? `≠ ${order.difference}` : '',
  }
}

export function replayView(state: ReplayState): ReplayView {
  const { journal, replays } = state
  const slug = journal.launch.slug
  const differing = replays.filter((r) => r.differences.length > 0).length
  const checkable = replays.filter((r) => r.checkable).length
  const summary = `${replays.length} ticks · ${checkable} checkable · ${differing} differ from today's code`
  const help = '←/→ tick · space play · Home/End · n next difference · ↑/↓ orders · q quit'
  const title = `prebuy · executions replay ${slug} · ${terminalSafeLine(journal.launch.symbol)} · ${journal.launch.chain} · ${journal.launch.launchpad}`
  const replay = replays[state.index]
  if (!replay) {
    return { title, position: 'no ticks recorded', status: '', block: '', pool: '', fee: '', cap: '', rows: [], rowsInfo: '', differences: [], summary, help }
  }
  const tick = replay.decision.tick
  const today = replay.todayTick
  const capToday = today && replay.pricingDifferences.length > 0 ? ` (today ${usdAtoms(today.effectiveCapAtoms)})` : ''
  const rows = replay.orders.slice(state.scroll, state.scroll + ROWS_SHOWN).map((o) => row(o, journal.events, replay.decision.at))
  return {
    title,
    position: `tick ${state.index + 1}/${replays.length}${state.playing ? ' · playing' : ''}`,
    status: !replay.checkable
      ? 'not checkable: recorded before the journal kept the planner’s inputs'
      : replay.differences.length === 0
        ? 'today’s code agrees'
        : `today’s code differs (${replay.differences.length})`,
    block: `block ${tick.blockNumber} · ${tick.reason}${tick.logIndex >= 0 ? ` (log ${tick.logIndex})` : ''} · ${new Date(replay.decision.at).toISOString()}`,
    pool: `sqrtPriceX96 ${tick.sqrtPriceX96} · liquidity ${tick.liquidity} · spot FDV ${usdAtoms(tick.fdvUsdAtoms)}`,
    fee: `next block: LP fee ${percent(tick.lpFeePips / 1e6)} · all fees ${percent(tick.totalFeeFraction)}${tick.swapsAllowed ? '' : ' · swaps not allowed'}`,
    cap: `effective cap ${usdAtoms(tick.effectiveCapAtoms)}${capToday} · policy ${replay.decision.policy}`,
    rows,
    rowsInfo: `orders ${replay.orders.length === 0 ? 0 : state.scroll + 1}–${state.scroll + rows.length} of ${replay.orders.length}`,
    differences: replay.differences.slice(0, 5),
    summary,
    help,
  }
}

/** The replay of one tick as plain lines (non-TTY form). */
export function replayText(view: ReplayView): string[] {
  const lines = [view.title, `${view.position} · ${view.status}`, view.block, view.pool, view.fee, view.cap, view.rowsInfo]
  for (const r of view.rows)
    lines.push(`  ${r.rank.padStart(4)}  ${r.keyId}  ${r.verdict.padEnd(17)} ${r.spend.padStart(8)}  ${r.outcome} ${r.tx} ${r.flag}`.trimEnd())
  for (const d of view.differences) lines.push(`  ≠ ${d}`)
  lines.push(view.summary)
  return lines
}
