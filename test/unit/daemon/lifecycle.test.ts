import { describe, expect, it } from 'vitest'
import { silentLogger } from '../../../src/common/logger.ts'
import { handleShutdownSignals } from '../../../daemon/lifecycle.ts'

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

  it('forces exit 1 on a second signal while stopping', async () => {
    const exits: number[] = []
    let release!: () => void
    const dispose = handleShutdownSignals(
      { stop: () => new Promise<void>((resolve) => (release = resolve)) },
      { logger: silentLogger, exit: (code) => exits.push(code), signals: ['SIGUSR2'] },
    )
    process.emit('SIGUSR2', 'SIGUSR2')
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
})
