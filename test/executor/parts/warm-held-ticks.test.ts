import { describe, expect, it } from 'vitest'
import { warmHeldTicks, warmHeldTicksOnce } from '../../../daemon/executor/warm-held-ticks.ts'

describe('warming the held tick at start (warm-held-ticks.ts)', () => {
  it('runs quiet ticks, PATCH ticks, the ticks back and placements through the paths a held book takes', () => {
    const result = warmHeldTicks({ orders: 600, rounds: 8 })
    // The first tick, then per round: quiet, PATCH, back, and every fourth round a placement.
    expect(result.ticks).toBe(1 + 8 * 3 + 2)
    // The write path the first PATCH of a held book runs: the book patched in place, on every write (PATCHes, the ticks
    // back, placements), the first included (a built book lives in rows of its own, book-cache.ts intoRows).
    expect(result.patchedInPlace).toBe(8 * 2 + 2)
  })

  it('defers orders on every tick of its default book: the deferred path runs at start, not first on a large book', () => {
    // More orders can buy than a tick submits (DEFAULT_MAX_BUYS), so the deferred records' path (their rank rewritten
    // in place) is compiled at start. With the former limits (100k-400k against a 500k cap) no order was deferred and
    // that path first ran, interpreted, on the daemon's first large book.
    const result = warmHeldTicks({ rounds: 1 })
    expect(result.deferred).toBeGreaterThan(100 * result.ticks)
  })

  it('once per process: a second start finds it done', () => {
    const first = warmHeldTicksOnce({ orders: 300, rounds: 2 })
    expect(warmHeldTicksOnce()).toBe(first)
  })
})
