import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import type { Logger } from '../../src/common/logger.ts'
import { jsonRpc } from './json-rpc.ts'
import { writeStateFile } from './state-files.ts'

export interface StateDumper {
  /** Dumps now (waits for a dump already running first). */
  dumpNow(): Promise<void>
  /** Stops the timer and waits for a dump in flight. */
  stop(): Promise<void>
}

/**
 * At most this share of wall time goes to dumping: the wait after a dump is at least this many times what it took.
 * anvil's state file keeps every block and is written whole, so a dump costs in proportion to the chain's length; at
 * 200 ms blocks a chain grows by about 8.5 KB of state file a second (five empty blocks of ~1.7 KB), so after an hour a
 * dump every 2 s would be dumping without pause (measured 2026-11-26: 0.25-0.3 s for a fresh devnet's 3 MB on the loaded
 * machine).
 */
export const DUMP_WAIT_FACTOR = 9

// zlib's asynchronous form inflates on libuv's thread pool: gunzipSync held the process's event loop for 35-55 ms per
// dump of a few MB (the latency bench's CPU profile, 2026-11-27), and in the embedded devnet that process is the daemon's:
// a launch log arriving meanwhile waited for it (docs/execution.md §5 "What the misses were").
const inflate = promisify(gunzip)

/** The wait before the next periodic dump: the interval asked for, longer once dumps take more than a tenth of it. */
export const nextDumpDelayMs = (intervalMs: number, lastDumpMs: number): number => Math.max(intervalMs, Math.ceil(lastDumpMs * DUMP_WAIT_FACTOR))

/**
 * Every `intervalMs` (longer once a dump takes more than a tenth of that: nextDumpDelayMs), the chain's state through
 * `anvil_dumpState` (gzipped JSON, the same SerializableState anvil writes for `--dump-state`) into `stateFile`, whole or
 * not at all (see state-files.ts). This bounds what a kill -9 of anvil loses to one wait. A dump that fails (anvil
 * restarting) is skipped: the previous file stays loadable.
 *
 * `intervalMs` null: no periodic dump, only `dumpNow` and the owner's graceful stop. Each dump freezes anvil: it
 * answered no request for 35-90 ms per dump of a fresh devnet and ~110 ms once a chain held 80 launches (a request every
 * 10 ms, 200 ms blocks, 2026-11-27), which Base never does; a caller that needs the chain's timing more than what a
 * kill -9 would lose (the latency benches) turns it off (docs/devnet.md, "State persistence").
 */
export function startStateDumper(options: {
  rpcUrl: () => string
  stateFile: string
  intervalMs: number | null
  logger: Logger
  /** Awaited between anvil's answer and the write (tests hold a dump there). */
  beforeWrite?: () => Promise<void>
  /**
   * The anvil process the state file follows (start-anvil.ts): a dump answered by an earlier one is not written, since
   * a restart since then settled the state file from a newer state (anvil's exit dump).
   */
  generation?: () => number
  /** Runs the write alone among the state file's writers (the restarts' settling). */
  withStateFile?: <T>(fn: () => Promise<T>) => Promise<T>
}): StateDumper {
  let running: Promise<void> | undefined
  let stopped = false
  const dumpOnce = async (): Promise<void> => {
    try {
      const asked = options.generation?.()
      const hex = await jsonRpc<string>(options.rpcUrl(), 'anvil_dumpState', [], 30_000)
      if (stopped) return
      const state = await inflate(Buffer.from(hex.slice(2), 'hex'))
      await options.beforeWrite?.()
      const write = async (): Promise<void> => {
        if (options.generation && options.generation() !== asked) {
          options.logger.debug('a dump answered before a restart of anvil not written: the restart settled a newer state')
          return
        }
        await writeStateFile(options.stateFile, state)
      }
      await (options.withStateFile ? options.withStateFile(write) : write())
    } catch (error) {
      options.logger.debug({ err: error }, 'state dump skipped')
    }
  }
  const dump = (): Promise<void> => {
    running ??= dumpOnce().finally(() => {
      running = undefined
    })
    return running
  }
  let timer: NodeJS.Timeout | undefined
  const { intervalMs } = options
  const schedule = (delayMs: number): void => {
    if (stopped || intervalMs === null) return
    timer = setTimeout(() => {
      const started = Date.now()
      void dump().then(() => schedule(nextDumpDelayMs(intervalMs, Date.now() - started)))
    }, delayMs)
    timer.unref()
  }
  if (intervalMs !== null) schedule(intervalMs)
  return {
    async dumpNow() {
      await running
      await dump()
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
