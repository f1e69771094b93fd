import { Listr, PRESET_TIMER } from 'listr2'

/**
 * A listr2 checklist of the daemon's start-up steps for a terminal. The daemon reports when each step begins; a
 * step is done when the next one begins (or start-up finishes). The `simple` renderer prints one line per step
 * instead of redrawing, so it interleaves cleanly with the daemon's log lines.
 */
export function createStartProgress<Step extends string>(
  titles: Record<Step, string>,
): {
  onStep(step: Step): void
  finish(error?: Error): Promise<void>
} {
  const steps = Object.keys(titles) as Step[]
  const gates = new Map<Step, { promise: Promise<void>; resolve(): void; reject(error: Error): void }>()
  for (const step of steps) {
    let resolve!: () => void
    let reject!: (error: Error) => void
    const promise = new Promise<void>((res, rej) => {
      resolve = res
      reject = rej
    })
    // The listr task may never await a skipped step's gate; do not let its rejection go unhandled.
    promise.catch(() => undefined)
    gates.set(step, { promise, resolve, reject })
  }
  let current = -1
  const list = new Listr(
    steps.map((step) => ({ title: titles[step], task: () => gates.get(step)!.promise })),
    { renderer: 'simple', exitOnError: true, rendererOptions: { timer: PRESET_TIMER } },
  )
  const running = list.run().catch(() => undefined)
  const advanceTo = (index: number) => {
    while (current < index) {
      if (current >= 0) gates.get(steps[current]!)!.resolve()
      current++
    }
  }
  return {
    onStep(step) {
      advanceTo(steps.indexOf(step))
    },
    async finish(error) {
      if (error) {
        if (current >= 0) gates.get(steps[Math.min(current, steps.length - 1)]!)!.reject(error)
        else gates.get(steps[0]!)!.reject(error)
      } else {
        advanceTo(steps.length)
      }
      await running
    },
  }
}
