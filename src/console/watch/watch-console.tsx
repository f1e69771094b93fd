import type { StreamScreen } from '../stream-screen.tsx'
import { initialWatchState, reduceWatch, type WatchState } from './watch-state.ts'
import { WatchScreen } from './watch-screen.tsx'
import { watchView } from './watch-view.ts'

/** `prebuy launches watch`: the dashboard's reducer and screen, for runStreamScreen. */
export function watchScreen(slug: string | null): StreamScreen<WatchState> {
  return {
    initial: initialWatchState(slug),
    reduceSignals: (state, signals) => reduceWatch(state, { type: 'signals', signals }),
    reduceKey: (state, key) => reduceWatch(state, { type: 'key', key }),
    quit: (state) => state.quit,
    render: (state) => <WatchScreen view={watchView(state)} />,
  }
}
