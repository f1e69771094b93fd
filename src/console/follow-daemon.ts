import type { EventScope } from '../admin-api/console-events.ts'
import { followEventStream, type StreamSignal } from '../admin-client/event-stream.ts'
import { locateDaemon } from '../admin-client/locate-daemon.ts'

/** The stream of the daemon serving `dataDir`, found again at each reconnection; returns the stop. */
export function followDaemon(dataDir: string, scope: EventScope, slug?: string): (onSignal: (signal: StreamSignal) => void) => () => void {
  return (onSignal) => {
    const controller = new AbortController()
    void followEventStream({
      locate: () => locateDaemon(dataDir),
      scope,
      ...(slug === undefined ? {} : { slug }),
      onSignal,
      signal: controller.signal,
    })
    return () => controller.abort()
  }
}
