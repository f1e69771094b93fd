import type { LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'

export interface TickQueue {
  /** Queues a tick of a launched project; while one of its ticks runs, only the newest waiting one is kept. */
  push(tick: PriceTick, launch: LaunchRecord): void
  /** Ticks waiting or running. */
  size(): number
  /** The ticks running now (each settles after its project's queue drained). */
  running(): Promise<void>[]
  /** Drops the waiting ticks and starts no more; the running ones finish. */
  stop(): void
}

export interface TickQueueDeps {
  handle(tick: PriceTick, launch: LaunchRecord): Promise<void>
  /** A tick that threw: reported, and the project's next tick runs anyway. */
  onError(error: unknown, slug: string): void
}

/**
 * The executor's tick queue, per project: ticks of one project run one after the other and are coalesced (a pool
 * priced by every swap and every block must not queue work it will outdate: only the newest waiting tick matters);
 * ticks of different projects run concurrently.
 */
export function createTickQueue(deps: TickQueueDeps): TickQueue {
  const pending = new Map<string, { tick: PriceTick; launch: LaunchRecord }>()
  const running = new Map<string, Promise<void>>()
  let stopped = false

  const drain = (slug: string): Promise<void> => {
    const next = pending.get(slug)
    if (!next || stopped) {
      running.delete(slug)
      return Promise.resolve()
    }
    pending.delete(slug)
    const run = deps
      .handle(next.tick, next.launch)
      .catch((error: unknown) => deps.onError(error, slug))
      .then(() => drain(slug))
    running.set(slug, run)
    return run
  }

  return {
    push(tick, launch) {
      if (stopped) return
      pending.set(launch.slug, { tick, launch })
      if (!running.has(launch.slug)) void drain(launch.slug)
    },
    size: () => running.size + pending.size,
    running: () => [...running.values()],
    stop() {
      stopped = true
      pending.clear()
    },
  }
}
