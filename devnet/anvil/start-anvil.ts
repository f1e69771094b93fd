import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { PrebuyError } from '../../src/common/errors.ts'
import { createKeyedMutex } from '../../src/common/keyed-mutex.ts'
import { silentLogger, type Logger } from '../../src/common/logger.ts'
import { jsonRpc } from './json-rpc.ts'
import { applyMiningMode, assertMiningMode, needsCommandLine, trackMiningMode, type MiningMode } from './mining-mode.ts'
import { resolveAnvilBinary } from './resolve-anvil-binary.ts'
import { startStateDumper, type StateDumper } from './state-dumper.ts'
import { exitDumpPath, settleStateFiles } from './state-files.ts'

export interface StartAnvilOptions {
  chainId: number
  /** Label in logs and errors (the chain key). */
  name?: string
  /**
   * Chain state file: loaded at start when present, written whole every `stateIntervalSeconds` and after a graceful
   * stop, so a kill -9 at any moment leaves a loadable file (state-files.ts).
   */
  stateFile?: string
  /**
   * Bounds what a crash loses. Default 2 s. `'on_stop'`: no periodic dump (each one freezes anvil for tens of ms:
   * state-dumper.ts), the state written only by `dumpState()` and a graceful stop; a kill -9 loses what came after.
   */
  stateIntervalSeconds?: number | 'on_stop'
  /** Block gas limit; large so a bundle of many UserOperations fits one handleOps. Default 150M (Base's order). */
  gasLimit?: bigint
  /**
   * Applied after the health check and again after every supervised restart. Default 'auto'. A sub-second interval is
   * passed on the command line (`--block-time`), so switching to one later restarts anvil (mining-mode.ts).
   */
  mining?: MiningMode
  /** How many times a crashed anvil is restarted before `onFatal`. Default 3. */
  maxRestarts?: number
  /** Called once when the chain is down for good (restarts exhausted or failing). */
  onFatal?: (error: Error) => void
  logger?: Logger
  /** Defaults to the binary of the installed `@foundry-rs/anvil-<platform>-<arch>`. */
  binary?: string
  startTimeoutMs?: number
  /** Awaited by every dump between anvil's answer and the state file's write. For tests: they hold a dump there. */
  beforeStateWrite?: () => Promise<void>
}

export interface AnvilInstance {
  readonly name: string
  readonly chainId: number
  readonly port: number
  readonly rpcUrl: string
  /** Anvil serves WebSocket on the same port as HTTP. */
  readonly wsUrl: string
  /** The current child's pid (changes after a supervised restart); undefined once stopped. */
  readonly pid: number | undefined
  readonly restarts: number
  readonly miningMode: MiningMode
  /** Over RPC; to a sub-second interval by restarting anvil on the same port with its state (a few hundred ms). */
  setMiningMode(mode: MiningMode): Promise<void>
  /** Resolves after the next supervised restart has finished (health check and mining mode applied). For tests. */
  waitForRestart(): Promise<void>
  /** Writes the state file now (whole): a crash from then on loses nothing before this call. */
  dumpState(): Promise<void>
  /** SIGTERM, then wait for exit so anvil dumps its state file; SIGKILL if it hangs. Idempotent. */
  stop(): Promise<void>
}

const LISTENING = /Listening on ([\d.]+):(\d+)/
const DEFAULT_GAS_LIMIT = 150_000_000n
/** anvil's own periodic dump (in place, not crash-safe) is pushed out of the way: a day. */
const ANVIL_OWN_DUMP_INTERVAL_SECONDS = 86_400
const STOP_GRACE_MS = 10_000
/**
 * Past states anvil keeps on disk (besides the few in memory) for reads at an older block. anvil 1.7.1 keeps a state
 * per block, 1,500 in memory when blocks come every 2 s or faster, then moves them to disk one a block, up to 3,600
 * (foundry crates/anvil/src/eth/backend/mem/storage.rs, DEFAULT_HISTORY_LIMIT x 3 and MAX_ON_DISK_HISTORY_LIMIT), in
 * `~/.foundry/anvil/tmp`, never removed, not even on a graceful exit. With the devnet's state a state is about 780 KB on
 * disk: at 200 ms blocks each chain had written 3.1 GB there 13 minutes after start (observed 2026-11-26). 150 states
 * cover 30 s of 200 ms blocks, more than the indexer's 24 s finality window; an older read is answered from the latest
 * state (src/chain/latest-state-fallback.ts). `--prune-history N` is no substitute: with a sub-second block time anvil
 * 1.7.1 kept growing in memory past N (832 MB after 2,500 blocks with N = 300, observed), and without N it keeps no past
 * state at all (a read one block back is refused).
 */
