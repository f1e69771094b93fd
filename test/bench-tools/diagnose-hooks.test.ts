import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { heapInflow } from '../bench/diagnose/heap-inflow.ts'
import { daemonNodeArgs, daemonSpawn, REPO_ROOT, spawnAndWait } from '../daemon/helpers.ts'
import { until } from '../sync/until.ts'

// The diagnostics a bench's daemon can be run with (test/daemon/helpers.ts; docs/execution.md §8, "What a full
// collection's pause is made of"): node options for the daemon, a copy of its output in a file, the heap-sampling
// preload.
let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prebuy-diagnose-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

// Deadlines that only catch a hang (a busy CI machine starts node in seconds, not tens of them).
const DEADLINE_MS = 60_000

describe('the daemon diagnostics of the benches', () => {
  it('PREBUY_DAEMON_NODE_ARGS splits into node arguments, empty pieces dropped', () => {
    expect(daemonNodeArgs(undefined)).toEqual([])
    expect(daemonNodeArgs('')).toEqual([])
    expect(daemonNodeArgs('  --trace-gc   --import ./x.mjs ')).toEqual(['--trace-gc', '--import', './x.mjs'])
  })

  it('a daemon is spawned with the diagnostics the environment asks for, and without them when none is set', () => {
    const plain = daemonSpawn('/data', 4000, { X: '1' }, {})
    expect(plain.args[0]).toMatch(/bin[\\/]run\.js$/)
    expect(plain.args.slice(1)).toEqual(['daemon', 'start', '--data-dir', '/data', '--port', '4000'])
    expect(plain.options.outputFile).toBeUndefined()
    expect(plain.options.env).toEqual({ LOG_LEVEL: 'info', X: '1' })

    const diagnosed = daemonSpawn(
      '/data',
      4000,
      {},
      {
        PREBUY_CPU_PROF_DIR: '/prof',
        PREBUY_DAEMON_NODE_ARGS: '--trace-gc --import ./pre.mjs',
        PREBUY_DAEMON_OUTPUT: '/tmp/daemon.log',
      },
    )
    // Node's own options come before the script, or node would hand them to the daemon as its arguments.
    expect(diagnosed.args.slice(0, 5)).toEqual(['--cpu-prof', '--cpu-prof-dir=/prof', '--trace-gc', '--import', './pre.mjs'])
    expect(diagnosed.args.slice(5)).toEqual(plain.args)
    expect(diagnosed.options.outputFile).toBe('/tmp/daemon.log')
  })

  it('a spawned process gets its node options, and its output is copied to the file as it prints', async () => {
    const output = join(dir, 'child.log')
    const child = await spawnAndWait(
      'node',
      [...daemonNodeArgs('--trace-gc --expose-gc'), '-e', "console.log('ready'); console.error('to stderr'); gc(); setInterval(() => {}, 1000)"],
      { ready: /ready/, outputFile: output },
    )
    try {
      // Both streams reach the file, and V8's trace shows the flag was given to the child (its gc() too).
      await until(
        'the copy holds stdout, stderr and the trace',
        () => {
          const text = existsSync(output) ? readFileSync(output, 'utf8') : ''
          return text.includes('ready') && text.includes('to stderr') && /Mark-Compact/.test(text)
        },
        DEADLINE_MS,
      )
    } finally {
      child.process.kill('SIGKILL')
      await child.exited
    }
  })

  it('the heap-sampling preload profiles between its start and stop files, and heap-inflow sums the profile', async () => {
    const out = join(dir, 'heap.json')
    const go = join(dir, 'go')
    // A process that keeps 8 MB of arrays alive, allocated in its own named function once told to (after the
    // sampling started: no race with the test's own steps), and says so.
    const script = join(dir, 'grow.mjs')
    await writeFile(
      script,
      [
        "import { existsSync } from 'node:fs'",
        'const kept = []',
        'function keepArrays() { for (let i = 0; i < 2000; i++) kept.push(new Array(512).fill(i)) }',
        "console.log('ready')",
        `const wait = setInterval(() => { if (!existsSync(${JSON.stringify(go)})) return; clearInterval(wait); keepArrays(); console.log('allocated') }, 50)`,
        'setInterval(() => {}, 1000)',
      ].join('\n'),
    )
    const child = await spawnAndWait('node', ['--import', join(REPO_ROOT, 'test/bench/diagnose/sample-heap.mjs'), script], {
      ready: /ready/,
      env: { PREBUY_HEAP_SAMPLE_OUT: out, PREBUY_HEAP_SAMPLE_SECONDS: '600' },
    })
    try {
      await writeFile(`${out}.start`, '')
      await until('the sampling started', () => child.output().includes('heap sampling: started'), DEADLINE_MS)
      expect(existsSync(`${out}.start`)).toBe(false)
      await writeFile(go, '')
      await until('the child allocated', () => child.output().includes('allocated'), DEADLINE_MS)
      await writeFile(`${out}.stop`, '')
      await until('the profile is written', () => child.output().includes(`heap sampling: written to ${out}`), DEADLINE_MS)
      const inflow = heapInflow(JSON.parse(await readFile(out, 'utf8')))
      const [top] = inflow.bySite
      expect(top![0]).toMatch(/^keepArrays /)
      expect(top![1]).toBeGreaterThan(4_000_000)
      expect(inflow.totalBytes).toBeGreaterThanOrEqual(top![1])
    } finally {
      child.process.kill('SIGKILL')
      await child.exited
    }
  })
})
