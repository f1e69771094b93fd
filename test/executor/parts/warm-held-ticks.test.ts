import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { warmHeldTicks, warmHeldTicksOnce } from '../../../daemon/executor/warm-held-ticks.ts'

describe('warming the held tick at start (warm-held-ticks.ts)', () => {
  it('runs quiet ticks, PATCH ticks, the ticks back and placements through the paths a held book takes', () => {
    const result = warmHeldTicks({ orders: 600, rounds: 8, largeOrders: 1_500 })
    // The first tick, then per round: quiet, PATCH, back, and every fourth round a placement; half-way, a large book
    // built and PATCHed, then the project built afresh (three ticks).
    expect(result.ticks).toBe(1 + 8 * 3 + 2 + 3)
    // The write path the first PATCH of a held book runs: the book patched in place, on every write (PATCHes, the ticks
    // back, placements), the first included (a built book lives in rows of its own, book-cache.ts intoRows).
    expect(result.patchedInPlace).toBe(8 * 2 + 2 + 1)
    // The quiet record's walk by slot and its memory's update (decision-delta.ts) ran too: compiled before the first
    // PATCH of a held book records its changes.
    expect(result.deltaRecords).toBeGreaterThan(0)
  })

  it('defers orders on every tick of its default book: the deferred path runs at start, not first on a large book', () => {
    // More orders can buy than a tick submits (DEFAULT_MAX_BUYS), so the deferred records' path (their rank rewritten
    // in place) is compiled at start. With the former limits (100k-400k against a 500k cap) no order was deferred and
    // that path first ran, interpreted, on the daemon's first large book.
    const result = warmHeldTicks({ rounds: 1 })
    expect(result.deferred).toBeGreaterThan(100 * result.ticks)
    // And its large book is past V8's inline array limit (16,376 entries, JSArray::kInitialMaxFastElementArray): the
    // book's arrays of that size deoptimised the build and write paths on the daemon's first large book otherwise.
    expect(result.largestBook).toBeGreaterThan(16_376)
  })

  it('once per process: a second start finds it done', () => {
    const first = warmHeldTicksOnce({ orders: 300, rounds: 2, largeOrders: 600 })
    expect(warmHeldTicksOnce()).toBe(first)
  })
})

describe("the warm-up's records are the loader's (warm-held-ticks.ts, intern-order.ts)", () => {
  it('code compiled on stored records after the warm-up is not dropped by the loader decoding more of them', () => {
    // V8's own view, in a process of its own started with its natives syntax (record-constness-probe.ts): a function
    // optimised on a record of the store's hidden class depends on the fields it reads being constant, and the
    // loader's interning writes those fields (internOrder). The warm-up decodes its records through internOrder, so
    // they are mutable before any code is compiled on them and a load after it drops nothing. With records of its own
    // (literals) the warm-up left them constant: the daemon's first load, or the bench's first PATCH, deoptimised the
    // held tick's code (docs/execution.md §3 "A book's first PATCH tick").
    const probe = fileURLToPath(new URL('./record-constness-probe.ts', import.meta.url))
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--allow-natives-syntax', probe], { encoding: 'utf8', timeout: 120_000 })
    expect(JSON.parse(out)).toEqual({ optimisedBefore: true, optimisedAfterLoad: true })
  })
})
