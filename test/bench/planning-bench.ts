/**
 * The planning part of the execution benchmark on its own (`npm run bench -- --only planning`): pricing and
 * prioritising 100,000 orders per tick through the executor's paths (execution-bench.ts, benchPlanning), without the
 * devnet launches, so the tick figures (issue 23 item 4: every tick on a held book, the tick after a PATCH among them,
 * under 20 ms; `tickAfterPatchTarget`) can be measured in a minute. BENCH_PLANNING_RUNS (default 15) ticks per kind.
 */
import { loadavg } from 'node:os'
import type { BenchModule } from './bench-module.ts'
import { benchPlanning } from './execution-bench.ts'

export const planningBenchmark: BenchModule = {
  name: 'planning',
  // Part of the execution module's report already.
  onlyWhenAsked: true,
  async run() {
    const before = loadavg()
    const planning = benchPlanning(100_000, Number(process.env.BENCH_PLANNING_RUNS ?? 15))
    return { ...planning, loadAverage: { before: before.map((l) => Number(l.toFixed(2))), after: loadavg().map((l) => Number(l.toFixed(2))) } }
  },
}
