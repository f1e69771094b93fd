import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { mergeFigures } from './report.ts'

/** Merges the figures every fault suite left in fault-report/ into fault-report.json (printed too). */
const report = { generatedAt: new Date().toISOString(), suites: mergeFigures() }
const out = join(import.meta.dirname, '..', '..', 'fault-report.json')
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`)
console.log(JSON.stringify(report, null, 2))
console.log(`fault report written to ${out}`)
