/**
 * A preload for a bench's daemon (PREBUY_DAEMON_NODE_ARGS="--import ./test/bench/diagnose/sample-heap.mjs"): V8's
 * sampling heap profiler, counting what reached the old generation. It starts when the file PREBUY_HEAP_SAMPLE_OUT +
 * '.start' appears (touch it at the phase to look at) and stops after PREBUY_HEAP_SAMPLE_SECONDS (default 40) or
 * when PREBUY_HEAP_SAMPLE_OUT + '.stop' appears, whichever is first; it then writes the profile to
 * PREBUY_HEAP_SAMPLE_OUT. Each step is said on stderr ("heap sampling: ..."). Samples keep objects a full collection
 * freed and leave out those a scavenge freed (includeObjectsCollectedByMajorGC, not ...MinorGC): the bytes that grew
 * the old generation, so what brings the next full collection sooner; plus, a caveat, the young objects a full
 * collection found dead (it sweeps the young generation too), up to a young generation's worth per full collection.
 * Read it with `npx tsx test/bench/diagnose/heap-inflow.ts <profile>`. Written for issue 23 item 4 (docs/execution.md §8, "What
 * a full collection's pause is made of").
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'

const out = process.env.PREBUY_HEAP_SAMPLE_OUT
if (out) {
  const seconds = Number(process.env.PREBUY_HEAP_SAMPLE_SECONDS ?? 40)
  const session = new Session()
  session.connect()
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))))
  const say = (what) => process.stderr.write(`heap sampling: ${what}\n`)
  const take = (path) => {
    if (!existsSync(path)) return false
    rmSync(path)
    return true
  }
  const stop = async () => {
    const { profile } = await post('HeapProfiler.stopSampling')
    writeFileSync(out, JSON.stringify(profile))
    session.disconnect()
    say(`written to ${out}`)
  }
  const waitForStart = setInterval(async () => {
    if (!take(`${out}.start`)) return
    clearInterval(waitForStart)
    await post('HeapProfiler.enable')
    await post('HeapProfiler.startSampling', { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false })
    say(`started, for ${seconds} s or until ${out}.stop appears`)
    const until = Date.now() + seconds * 1000
    const waitForStop = setInterval(() => {
      if (Date.now() < until && !take(`${out}.stop`)) return
      clearInterval(waitForStop)
      void stop()
    }, 200)
    waitForStop.unref()
  }, 200)
  waitForStart.unref()
}
