import type { Logger } from '../../src/common/logger.ts'
import type { BackgroundWorker } from './background-worker.ts'

/** A worker that runs one round, waits `intervalMs` after it ends, and runs the next, until stopped. */
export type PollingWorker = BackgroundWorker & {
  /** One round now (tests drive the worker this way instead of waiting on its timer). */
  runOnce(): Promise<void>
}

/**
 * Rounds never overlap (the next is scheduled when one ends, whatever it threw), and `stop` waits for the round in
 * flight: it is given `stopping()` to leave early between two pieces of work, never in the middle of one.
 */
export function createPollingWorker(
  options: { name: string; intervalMs: number; log: Logger },
  round: (stopping: () => boolean) => Promise<void>,
): PollingWorker {
  const { name, intervalMs, log } = options
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let stopped = false
  const stopping = () => stopped
  const runOnce = () => round(stopping)

  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => {
      running = runOnce()
        // A round handles its projects' failures itself; one that escapes (the store refusing a read) is logged
        // and the next round still comes.
        .catch((error) => log.error({ err: error }, `${name} round failed; retried on the next round`))
        .finally(() => {
          running = undefined
          schedule()
        })
    }, intervalMs)
  }

  return {
    name,
    runOnce,
    async start() {
      schedule()
    },
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
