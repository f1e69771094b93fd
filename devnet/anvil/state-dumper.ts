import { gunzipSync } from 'node:zlib'
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
 * Every `intervalMs`, the chain's state through `anvil_dumpState` (gzipped JSON, the same SerializableState anvil
 * writes for `--dump-state`) into `stateFile`, whole or not at all (see state-files.ts). This bounds what a kill -9 of
 * anvil loses to one interval. A dump that fails (anvil restarting) is skipped: the previous file stays loadable.
 */
export function startStateDumper(options: { rpcUrl: () => string; stateFile: string; intervalMs: number; logger: Logger }): StateDumper {
  let running: Promise<void> | undefined
  let stopped = false
  const dumpOnce = async (): Promise<void> => {
    try {
      const hex = await jsonRpc<string>(options.rpcUrl(), 'anvil_dumpState', [], 30_000)
      if (stopped) return
      await writeStateFile(options.stateFile, gunzipSync(Buffer.from(hex.slice(2), 'hex')))
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
  const timer = setInterval(() => void dump(), options.intervalMs)
  timer.unref()
  return {
    async dumpNow() {
      await running
      await dump()
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
