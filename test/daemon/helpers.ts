import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { resultSchemaOf } from '../../src/admin-api/command-results.ts'
import { type CliRun, runCliInProcess } from './run-cli-in-process.ts'

export const REPO_ROOT = join(import.meta.dirname, '..', '..')
const BIN = join(REPO_ROOT, 'bin', 'run.js')

/** The daemon's public and admin ports: p and p + 1, below the ephemeral range (test/support/free-port.ts). */
export { freePortPair } from '../support/free-port.ts'

export interface SpawnedDaemon {
  process: ChildProcess
  output(): string
  /** Resolves with the exit code. */
  exited: Promise<number | null>
}

/** Starts a command (the daemon) as a child and collects its output; resolves once `ready` appears in it. */
export async function spawnAndWait(
  command: string,
  args: string[],
  options: {
    env?: NodeJS.ProcessEnv
    ready: RegExp
    timeoutMs?: number
    cwd?: string
    /** A file that gets a copy of everything the child prints, as it prints it (kept when the child is killed). */
    outputFile?: string
  },
): Promise<SpawnedDaemon> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const copy = options.outputFile ? createWriteStream(options.outputFile) : undefined
  if (copy) {
    child.stdout!.pipe(copy, { end: false })
    child.stderr!.pipe(copy, { end: false })
    child.on('close', () => copy.end())
  }
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const deadline = Date.now() + (options.timeoutMs ?? 120_000)
  let done = false
  void exited.then(() => (done = true))
  while (!options.ready.test(output)) {
    if (done) throw new Error(`process exited before it was ready:\n${output}`)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`process not ready in time:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { process: child, output: () => output, exited }
}

/**
 * A daemon process on `dataDir`, resolved once it says it is ready, started as `daemonSpawn` says. Diagnostics for the
 * benches and fault suites, by hand (docs/execution.md §8, "What a full collection's pause is made of"):
 * - PREBUY_CPU_PROF_DIR: the daemon writes a V8 CPU profile there when it stops (NODE_OPTIONS may not carry --cpu-prof);
 * - PREBUY_DAEMON_NODE_ARGS: node options for the daemon, space-separated, before its script (V8 flags such as
 *   --trace-gc-nvp, which NODE_OPTIONS refuses; --import of a preload);
 * - PREBUY_DAEMON_OUTPUT: a file that gets a copy of the daemon's output (its log; V8's traces go to its stdout).
 */
export function startDaemonProcess(dataDir: string, port: number, env: NodeJS.ProcessEnv = {}): Promise<SpawnedDaemon> {
  const { args, options } = daemonSpawn(dataDir, port, env)
  return spawnAndWait('node', args, options)
}

/** The node arguments and spawn options of a daemon on `dataDir`, with the diagnostics `diagnostics` asks for. */
export function daemonSpawn(
  dataDir: string,
  port: number,
  env: NodeJS.ProcessEnv = {},
  diagnostics: NodeJS.ProcessEnv = process.env,
): { args: string[]; options: Parameters<typeof spawnAndWait>[2] } {
  const profileDir = diagnostics.PREBUY_CPU_PROF_DIR
  const outputFile = diagnostics.PREBUY_DAEMON_OUTPUT
  return {
    args: [
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ...daemonNodeArgs(diagnostics.PREBUY_DAEMON_NODE_ARGS),
      BIN,
      'daemon',
      'start',
      '--data-dir',
      dataDir,
      '--port',
      String(port),
    ],
    options: { env: { LOG_LEVEL: 'info', ...env }, ready: /prebuy daemon ready/, ...(outputFile ? { outputFile } : {}) },
  }
}

/** PREBUY_DAEMON_NODE_ARGS as node arguments: split on whitespace, empty pieces dropped. */
export function daemonNodeArgs(value: string | undefined): string[] {
  return (value ?? '').split(/\s+/).filter((arg) => arg !== '')
}

/**
 * Runs `prebuy <args> --json` against a data dir and parses what it printed. The command runs in the test's process
 * (run-cli-in-process.ts: same command, output and exit code as the binary's); `runCliProcess` spawns bin/run.js.
 * PREBUY_TEST_CLI=process spawns the binary for every call instead (to compare, or to rule the in-process runner out).
 */
export function runCli<T = unknown>(
  dataDir: string,
  args: string[],
  options: { human?: boolean } = {},
): Promise<{ code: number | null; json: T; stdout: string; stderr: string }> {
  const argv = cliArgs(dataDir, args, options)
  return checkedCliResult<T>(args, options, process.env.PREBUY_TEST_CLI === 'process' ? spawnCli(argv) : runCliInProcess(argv))
}

/** `runCli` through the real binary: `node bin/run.js <args>` as a child process, as an operator runs it. */
export function runCliProcess<T = unknown>(
  dataDir: string,
  args: string[],
  options: { human?: boolean } = {},
): Promise<{ code: number | null; json: T; stdout: string; stderr: string }> {
  return checkedCliResult<T>(args, options, spawnCli(cliArgs(dataDir, args, options)))
}

function cliArgs(dataDir: string, args: string[], options: { human?: boolean }): string[] {
  return [...args, '--data-dir', dataDir, ...(options.human ? [] : ['--json'])]
}

async function spawnCli(args: string[]): Promise<CliRun> {
  const child = spawn('node', [BIN, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, stdout, stderr }
}

async function checkedCliResult<T>(
  args: string[],
  options: { human?: boolean },
  running: Promise<CliRun>,
): Promise<{ code: number | null; json: T; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await running
  let json: unknown
  try {
    json = JSON.parse(stdout)
  } catch {
    json = undefined
  }
  // Every successful `--json` result is checked against the command's documented schema (command-results.ts).
  if (!options.human && code === 0) {
    const result = resultSchemaOf(args)
    if (!result) throw new Error(`no result schema for prebuy ${args.join(' ')}`)
    const parsed = result.schema.safeParse(json)
    if (!parsed.success)
      throw new Error(`prebuy ${result.id} --json does not match its schema: ${JSON.stringify(parsed.error.issues.slice(0, 3))}\n${stdout.slice(0, 2000)}`)
  }
  return { code, json: json as T, stdout, stderr }
}

/** Process ids whose parent is `pid` (Linux ps). */
export function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((value) => Number.isInteger(value) && value > 0)
  } catch {
    return []
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T
}

// biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON the daemon answered; each test narrows it by its assertions.
export interface HttpResult<T = any> {
  status: number
  headers: Headers
  body: T
}

// biome-ignore lint/suspicious/noExplicitAny: see HttpResult.
export async function api<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; token?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = {}
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  if (options.key) headers.authorization = `Bearer ${options.key}`
  if (options.token) headers.authorization = `Bearer ${options.token}`
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body: body as T }
}