export const PERSISTED_STATES = 150

/** The periodic dump's interval in ms, or null for none (`'on_stop'`). */
const dumpIntervalMs = (seconds: number | 'on_stop' | undefined): number | null => (seconds === 'on_stop' ? null : (seconds ?? 2) * 1000)

/** Every live child of this process; killed by the 'exit' hook so a crashed or exiting parent leaves no orphan. */
const liveChildren = new Set<ChildProcess>()
let exitHookInstalled = false
function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  // 'exit' handlers must be synchronous: SIGTERM is sent (anvil still dumps its state as it exits) but not awaited.
  process.on('exit', () => {
    for (const child of liveChildren) child.kill('SIGTERM')
  })
}

/**
 * The 'exit' hook cannot run when the parent is killed with SIGKILL (an OOM kill, a test runner's hard timeout). A
 * tiny shell loop per anvil covers that case: while both the parent and anvil live it sleeps; when the parent is gone
 * it sends anvil SIGTERM (so the state is still dumped); when anvil is gone it simply ends. Not on Windows (no sh).
 */
function startOrphanWatchdog(anvilPid: number): void {
  if (process.platform === 'win32') return
  const script = 'while kill -0 "$0" 2>/dev/null && kill -0 "$1" 2>/dev/null; do sleep 1; done; kill -0 "$0" 2>/dev/null || kill -TERM "$1" 2>/dev/null'
  const watchdog = spawn('/bin/sh', ['-c', script, String(process.pid), String(anvilPid)], { stdio: 'ignore' })
  watchdog.on('error', () => undefined)
  watchdog.unref()
}

interface Spawned {
  child: ChildProcess
  port: number
  exited: Promise<number | null>
  /** Stopped on purpose to restart with another command line (setMiningMode): not a crash. */
  replaced?: boolean
}

/**
 * Starts one anvil child on a free loopback port, waits for it to answer eth_chainId, and supervises it: an
 * unexpected exit is followed by a restart on the same port (so URLs handed out stay valid) from the state file, up to
 * `maxRestarts` times; after that, or when a restart fails, `onFatal` is called once.
 */
