import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

const REPO = join(import.meta.dirname, '..', '..', '..')

/** The closing summary of `.ci/run` (its `node -e '...'` script), as CI runs it on the two runs' JSON reports. */
function ciSummaryScript(): string {
  const script = /\nnode -e '([\s\S]*?)' "\$reports\/machine\.json" "\$reports\/lts\.json"/.exec(readFileSync(join(REPO, '.ci', 'run'), 'utf8'))
  if (!script) throw new Error('.ci/run has no closing summary script')
  return script[1]!
}

const report = (
  cwd: string,
  results: Array<{ file: string; status: string; message?: string; tests: Array<{ fullName: string; status: string; failure?: string }> }>,
) => ({
  numPassedTests: results.flatMap((r) => r.tests).filter((t) => t.status === 'passed').length,
  numFailedTests: results.flatMap((r) => r.tests).filter((t) => t.status === 'failed').length,
  numFailedTestSuites: results.filter((r) => r.status === 'failed').length,
  testResults: results.map((r) => ({
    name: join(cwd, r.file),
    status: r.status,
    message: r.message ?? '',
    assertionResults: r.tests.map((t) => ({ fullName: t.fullName, status: t.status, failureMessages: t.failure ? [t.failure] : [] })),
  })),
})

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('.ci/run: the closing lines', () => {
  it('name every failed test (and a file that failed without one) with its first message line, then the counts', () => {
    dir = mkdtempSync(join(tmpdir(), 'prebuy-ci-summary-'))
    const machine = report(dir, [
      { file: 'test/a.test.ts', status: 'passed', tests: [{ fullName: 'a works', status: 'passed' }] },
      {
        file: 'test/b.test.ts',
        status: 'failed',
        tests: [
          { fullName: 'b suite keeps the order', status: 'failed', failure: 'AssertionError: expected 1 to be 2\n    at b.test.ts:3:1' },
          { fullName: 'b suite other', status: 'passed' },
        ],
      },
      { file: 'test/c.test.ts', status: 'failed', message: 'Error: Hook timed out in 10000ms\nmore', tests: [] },
    ])
    const lts = report(dir, [{ file: 'test/a.test.ts', status: 'passed', tests: [{ fullName: 'a works', status: 'passed' }] }])
    writeFileSync(join(dir, 'machine.json'), JSON.stringify(machine))
    writeFileSync(join(dir, 'lts.json'), JSON.stringify(lts))
    // An unhandled error in the LTS run: not in its JSON report, counted from its log's summary line.
    writeFileSync(join(dir, 'lts.log'), '\u001b[31m  Errors \u001b[39m 1 error\n')
    const out = execFileSync(process.execPath, ['-e', ciSummaryScript(), join(dir, 'machine.json'), join(dir, 'lts.json')], { cwd: dir, encoding: 'utf8' })
    expect(out.trim().split('\n')).toEqual([
      'FAILED (machine) test/b.test.ts > b suite keeps the order: AssertionError: expected 1 to be 2',
      'FAILED (machine) test/c.test.ts: Error: Hook timed out in 10000ms',
      // 3 passed; 1 failed test + 2 failed files + 1 unhandled error.
      '3 passed, 4 failed',
    ])
  })
})
