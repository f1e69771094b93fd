import { setFlagsFromString } from 'node:v8'

/**
 * How far V8 lets its heap grow past what the last full collection kept, in percent (V8's --heap-growing-percent: the
 * next old-generation limit is live × (1 + percent / 100)).
 *
 * Left to itself V8 picks a factor up to 4 for a process allowed a large heap (heap/memory-controller.cc,
 * MaxGrowingFactor), and the daemon's committed heap followed: ~150 MB live held ~540 MB committed, about 1 GB before
 * the live size was cut (the load suite's daemon, 100,000 orders; docs/reliability.md "Memory"). 30% keeps the
 * committed heap near 1.3 × live (plus the young generation) at the price of more frequent full collections (mostly concurrent, off the event loop:
 * measured by the same run's API latency).
 */
export const HEAP_GROWING_PERCENT = 30

/**
 * The young generation's bound, a V8 flag the daemon's node must be started with (deploy/prebuy.service sets it in
 * NODE_OPTIONS, `npm start` on the command line, the load suite's daemon as the unit does): V8 sizes each isolate's
 * semi-spaces when it creates it, so, unlike the growth above, it cannot be set from inside the running process.
 * Node 20's default lets each semi-space grow to 16 MB, and the busy daemon's reached it: 32 MB of new space, plus the
 * same again in the isolate of tsx's module-loader thread. 4 MB semi-spaces mean more frequent scavenges of a smaller
 * space (each cheaper); measured with the load suite's traffic (docs/reliability.md "Memory"): RSS max 467 -> 406 MB
 * with nothing else changed, API latency p50/p99 no worse.
 */
export const YOUNG_GENERATION_FLAG = '--max-semi-space-size=4'

/**
 * Applies HEAP_GROWING_PERCENT to this process unless the operator set V8's heap growth themselves (NODE_OPTIONS or
 * the node command line). V8 reads this flag whenever it recomputes its limits, so setting it at start takes effect
 * from the first full collection on.
 */
export function boundHeapGrowth(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): boolean {
  const own = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)]
  if (own.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return false
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
  return true
}
