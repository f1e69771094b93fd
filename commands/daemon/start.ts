import { Command, Flags } from '@oclif/core'
import { createLogger } from '../../src/common/logger.ts'
import { isChainCheckError } from '../../src/chain/chain-check-error.ts'
import { isConfigError, loadConfig, type PrebuyConfig } from '../../src/config/index.ts'
import { boundHeapGrowth } from '../../daemon/process/bound-heap-growth.ts'
import { handleShutdownSignals } from '../../daemon/process/handle-shutdown-signals.ts'
import { createSignalGate } from '../../daemon/process/signal-gate.ts'
import type { RunningDaemon } from '../../daemon/start-daemon.ts'
import { createStartProgress } from '../../src/admin-client/cli/start-progress.ts'

export default class DaemonStart extends Command {
  static override description =
    'Start the daemon in the foreground: public REST API, admin API (loopback), devnet chains or RPC chains, indexer and executor. Stop with Ctrl-C or SIGTERM.'
  static override examples = [
    '<%= config.bin %> daemon start',
    '<%= config.bin %> daemon start --port 9000 --data-dir /srv/prebuy',
    'PORT=9000 DATA_DIR=/srv/prebuy PREBUY_PASSPHRASE=... <%= config.bin %> daemon start',
  ]
  // Strings, not integers: the config layer validates every source the same way and names the flag in its one line.
  static override flags = {
    host: Flags.string({ description: 'address the public API listens on [env: HOST] (default 127.0.0.1)' }),
    port: Flags.string({ description: 'public API port [env: PORT] (default 8787)' }),
    'admin-port': Flags.string({ description: 'admin API port on 127.0.0.1 [env: PREBUY_ADMIN_PORT] (default port + 1)' }),
    'data-dir': Flags.string({ description: 'data dir: config.json, LevelDB, devnet, secrets [env: DATA_DIR] (default ./data)' }),
  }

  async run(): Promise<void> {
    // A long-running process holding 100,000 orders: V8's committed heap kept near its live size (bound-heap-growth.ts).
    boundHeapGrowth()
    const { flags } = await this.parse(DaemonStart)
    let config: PrebuyConfig
    try {
      config = await loadConfig({
        flags: { host: flags.host, port: flags.port, adminPort: flags['admin-port'], dataDir: flags['data-dir'] },
        env: process.env,
      })
    } catch (error) {
      if (isConfigError(error)) {
        process.stderr.write(`${error.message}\n`)
        return this.exit(1)
      }
      throw error
    }
    // The daemon's module graph (chains, LevelDB, HTTP, every service) loads only once the config is valid: a config
    // error answers in a second instead of after loading all of it (test/cli/start-errors.test.ts runs this path often).
    const { START_STEPS, startDaemon } = await import('../../daemon/start-daemon.ts')
    // Human-readable (and terminal-safe) lines when a person watches; JSON lines for pipes, journald and CI.
    const logger = createLogger({ level: config.logLevel, pretty: process.stdout.isTTY === true && !process.env.CI })
    // A checklist for people at a terminal; pipes and CI get only the structured log.
    const progress = process.stdout.isTTY && !process.env.CI ? createStartProgress(START_STEPS) : undefined
    // A signal during start-up (the first start deploys contracts for a while) aborts it cleanly; a repeated one within
    // a second is the same request, a later one exits.
    const interrupted = new AbortController()
    const gate = createSignalGate()
    const onEarlySignal = (signal: NodeJS.Signals) => {
      const meaning = gate()
      if (meaning === 'repeat') return
      if (meaning === 'force') process.exit(1)
      logger.info({ signal }, 'interrupted during start-up; stopping what started')
      interrupted.abort()
    }
    process.on('SIGINT', onEarlySignal)
    process.on('SIGTERM', onEarlySignal)
    let daemon: RunningDaemon
    try {
      daemon = await startDaemon(config, {
        logger,
        signal: interrupted.signal,
        ...(progress ? { onStep: progress.onStep } : {}),
        onFatal: () => {
          process.exitCode = 1
          process.exit(1)
        },
      })
      await progress?.finish()
    } catch (error) {
      await progress?.finish(error as Error)
      if (interrupted.signal.aborted) return this.exit(0)
      if (isChainCheckError(error)) {
        // Not this program's fault but the chain's or the config's: the one line says which, without a stack.
        logger.error({ chain: error.chain, address: error.address, found: error.found }, error.message)
        process.stderr.write(`prebuy: cannot start: ${error.message}\n`)
        return this.exit(1)
      }
      logger.error({ err: error }, 'start-up failed')
      process.stderr.write(`prebuy: cannot start: ${(error as Error).message}\n`)
      return this.exit(1)
    } finally {
      process.off('SIGINT', onEarlySignal)
      process.off('SIGTERM', onEarlySignal)
    }
    if (interrupted.signal.aborted) {
      // The signal landed between the last start-up check and here.
      await daemon.stop()
      return this.exit(0)
    }
    handleShutdownSignals(daemon, { logger })
    // Stay in the foreground: the signal handlers end the process.
    await new Promise<never>(() => undefined)
  }
}
