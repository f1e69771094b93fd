/**
 * `npm run bench [-- --only api --duration 5 --connections 10 --out bench-report.json]`
 * Runs every registered benchmark module and writes one JSON report.
 */
import { writeFile } from 'node:fs/promises'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { apiBenchmark } from './api-bench.ts'
import { batchBenchmark } from './batch-bench.ts'
import { executionBenchmark } from './execution-bench.ts'
import { heldTicksBenchmark } from './held-ticks-bench.ts'
import { launchLatencyBenchmark } from './launch-latency-bench.ts'
import { loadMemoryBenchmark } from './load-memory-bench.ts'
import { planningBenchmark } from './planning-bench.ts'
import { rpcPromotionBenchmark } from './rpc-promotion/rpc-promotion-bench.ts'
import { splitLaunchBenchmark } from './split-launch-bench.ts'
import type { BenchModule } from './bench-module.ts'
import { boundHeapGrowth, YOUNG_GENERATION_FLAG } from '../../daemon/process/bound-heap-growth.ts'

/** Register further benchmarks (e.g. order execution) here. */
const MODULES: BenchModule[] = [
  apiBenchmark,
  executionBenchmark,
  batchBenchmark,
  launchLatencyBenchmark,
  loadMemoryBenchmark,
  splitLaunchBenchmark,
  planningBenchmark,
  heldTicksBenchmark,
  rpcPromotionBenchmark,
]

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    out: { type: 'string', default: 'bench-report.json' },
  },
})

const selected = values.only ? MODULES.filter((module) => values.only?.split(',').includes(module.name)) : MODULES.filter((module) => !module.onlyWhenAsked)
if (selected.length === 0) {
  process.stderr.write(`no benchmark named ${values.only}; known: ${MODULES.map((m) => m.name).join(', ')}\n`)
  process.exit(1)
}

// The in-process daemons (split, held ticks, execution, ...) run with the production daemon's V8 settings: the young
// generation bounded (YOUNG_GENERATION_FLAG, on `npm run bench`'s command line as on `npm start`'s) and the heap growth
// the daemon sets at start. Without the first, a launch's allocations were scavenged less often than in production: the
// split bench's first send 55-61 ms against 68-76 ms with it (2026-11-28, docs/execution.md §8).
const youngGenerationAsProduction = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].includes(YOUNG_GENERATION_FLAG)
if (!youngGenerationAsProduction)
  process.stderr.write(`warning: node runs without ${YOUNG_GENERATION_FLAG}: the in-process daemons do not run as in production (use npm run bench)\n`)
const heapGrowthAsProduction = boundHeapGrowth()

const context = { durationSeconds: Number(values.duration), connections: Number(values.connections) }
const report: Record<string, unknown> = {
  startedAt: new Date().toISOString(),
  machine: { node: process.version, cpus: cpus().length, platform: process.platform },
  v8: { youngGenerationAsProduction, heapGrowthAsProduction },
  results: {},
}
for (const module of selected) {
  process.stderr.write(`running ${module.name} benchmark...\n`)
  ;(report.results as Record<string, unknown>)[module.name] = await module.run(context)
}
report.finishedAt = new Date().toISOString()
await writeFile(values.out, `${JSON.stringify(report, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
process.stderr.write(`report written to ${values.out}\n`)
