import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliRun, runCliInProcess } from '../daemon/run-cli-in-process.ts'

/**
 * The end-to-end files run `prebuy` commands in the test's process (run-cli-in-process.ts) instead of spawning
 * bin/run.js: here both answer the same for the three ways a command ends (a --json error, a human error, a parse
 * error with its usage help), and runs that overlap keep their output and exit codes apart. No daemon is needed:
 * every command here stops at "no daemon is running" or before.
 */
const root = join(import.meta.dirname, '..', '..')
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prebuy-cli-in-process-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function spawned(args: string[]): Promise<CliRun> {
  const child = spawn('node', [join(root, 'bin', 'run.js'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, stdout, stderr }
}

describe('a prebuy command run in the test process answers as the binary does', () => {
  it.each([
    ['a --json error (no daemon): the error object on stdout, exit 1', ['registrations', 'list', '--json']],
    ['a human error (no daemon): one line on stderr, exit 1', ['keys', 'list']],
    ['a parse error (a missing argument): the message and the usage on stderr, exit 2', ['registrations', 'reject']],
  ])('%s', async (_, args) => {
    const argv = [...args, '--data-dir', dir]
    const [inProcess, binary] = await Promise.all([runCliInProcess(argv), spawned(argv)])
    expect(binary.code).not.toBe(0)
    expect(inProcess).toEqual(binary)
  })

  it("keeps overlapping runs' output and exit codes apart, and leaves the test process's exit code alone", async () => {
    const before = process.exitCode
    const [json, parseError, human] = await Promise.all([
      runCliInProcess(['registrations', 'list', '--json', '--data-dir', dir]),
      runCliInProcess(['registrations', 'reject', '--data-dir', dir]),
      runCliInProcess(['keys', 'list', '--data-dir', join(dir, 'elsewhere')]),
    ])
    expect(json).toMatchObject({ code: 1, stderr: '' })
    expect(JSON.parse(json.stdout).error.message).toBe(`no daemon is running for data dir ${dir} (start one with: prebuy daemon start --data-dir ${dir})`)
    expect(parseError).toMatchObject({ code: 2, stdout: '' })
    expect(parseError.stderr).toContain('Missing 1 required arg')
    expect(parseError.stderr).not.toContain('no daemon')
    expect(human).toMatchObject({ code: 1, stdout: '' })
    // oclif wraps and marks the human error for the terminal: look for the words.
    expect(human.stderr).toContain('no daemon is running for data dir')
    expect(human.stderr).toContain('/elsewhere')
    expect(human.stderr).not.toContain('Missing')
    expect(process.exitCode).toBe(before)
  })
})
