import { describe, expect, it } from 'vitest'
import { radixOrderDescending } from '../../../src/domain/execution/radix-order.ts'
import { prioritiseOrders } from '../../../src/domain/execution/prioritisation.ts'
import { seededRandom } from '../../support/seeded-random.ts'

/** The reference: a stable comparator sort, descending by primary then secondary. */
const reference = (p: number[], s: number[]): number[] =>
  p.map((_, i) => i).sort((a, b) => p[b]! - p[a]! || (s[b]! > s[a]! ? 1 : s[b]! < s[a]! ? -1 : 0) || a - b)

describe('radixOrderDescending', () => {
  it('matches a stable comparator sort on random keys with many ties, zeros and infinities', () => {
    const rand = seededRandom(42)
    const n = 5_000
    const p = Array.from({ length: n }, () => Math.floor(rand() * 50) * 1e6)
    const s = Array.from({ length: n }, () => {
      const r = rand()
      return r < 0.1 ? Number.POSITIVE_INFINITY : r < 0.15 ? 0 : Math.floor(rand() * 1e6) * 1e9 + rand()
    })
    const order = radixOrderDescending(Float64Array.from(p), Float64Array.from(s))
    expect([...order]).toEqual(reference(p, s))
  })

  it('handles the full double range of non-negative keys', () => {
    const p = [0, Number.MAX_VALUE, 1e-300, 2 ** 53, 2 ** 53 + 2, Number.POSITIVE_INFINITY, 5e-324]
    const s = p.map(() => 0)
    expect([...radixOrderDescending(Float64Array.from(p), Float64Array.from(s))]).toEqual(reference(p, s))
  })

  it('empty and single inputs', () => {
    expect([...radixOrderDescending(new Float64Array(0), new Float64Array(0))]).toEqual([])
    expect([...radixOrderDescending(Float64Array.of(3), Float64Array.of(1))]).toEqual([0])
  })
})

describe('prioritiseOrders with a keyed policy', () => {
  it('refuses negative keys (the bit-pattern order only holds for non-negative doubles)', () => {
    const bad = { name: 'bad', compare: () => 0, keys: () => [-1, 0] as const }
    expect(() => prioritiseOrders([{ id: 'a', wallet: 'w', status: 'active', maxSpend: 1n, limitFdv: null, expiresInMs: 1 }], bad)).toThrow(RangeError)
  })
})
