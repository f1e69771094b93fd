import { AsyncLocalStorage } from 'node:async_hooks'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { format } from 'node:util'
import { type Command, Config } from '@oclif/core'
import { Exit, handle } from '@oclif/core/handle'

/**
 * Runs a `prebuy` command inside the test's own process, as `bin/run.js` would in a child: same command class, same
 * oclif Config (the repository's package.json and manifest), same error handling (oclif's `handle`, which prints the
 * error and picks the exit code). What a child process gives for free is rebuilt per run:
 * - stdout and stderr: everything the command prints (console.*, process.stdout/stderr.write) goes to its own run's
 *   buffers, found through AsyncLocalStorage, so output the test process prints meanwhile (an in-process daemon's logs) stays out;
 * - the exit code: oclif's `Exit.exit` is routed to the run, and `process.exitCode` is read and restored around it,
 *   runs going one at a time (a test's overlapping runs queue) so that no run reads another's.
 * A child costs ~1.5-2.5 s of CPU (node + tsx + the command's module graph, test/cli/start-errors measures it); a run
 * here costs the command itself, its modules being loaded once per test file. The real binary is still spawned by
 * test/cli/real-binary.test.ts for each kind of command, and by `runCliProcess` where a test needs a separate process.
 */
export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

interface RunState {
  stdout: string
  stderr: string
  exited: number | undefined
}

const REPO_ROOT = join(import.meta.dirname, '..', '..')
const require = createRequire(import.meta.url)
/** oclif's process-wide cache, where `main` keeps the Config for `handle` (usage help after a parse error). Not in the package's exports map: by its file. */
const oclifCache = (require(join(dirname(require.resolve('@oclif/core')), 'cache.js')) as { default: { getInstance(): Map<string, unknown> } }).default
const current = new AsyncLocalStorage<RunState>()
let config: Promise<Config> | undefined
let installed = false
let serial: Promise<void> = Promise.resolve()

/** Routes the process's output and exit code to the run in progress (if any); outside a run, everything is as before. */
function install(): void {
  if (installed) return
  installed = true
  const toRun =
    (stream: 'stdout' | 'stderr', original: (...args: unknown[]) => void) =>
    (...args: unknown[]): void => {
      const run = current.getStore()
      if (run) run[stream] += `${format(...args)}\n`
      else original(...args)
    }
  for (const method of ['log', 'info', 'debug'] as const) console[method] = toRun('stdout', console[method].bind(console))
  for (const method of ['error', 'warn'] as const) console[method] = toRun('stderr', console[method].bind(console))
  for (const stream of ['stdout', 'stderr'] as const) {
    const original = process[stream].write.bind(process[stream])
    process[stream].write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const run = current.getStore()
      if (!run) return (original as (...args: unknown[]) => boolean)(chunk, ...rest)
      run[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
      const callback = rest.find((value) => typeof value === 'function') as (() => void) | undefined
      callback?.()
      return true
    }) as typeof process.stdout.write
  }
  // oclif's `handle` ends the process through Exit.exit (there so that tests can stub it): inside a run, record it.
  const exit = Exit.exit.bind(Exit)
  Exit.exit = ((code = 0) => {
    const run = current.getStore()
    if (!run) return exit(code)
    run.exited = code
  }) as typeof Exit.exit
}

/**
 * The command and its file from its words (`['registrations', 'list', 'x']` -> `registrations:list`), longest first,
 * through oclif's own table (aliases: `projects edit` is `projects:update`).
 */
function findCommand(config: Config, args: string[]): { id: string; file: string; argv: string[] } {
  for (let words = Math.min(args.length, 3); words > 0; words--) {
    const found = args.slice(0, words).every((word) => /^[a-z][a-z-]*$/.test(word)) ? config.findCommand(args.slice(0, words).join(':')) : undefined
    if (found?.relativePath) return { id: found.id, file: join(REPO_ROOT, ...found.relativePath), argv: args.slice(words) }
  }
  throw new Error(`no prebuy command for ${args.join(' ')}`)
}

/** `prebuy <args>` in this process: what it printed and the exit code a child would have exited with. */
export async function runCliInProcess(args: string[]): Promise<CliRun> {
  install()
  config ??= Config.load(REPO_ROOT)
  const loaded = await config
  oclifCache.getInstance().set('config', loaded)
  const { id, file, argv } = findCommand(loaded, args)
  // The daemon itself installs signal handlers and may end its process: it always runs as a child (startDaemonProcess).
  if (id === 'daemon:start') throw new Error('prebuy daemon start runs as a process: use startDaemonProcess')
  // oclif's main answers these before any command runs; the binary's help is tested through it (runCliProcess).
  if (argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version'))
    throw new Error('--help and --version are answered by oclif main, not a command: use runCliProcess')
  const CommandClass = (await import(file)).default as new (argv: string[], config: Config) => Command
  const run: RunState = { stdout: '', stderr: '', exited: undefined }
  // oclif's Command.catch sets process.exitCode, which a child's exit would carry: one run at a time reads it and puts
  // the test process's own back (the test worker's exitCode is vitest's).
  const previous = serial
  let release = () => {}
  serial = new Promise<void>((resolve) => (release = resolve))
  await previous
  const outside = process.exitCode
  process.exitCode = undefined
  let exitCode: typeof process.exitCode
  try {
    await current.run(run, async () => {
      try {
        const command = new CommandClass(argv, loaded)
        command.id = id
        // Command.run would load the Config again on every run; _run is what it calls after.
        await (command as unknown as { _run(): Promise<unknown> })._run()
      } catch (error) {
        // What bin/run.js's `execute` does with an error: oclif's handle prints it (with the usage after a parse
        // error, for the words it reads from process.argv) and exits with its code.
        const argvOfTest = process.argv
        process.argv = [process.argv[0]!, join(REPO_ROOT, 'bin', 'run.js'), ...args]
        try {
          await handle(error as Error)
        } finally {
          process.argv = argvOfTest
        }
      }
    })
  } finally {
    exitCode = process.exitCode
    process.exitCode = outside
    release()
  }
  const code = run.exited ?? (exitCode === undefined || exitCode === null ? 0 : Number(exitCode))
  return { code, stdout: run.stdout, stderr: run.stderr }
}
