import type { Logger } from '../../src/common/logger.ts'
import { createSignalGate } from './signal-gate.ts'

export interface Stoppable {
  stop(): Promise<void>
}

export interface ShutdownOptions {
  logger: Logger
  /** Injected so tests can observe the exit instead of ending the test process. */
  exit?: (code: number) => void
  signals?: readonly NodeJS.Signals[]
  /** Clock of the repeated-signal window (tests). */
  now?: () => number
}

/**
 * First SIGINT/SIGTERM: graceful stop (stop accepting, finish in-flight requests, stop the executor and indexer,
 * close the store, stop the chains), then exit 0. A signal repeated within a second is the same request (a terminal's
 * Ctrl-C and systemd both deliver twice); one later, while the stop still runs, forces exit 1, for an operator whose
 * shutdown is stuck. Returns a function that removes the handlers.
 */
export function handleShutdownSignals(daemon: Stoppable, options: ShutdownOptions): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code))
  const signals = options.signals ?? (['SIGINT', 'SIGTERM'] as const)
  const gate = createSignalGate(options.now ? { now: options.now } : {})
  const onSignal = (signal: NodeJS.Signals) => {
    const meaning = gate()
    if (meaning === 'repeat') {
      options.logger.info({ signal }, 'signal repeated: already shutting down (send it again in a second to force)')
      return
    }
    if (meaning === 'force') {
      options.logger.warn({ signal }, 'second signal: forcing exit')
      exit(1)
      return
    }
    // Nothing may stand between a completed stop and the exit: a log line to an output whose reader has gone away
    // (a closed SSH session, a killed pipe) can throw, and the process then stayed alive with its stop done.
    const say = (write: () => void) => {
      try {
        write()
      } catch {
        // the line is lost with the output; the exit is not
      }
    }
    say(() => options.logger.info({ signal }, 'shutting down'))
    daemon.stop().then(
      () => {
        say(() => options.logger.info('stopped'))
        exit(0)
      },
      (error: unknown) => {
        say(() => options.logger.error({ err: error }, 'shutdown failed'))
        exit(1)
      },
    )
  }
  for (const signal of signals) process.on(signal, onSignal)
  return () => {
    for (const signal of signals) process.off(signal, onSignal)
  }
}
