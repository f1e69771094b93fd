import { describe, expect, it } from 'vitest'
import { createLogger, silentLogger } from '../../../../src/common/logger.ts'
import { handleShutdownSignals } from '../../../../daemon/process/handle-shutdown-signals.ts'
import { createSignalGate, REPEATED_SIGNAL_WINDOW_MS } from '../../../../daemon/process/signal-gate.ts'

// SIGUSR2 stands in for SIGINT/SIGTERM so the test process itself is never asked to stop.
describe('handleShutdownSignals', () => {
  it('stops gracefully on the first signal and exits 0', async () => {
    const exits: number[] = []
    let stops = 0
    const dispose = handleShutdownSignals({ stop: async () => void stops++ }, { logger: silentLogger, exit: (code) => exits.push(code), signals: ['SIGUSR2'] })
    process.emit('SIGUSR2', 'SIGUSR2')
    await new Promise((resolve) => setTimeout(resolve, 10))
    dispose()
    expect(stops).toBe(1)
    expect(exits).toEqual([0])
  })

  it('exits once the stop is done even when its log lines cannot be written (the output reader has gone away)', async () => {
    const exits: number[] = []
    const broken = {
      write: () => {
        throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })
      },
    }
    const logger = createLogger({ level: 'info', destination: broken })
    let stopped!: () => void
    const done = new Promise<void>((resolve) => (stopped = resolve))
    const dispose = handleShutdownSignals({ stop: async () => stopped() }, { logger, exit: (code) => exits.push(code), signals: ['SIGUSR2'] })
    process.emit('SIGUSR2', 'SIGUSR2')
    await done
    await new Promise((resolve) => setImmediate(resolve))
    dispose()
    expect(exits).toEqual([0])
  })

  it('a signal repeated within a second is the same request (Ctrl-C reaches npm and the daemon); a later one forces exit 1', async () => {
    const exits: number[] = []
    let stops = 0
    const now = { now: 1_000_000 }
    let release!: () => void
    const dispose = handleShutdownSignals(
      {
        stop: () => {
          stops += 1
          return new Promise<void>((resolve) => (release = resolve))
        },
      },
      { logger: silentLogger, exit: (code) => exits.push(code), signals: ['SIGUSR2'], now: () => now.now },
    )
    process.emit('SIGUSR2', 'SIGUSR2')
    now.now += 3
    process.emit('SIGUSR2', 'SIGUSR2')
    now.now += REPEATED_SIGNAL_WINDOW_MS - 10
    process.emit('SIGUSR2', 'SIGUSR2')
    expect(exits).toEqual([])
    expect(stops).toBe(1)
    now.now += 10
    process.emit('SIGUSR2', 'SIGUSR2')
    expect(exits).toEqual([1])
    release()
    await new Promise((resolve) => setTimeout(resolve, 10))
    dispose()
    expect(exits).toEqual([1, 0])
  })

  it('exits 1 when the graceful stop fails', async () => {
    const exits: number[] = []
    const dispose = handleShutdownSignals(
      { stop: async () => Promise.reject(new Error('store would not close')) },
      { logger: silentLogger, exit: (code) => exits.push(code), signals: ['SIGUSR2'] },
    )
    process.emit('SIGUSR2', 'SIGUSR2')
    await new Promise((resolve) => setTimeout(resolve, 10))
    dispose()
    expect(exits).toEqual([1])
    expect(process.listenerCount('SIGUSR2')).toBe(0)
  })

  it('the signal gate: stop, then repeat inside the window, force after it', () => {
    let nowMs = 0
    const gate = createSignalGate({ windowMs: 1_000, now: () => nowMs })
    expect(gate()).toBe('stop')
    nowMs = 999
    expect(gate()).toBe('repeat')
    nowMs = 1_000
    expect(gate()).toBe('force')
  })
})
