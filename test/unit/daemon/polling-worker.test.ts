import { afterEach, describe, expect, it, vi } from 'vitest'
import { createPollingWorker } from '../../../daemon/workers/polling-worker.ts'

afterEach(() => {
  vi.useRealTimers()
})

describe('createPollingWorker', () => {
  it('runs a round every interval after the last one ends, never two at once, logs a round that throws and goes on', async () => {
    vi.useFakeTimers()
    const errors: unknown[] = []
    const log = { error: (fields: unknown, message: string) => errors.push({ fields, message }) } as never
    let active = 0
    let maxActive = 0
    let rounds = 0
    let release: (() => void) | undefined
    const worker = createPollingWorker({ name: 'test rounds', intervalMs: 1_000, log }, async () => {
      rounds += 1
      active += 1
      maxActive = Math.max(maxActive, active)
      try {
        if (rounds === 2) throw new Error('store closed')
        if (rounds === 3) await new Promise<void>((resolve) => (release = resolve))
      } finally {
        active -= 1
      }
    })
    await worker.start()
    expect(rounds).toBe(0)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(rounds).toBe(1)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(rounds).toBe(2)
    expect(errors).toEqual([{ fields: { err: new Error('store closed') }, message: 'test rounds round failed; retried on the next round' }])
    await vi.advanceTimersByTimeAsync(1_000)
    expect(rounds).toBe(3)
    // Round 3 hangs: however long it takes, no other round starts beside it.
    await vi.advanceTimersByTimeAsync(10_000)
    expect(rounds).toBe(3)
    release?.()
    await vi.advanceTimersByTimeAsync(1_000)
    expect(rounds).toBe(4)
    expect(maxActive).toBe(1)
    await worker.stop()
  })

  it('stop waits for the round in flight, tells it to leave early, and no round follows', async () => {
    vi.useFakeTimers()
    const log = { error: () => {} } as never
    const seen: boolean[] = []
    let release: (() => void) | undefined
    let rounds = 0
    const worker = createPollingWorker({ name: 'test rounds', intervalMs: 500, log }, async (stopping) => {
      rounds += 1
      seen.push(stopping())
      await new Promise<void>((resolve) => (release = resolve))
      seen.push(stopping())
    })
    await worker.start()
    await vi.advanceTimersByTimeAsync(500)
    expect(rounds).toBe(1)
    let stopped = false
    const stopping = worker.stop().then(() => (stopped = true))
    await vi.advanceTimersByTimeAsync(0)
    expect(stopped).toBe(false)
    release?.()
    await stopping
    expect(seen).toEqual([false, true])
    await vi.advanceTimersByTimeAsync(5_000)
    expect(rounds).toBe(1)
  })
})
