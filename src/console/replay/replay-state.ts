import type { TickReplay } from '../../domain/execution/replay-tick.ts'
import type { ExecutionJournal } from '../../services/execution-journal-service.ts'
import { isInterrupt, type KeyPress } from '../key-press.ts'

/** Order rows shown at once. */
export const ROWS_SHOWN = 15

export interface ReplayState {
  journal: ExecutionJournal
  replays: readonly TickReplay[]
  /** The tick shown (index into replays). */
  index: number
  playing: boolean
  /** First order row shown. */
  scroll: number
  quit: boolean
}

export type ReplayAction = { type: 'key'; key: KeyPress } | { type: 'play_step' }

export function initialReplayState(journal: ExecutionJournal, replays: readonly TickReplay[]): ReplayState {
  return { journal, replays, index: 0, playing: false, scroll: 0, quit: false }
}

const clampScroll = (state: ReplayState, scroll: number): number => {
  const rows = state.replays[state.index]?.orders.length ?? 0
  return Math.max(0, Math.min(scroll, rows - ROWS_SHOWN))
}

const goTo = (state: ReplayState, index: number): ReplayState => {
  const next = Math.max(0, Math.min(index, state.replays.length - 1))
  return next === state.index ? state : { ...state, index: next, scroll: 0 }
}

export function reduceReplay(state: ReplayState, action: ReplayAction): ReplayState {
  if (action.type === 'play_step') {
    if (!state.playing) return state
    if (state.index >= state.replays.length - 1) return { ...state, playing: false }
    return goTo(state, state.index + 1)
  }
  const key = action.key
  if (isInterrupt(key) || key.input === 'q' || key.escape) return { ...state, quit: true }
  if (key.right || key.input === 'l') return { ...goTo(state, state.index + 1), playing: false }
  if (key.left || key.input === 'h') return { ...goTo(state, state.index - 1), playing: false }
  if (key.home || key.input === 'g') return { ...goTo(state, 0), playing: false }
  if (key.end || key.input === 'G') return { ...goTo(state, state.replays.length - 1), playing: false }
  if (key.input === ' ') {
    // Space at the last tick plays from the start.
    const restart = !state.playing && state.index >= state.replays.length - 1
    return { ...(restart ? goTo(state, 0) : state), playing: !state.playing }
  }
  if (key.input === 'n') {
    const next = state.replays.findIndex((r, i) => i > state.index && r.differences.length > 0)
    return next < 0 ? state : { ...goTo(state, next), playing: false }
  }
  if (key.down || key.input === 'j') return { ...state, scroll: clampScroll(state, state.scroll + 1) }
  if (key.up || key.input === 'k') return { ...state, scroll: clampScroll(state, state.scroll - 1) }
  return state
}
