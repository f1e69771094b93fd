import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { keccak256, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { createInterner, flatString } from '../../../src/common/compact-strings.ts'

/** A full collection on demand (what --expose-gc gives), so retained sizes can be compared. */
function collector(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

/** Heap bytes `make()`'s result retains, after full collections before and after. */
function retained(make: () => unknown[]): number {
  const gc = collector()
  gc()
  const before = process.memoryUsage().heapUsed
  const kept = make()
  gc()
  const after = process.memoryUsage().heapUsed
  expect(kept.length).toBeGreaterThan(0)
  return after - before
}

describe('compact strings (compact-strings.ts)', () => {
  it('keeps the characters, Latin-1 and beyond', () => {
    for (const value of ['', 'load-1', `0x${'ab'.repeat(32)}`, 'café', 'œuvre 🚀', '\u0000\u00ff']) expect(flatString(value)).toBe(value)
  })

  it('holds a cached hash in a fraction of the rope viem builds (the executor’s order-id cache)', () => {
    const inputs = Array.from({ length: 5_000 }, (_, i) => toHex(`order-${i}`))
    const ropes = retained(() => inputs.map((input) => keccak256(input)))
    const flat = retained(() => inputs.map((input) => flatString(keccak256(input))))
    // Measured: ~600 bytes a rope against ~90 flat.
    expect(flat).toBeLessThan(ropes / 3)
  })

  it('an interner hands back equal values, one shared copy each, and starts afresh past its bound', () => {
    const intern = createInterner(3)
    const values = ['active', 'load-1', 'active', '1000', 'load-1', 'x', 'y', 'active']
    expect(values.map((v) => intern(`${v}`))).toEqual(values)
    const unshared = retained(() => Array.from({ length: 20_000 }, (_, i) => createInterner()(`${'slug-'.repeat(4)}${i % 2}`)))
    const intern2 = createInterner()
    const sharedOne = retained(() => Array.from({ length: 20_000 }, (_, i) => intern2(`${'slug-'.repeat(4)}${i % 2}`)))
    expect(sharedOne).toBeLessThan(unshared / 3)
  })
})
