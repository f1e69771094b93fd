import type { Logger } from '../src/common/logger.ts'

export interface Stoppable {
  stop(): Promise<void>
}

export interface ShutdownOptions {
  logger: Logger
  /** Injected so tests can observe the exit instead of ending the test process. */
  exit?: (code: number) => void
  signals?: readonly NodeJS.Signals[]
}

/**
 * First SIGINT/SIGTERM: graceful stop (stop accepting, finish in-flight requests, stop the executor and indexer,
 * close the store, stop the chains), then exit 0. A second signal while that runs forces exit 1, for an operator
 * whose shutdown is stuck. Returns a function that removes the handlers.
 */
export function handleShutdownSignals(daemon: Stoppable, options: ShutdownOptions): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code))
  const signals = options.signals ?? (['SIGINT', 'SIGTERM'] as const)
  let stopping = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      options.logger.warn({ signal }, 'second signal: forcing exit')
      exit(1)
      return
    }
    stopping = true
    options.logger.info({ signal }, 'shutting down')
    daemon.stop().then(
      () => {
        options.logger.info('stopped')
        exit(0)
      },
      (error: unknown) => {
        options.logger.error({ err: error }, 'shutdown failed')
        exit(1)
      },
    )
  }
  for (const signal of signals) process.on(signal, onSignal)
  return () => {
    for (const signal of signals) process.off(signal, onSignal)
  }
}
