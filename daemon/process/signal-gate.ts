/** What a stop signal means given the ones before it. */
export type SignalMeaning = 'stop' | 'repeat' | 'force'

/**
 * How long after the first stop signal a repeated one is the same request, ms. A terminal's Ctrl-C reaches both
 * `npm start` and the daemon, and systemd may send SIGTERM to the whole group: the daemon then gets two signals within
 * milliseconds, which must not force an exit; an operator pressing Ctrl-C again a second later means it.
 */
export const REPEATED_SIGNAL_WINDOW_MS = 1_000

/**
 * The first signal asks for a graceful stop; another within `windowMs` of it is the same request ('repeat'); a later
 * one forces the exit. `now` is injected so tests need no timing.
 */
export function createSignalGate(options: { windowMs?: number; now?: () => number } = {}): () => SignalMeaning {
  const windowMs = options.windowMs ?? REPEATED_SIGNAL_WINDOW_MS
  const now = options.now ?? Date.now
  let first: number | undefined
  return () => {
    const at = now()
    if (first === undefined) {
      first = at
      return 'stop'
    }
    return at - first < windowMs ? 'repeat' : 'force'
  }
}
