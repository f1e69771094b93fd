import { describe, expect, it } from 'vitest'
import { createHeldSpends } from '../../../daemon/executor/held-spends.ts'
import type { CandidateDiff } from '../../../src/domain/execution/held-candidates.ts'

/** A step `seq` following `fromSeq`, with what it changed. */
const step = (seq: number, fromSeq: number, change: Partial<Pick<CandidateDiff, 'arrived' | 'rebalanced' | 'newIndexOfOld'>> = {}): CandidateDiff => ({
  from: [],
  newIndexOfOld: change.newIndexOfOld,
  arrived: change.arrived ?? [],
  rebalanced: change.rebalanced ?? [],
  seq,
  fromSeq,
})

describe('spend buckets kept along the held candidates’ steps (held-spends.ts)', () => {
  const buckets = [1n << 20n, 1n << 23n]

  it('carries them over steps that changed nothing, a new list of the same candidates in another order included', () => {
    const held = createHeldSpends()
    held.set('p', 1, buckets)
    expect(held.step('p', step(2, 1))).toBe(buckets)
    expect(held.step('p', step(3, 2, { newIndexOfOld: Int32Array.from([1, 0, 2]) }))).toBe(buckets)
    expect(held.step('p', step(4, 3))).toBe(buckets)
  })

  it('drops them at an arrival, an edit, a balance moved, a candidate gone from a new list, or a step it did not see', () => {
    const cases: Array<[string, CandidateDiff]> = [
      ['arrived or edited', step(2, 1, { arrived: [0] })],
      ['rebalanced', step(2, 1, { rebalanced: [1] })],
      ['one gone from a new list', step(2, 1, { newIndexOfOld: Int32Array.from([0, -1]) })],
      ['a step not seen (seq gap)', step(3, 2)],
    ]
    for (const [why, diff] of cases) {
      const held = createHeldSpends()
      held.set('p', 1, buckets)
      expect(held.step('p', diff), why).toBeUndefined()
      // Dropped for good: the next step, unchanged, has none either until buckets are set again.
      expect(held.step('p', step((diff.seq ?? 0) + 1, diff.seq ?? 0)), why).toBeUndefined()
    }
  })

  it('keeps them per project; forget and a step without a seq leave nothing', () => {
    const held = createHeldSpends()
    held.set('a', 1, buckets)
    held.set('b', 1, [1n])
    held.forget('b')
    expect(held.step('b', step(2, 1))).toBeUndefined()
    expect(held.step('a', step(2, 1))).toBe(buckets)
    held.set('a', undefined, buckets)
    expect(held.step('a', step(3, 2))).toBeUndefined()
  })
})
