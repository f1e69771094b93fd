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
import { splitLaunchBenchmark } from './split-launch-bench.ts'
import type { BenchModule } from './bench-module.ts'

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

const context = { durationSeconds: Number(values.duration), connections: Number(values.connections) }
const report: Record<string, unknown> = {
  startedAt: new Date().toISOString(),
  machine: { node: process.version, cpus: cpus().length, platform: process.platform },
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
