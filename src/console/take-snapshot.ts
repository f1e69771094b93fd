import type { StreamSignal } from '../admin-client/event-stream.ts'
import { StreamUnavailableError } from '../admin-client/stream-unavailable-error.ts'

/**
 * The non-interactive form of a stream screen (`--json`, stdout not a TTY): follows the stream until its first
 * snapshot, reduces it, and stops. A daemon that cannot be reached fails at once with its reason.
 */
export async function takeSnapshot<S>(
  initial: S,
  reduce: (state: S, signals: readonly StreamSignal[]) => S,
  follow: (onSignal: (signal: StreamSignal) => void) => () => void,
): Promise<S> {
  return new Promise<S>((resolve, reject) => {
    const signals: StreamSignal[] = []
    let stop: (() => void) | undefined
    let done = false
    const finish = (outcome: () => void) => {
      if (done) return
      done = true
      queueMicrotask(() => stop?.())
      outcome()
    }
    stop = follow((signal) => {
      if (done) return
      if (signal.type === 'disconnected') return finish(() => reject(new StreamUnavailableError(signal.message)))
      signals.push(signal)
      if (signal.type === 'event' && signal.event.type === 'snapshot') finish(() => resolve(reduce(initial, signals)))
    })
    if (done) stop()
  })
}
