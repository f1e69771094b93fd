import type { TickReplay } from '../../domain/execution/replay-tick.ts'
import type { ExecutionJournal } from '../../services/execution-journal-service.ts'
import type { KeyScreen } from '../key-screen.tsx'
import { initialReplayState, reduceReplay, type ReplayState } from './replay-state.ts'
import { ReplayScreen } from './replay-screen.tsx'
import { replayView } from './replay-view.ts'

/** Play mode: one tick per this many ms. */
export const PLAY_STEP_MS = 700

/** `prebuy executions replay`: the replay's reducer and screen, for runKeyScreen. */
export function replayScreen(journal: ExecutionJournal, replays: readonly TickReplay[]): KeyScreen<ReplayState> {
  return {
    initial: initialReplayState(journal, replays),
    reduceKey: (state, key) => reduceReplay(state, { type: 'key', key }),
    timer: { everyMs: PLAY_STEP_MS, reduce: (state) => reduceReplay(state, { type: 'play_step' }) },
    quit: (state) => state.quit,
    render: (state) => <ReplayScreen view={replayView(state)} />,
  }
}
