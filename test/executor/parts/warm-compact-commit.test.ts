import { describe, expect, it } from 'vitest'
import { warmCompactCommit, warmCompactCommitOnce } from '../../../daemon/executor/warm-compact-commit.ts'

describe("warming the launch's compact commit at start (warm-compact-commit.ts)", () => {
  it('runs every path a launch’s compact commit takes: entries named by rank and written out, exclusions and rows named', () => {
    const result = warmCompactCommit({ candidates: 400, rounds: 3 })
    expect(result.commits).toBe(3)
    // 300 included a round (three quarters), every 50th changed since it was prepared (ranks 7, 57, ..., 257: 6).
    expect(result.writtenOut).toBe(3 * 6)
    expect(result.named).toBe(3 * (300 - 6))
    // 100 exclusions a round, every 40th changed (ranks 323, 363: 2) written out; 400 clearing rows named, the same
    // element or a copy found by key id.
    expect(result.namedRows).toBe(3 * (100 - 2 + 400))
    // The commit's JSON text was built (what the store's write stringifies), far smaller than the entries it names.
    expect(result.bytes).toBeGreaterThan(0)
    expect(result.bytes).toBeLessThan(400 * 60)
  })

  it('once per process: a second start finds it done', () => {
    const first = warmCompactCommitOnce({ candidates: 64, rounds: 1 })
    expect(warmCompactCommitOnce()).toBe(first)
  })
})
