import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Where each fault suite leaves its figures; `npm run test:faults` merges them into fault-report.json. */
export const FIGURES_DIR = join(import.meta.dirname, '..', '..', 'fault-report')

/** Writes one suite's figures (numbers, lists, short strings) for the JSON report. */
export function recordFigures(suite: string, figures: Record<string, unknown>): void {
  mkdirSync(FIGURES_DIR, { recursive: true })
  writeFileSync(join(FIGURES_DIR, `${suite}.json`), `${JSON.stringify({ suite, at: new Date().toISOString(), figures }, null, 2)}\n`)
}

/** Every suite's figures in one object, by suite name. */
export function mergeFigures(): Record<string, unknown> {
  const merged: Record<string, unknown> = {}
  for (const name of readdirSync(FIGURES_DIR).filter((n) => n.endsWith('.json'))) {
    const entry = JSON.parse(readFileSync(join(FIGURES_DIR, name), 'utf8')) as { suite: string }
    merged[entry.suite] = entry
  }
  return merged
}