export async function startAnvil(options: StartAnvilOptions): Promise<AnvilInstance> {
  const name = options.name ?? `anvil-${options.chainId}`
  const logger = (options.logger ?? silentLogger).child({ component: 'anvil', chain: name })
  const binary = options.binary ?? resolveAnvilBinary()
  const maxRestarts = options.maxRestarts ?? 3
  const startTimeoutMs = options.startTimeoutMs ?? 20_000
  let miningMode: MiningMode = options.mining ?? 'auto'
  assertMiningMode(miningMode)
  if (options.stateFile) mkdirSync(dirname(options.stateFile), { recursive: true })
  /** anvil's past states (PERSISTED_STATES): worthless once the process that wrote them is gone. */
  const historyDir = options.stateFile ? join(dirname(options.stateFile), 'history') : mkdtempSync(join(tmpdir(), 'prebuy-anvil-history-'))
  const clearHistory = (): void => rmSync(historyDir, { recursive: true, force: true })
  installExitHook()
  /**
   * Which anvil process the state file follows: bumped when a restart begins (a mining-mode switch or a crash), before
   * the state files are settled. A dump answered by an earlier process is not written once it changed: written after
   * the restart settled the files, it put an older chain in the state file than the one the new process loads (anvil's
   * exit dump), which that process could still read at its start, or the next restart would (test/chain/anvil.test.ts,
   * "a dump answered before a restart is not written after it"; the daemon's devnet switches to 200 ms blocks by such a
   * restart right after its deployments, and once started on a chain whose Clanker factory was not yet enabled).
   */
  let generation = 0
  /** The state file's writers one at a time: the dumper's generation check and write, and the restarts' settling. */
  const stateFileLock = createKeyedMutex()
  const withStateFile = <T>(fn: () => Promise<T>): Promise<T> => stateFileLock.run('state file', fn)

  const args = (port: number, load: string | undefined): string[] => {
    const list = [
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--chain-id',
      String(options.chainId),
      '--gas-limit',
      String(options.gasLimit ?? DEFAULT_GAS_LIMIT),
      // EIP-7825 as on Base since Azul: a transaction above 2^24 gas is refused (observed with anvil 1.7.1: "intrinsic
      // gas too high -- tx.gas_limit > env.cfg.tx_gas_limit_cap"). Not with `--network optimism`: it lifts the cap.
      '--enable-tx-gas-limit',
    ]
    // Past states on disk: a bounded number, in a folder of this chain's that is emptied at every start and stop.
    list.push('--max-persisted-states', String(PERSISTED_STATES), '--cache-path', historyDir)
    if (load) list.push('--load-state', load)
    if (needsCommandLine(miningMode)) list.push('--block-time', String(miningMode))
    // anvil's own dump only on exit (its periodic one, every day here, is replaced by ours, which writes whole files).
    if (options.stateFile) list.push('--dump-state', exitDumpPath(options.stateFile), '--state-interval', String(ANVIL_OWN_DUMP_INTERVAL_SECONDS))
    return list
  }

  /** Keeps anvil's last lines so a failure can say what anvil said. */
  const recentOutput: string[] = []
  const remember = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue
      recentOutput.push(line)
      if (recentOutput.length > 40) recentOutput.shift()
    }
  }

  const spawnOnce = (port: number, load: string | undefined): Promise<Spawned> =>
    new Promise((resolve, reject) => {
      clearHistory()
      const child = spawn(binary, args(port, load), { stdio: ['ignore', 'pipe', 'pipe'] })
      liveChildren.add(child)
      if (child.pid !== undefined) startOrphanWatchdog(child.pid)
      const exited = new Promise<number | null>((resolveExit) => {
        child.once('exit', (code) => {
          liveChildren.delete(child)
          resolveExit(code)
        })
      })
      let buffered = ''
      let settled = false
      const timer = setTimeout(() => fail(new Error(`anvil did not start listening within ${startTimeoutMs} ms`)), startTimeoutMs)
      const fail = (error: Error): void => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        child.kill('SIGKILL')
        reject(error)
      }
      child.stdout?.on('data', (chunk: Buffer) => {
        remember(chunk)
        if (settled) return
        buffered += chunk.toString('utf8')
        const match = LISTENING.exec(buffered)
        if (match) {
          settled = true
          clearTimeout(timer)
          buffered = ''
          resolve({ child, port: Number(match[2]), exited })
        }
      })
      child.stderr?.on('data', remember)
      child.once('error', (error) => fail(error))
      void exited.then((code) => fail(new Error(`anvil exited with code ${String(code)} before listening`)))
    })

  const healthCheck = async (rpcUrl: string): Promise<void> => {
    const deadline = Date.now() + startTimeoutMs
    for (;;) {
      try {
        const id = await jsonRpc<string>(rpcUrl, 'eth_chainId', [], 2_000)
        if (Number(id) !== options.chainId) throw new Error(`anvil answered chain id ${Number(id)}, expected ${options.chainId}`)
        return
      } catch (error) {
        if (Date.now() > deadline) throw error
        await new Promise((r) => setTimeout(r, 50))
      }
    }
  }

  /** First start: unreadable state files are moved aside (the chain starts empty); on a restart they are fatal. */
  const settle = async (first: boolean): Promise<string | undefined> => {
    if (!options.stateFile) return undefined
    const stateFile = options.stateFile
    const settled = await withStateFile(() => settleStateFiles(stateFile, { moveAsideUnreadable: first }))
    for (const moved of settled.movedAside) {
      logger.warn({ stateFile: moved.file, movedTo: moved.movedTo, reason: moved.reason }, 'anvil could not read its state file; moved it aside')
    }
    return settled.load
  }

  const launch = async (port: number, first: boolean): Promise<Spawned> => {
    const spawned = await spawnOnce(port, await settle(first))
    const rpcUrl = `http://127.0.0.1:${spawned.port}`
    try {
      await healthCheck(rpcUrl)
      if (!needsCommandLine(miningMode)) await applyMiningMode(rpcUrl, miningMode)
    } catch (error) {
      spawned.child.kill('SIGKILL')
      await spawned.exited
      throw error
    }
    return spawned
  }

  /**
   * At first start an unreadable state file (a crash of the machine in the middle of a dump) would keep the chain
   * down for good; it is moved aside and the chain starts empty, which the devnet notices and redeploys. A restart
   * after a crash does not do this: an emptied chain under a running daemon is worse than a clear fatal error.
   */
  const launchFirst = async (): Promise<Spawned> => {
    // A start that fails for a passing reason (the machine overloaded past a timeout) is tried again twice.
    for (let attempt = 1; ; attempt++) {
      try {
        return await launch(0, true)
      } catch (error) {
        const stateFile = options.stateFile
        // A file that parses but anvil still refuses (another anvil version's layout).
        if (stateFile && existsSync(stateFile) && recentOutput.some((line) => line.includes("for '--load-state <PATH>'"))) {
          const aside = `${stateFile}.unreadable-${Date.now()}`
          renameSync(stateFile, aside)
          recentOutput.length = 0
          logger.warn({ stateFile, movedTo: aside }, 'anvil could not read its state file; moved it aside and starting an empty chain')
        } else if (attempt >= 3) {
          throw error
        } else {
          logger.warn({ err: error, attempt, anvilOutput: recentOutput.slice(-5) }, 'anvil did not start; trying again')
        }
      }
    }
  }

  let current: Spawned
  try {
    current = await launchFirst()
  } catch (cause) {
    throw new PrebuyError('devnet_start_failed', `Could not start the ${name} devnet chain (anvil): ${(cause as Error).message}`, {
      cause,
      details: { anvilOutput: recentOutput.slice(-10) },
    })
  }
  const port = current.port
  const rpcUrl = `http://127.0.0.1:${port}`
  const wsUrl = `ws://127.0.0.1:${port}`
  let stopping = false
  let fatal = false
  let restarts = 0
  let restartWaiters: Array<() => void> = []
  logger.info({ port, pid: current.child.pid, chainId: options.chainId }, 'anvil started')

  const reportFatal = (error: Error): void => {
    if (fatal || stopping) return
    fatal = true
    logger.error({ err: error }, 'devnet chain is down')
    options.onFatal?.(error)
  }

  /** The restart in progress, so stop() can wait for a child that is still coming up. */
  let restarting: Promise<void> | undefined
  const supervise = (spawned: Spawned): void => {
    void spawned.exited.then((code) => {
      if (spawned.replaced) return
      restarting = restartAfterCrash(code)
    })
  }
  const restartAfterCrash = async (code: number | null): Promise<void> => {
    if (stopping) return
    generation++
    logger.warn({ code, restarts, anvilOutput: recentOutput.slice(-5) }, 'anvil exited unexpectedly')
    while (!stopping) {
      if (restarts >= maxRestarts) {
        reportFatal(
          new PrebuyError('devnet_chain_crashed', `The ${name} devnet chain (anvil) crashed and was restarted ${restarts} times; giving up.`, {
            details: { exitCode: code, anvilOutput: recentOutput.slice(-10) },
          }),
        )
        return
      }
      restarts++
      try {
        // Same port, so every client built from rpcUrl/wsUrl keeps working after the restart.
        const next = await launch(port, false)
        if (stopping) {
          next.child.kill('SIGTERM')
          await next.exited
          return
        }
        current = next
        logger.warn({ pid: next.child.pid, restarts }, 'anvil restarted from its state file')
        supervise(next)
        const waiters = restartWaiters
        restartWaiters = []
        for (const wake of waiters) wake()
        return
      } catch (error) {
        logger.warn({ err: error, restarts }, 'anvil restart failed')
        await new Promise((r) => setTimeout(r, 250 * restarts))
      }
    }
  }
  supervise(current)
  const untrack = trackMiningMode(rpcUrl, () => miningMode)
  const dumper: StateDumper | undefined = options.stateFile
    ? startStateDumper({
        rpcUrl: () => rpcUrl,
        stateFile: options.stateFile,
        intervalMs: dumpIntervalMs(options.stateIntervalSeconds),
        logger,
        generation: () => generation,
        withStateFile,
        ...(options.beforeStateWrite ? { beforeWrite: options.beforeStateWrite } : {}),
      })
    : undefined

  /**
   * Restarts anvil on the same port with `mode` on its command line, keeping the chain through the state file (anvil's
   * exit dump is loaded as after a crash). Clients keep their URLs; WebSocket subscriptions reconnect as after a
   * supervised restart; transactions still in the pool are lost (switch before sending, as the devnet does).
   */
  const restartWith = async (mode: MiningMode): Promise<void> => {
    if (!options.stateFile) {
      throw new PrebuyError('devnet_no_state_file', `The ${name} devnet chain has no state file: a ${String(mode)} s block time must be given at start.`)
    }
    const old = current
    generation++
    old.replaced = true
    old.child.kill('SIGTERM')
    const killTimer = setTimeout(() => old.child.kill('SIGKILL'), STOP_GRACE_MS)
    await old.exited
    clearTimeout(killTimer)
    const previous = miningMode
    miningMode = mode
    try {
      current = await launch(port, false)
    } catch (error) {
      // The chain stays up in its previous mode; the caller hears why the switch failed.
      miningMode = previous
      current = await launch(port, false)
      supervise(current)
      throw error
    }
    supervise(current)
    logger.info({ pid: current.child.pid, blockTime: mode }, 'anvil restarted with a sub-second block time')
  }

  let stopped: Promise<void> | undefined
  return {
    name,
    chainId: options.chainId,
    port,
    rpcUrl,
    wsUrl,
    get pid() {
      return stopping ? undefined : current.child.pid
    },
    get restarts() {
      return restarts
    },
    get miningMode() {
      return miningMode
    },
    async setMiningMode(mode) {
      assertMiningMode(mode)
      if (!needsCommandLine(mode)) {
        await applyMiningMode(rpcUrl, mode)
        miningMode = mode
        return
      }
      if (mode === miningMode) return
      if (stopping) throw new PrebuyError('devnet_chain_crashed', `The ${name} devnet chain is stopped.`)
      // Registered as the restart in progress, so stop() waits for it and a crash restart does not overlap it.
      const before = restarting
      const switching = (async () => {
        await before
        await restartWith(mode)
      })()
      restarting = switching.catch(() => undefined)
      await switching
    },
    waitForRestart() {
      return new Promise((resolve) => restartWaiters.push(resolve))
    },
    async dumpState() {
      if (!dumper) throw new PrebuyError('devnet_no_state_file', `The ${name} devnet chain has no state file to dump to.`)
      await dumper.dumpNow()
    },
    stop() {
      stopped ??= (async () => {
        stopping = true
        untrack()
        await restarting
        await dumper?.stop()
        const { child, exited } = current
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM')
          const killTimer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
          await exited
          clearTimeout(killTimer)
        }
        // anvil's exit dump becomes the state file once it is known to be whole (a SIGKILL mid-dump leaves ours).
        if (options.stateFile) await settle(true).catch((error: unknown) => logger.warn({ err: error }, 'could not settle the state files'))
        clearHistory()
        logger.info('anvil stopped')
      })()
      return stopped
    },
  }
}
