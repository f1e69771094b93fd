import { describe, expect, it } from 'vitest'
import { HISTORY_LIMIT, rememberFinalized } from '../../../src/sync/finalized-history.ts'
import type { BlockRef } from '../../../src/sync/sync-types.ts'

const ref = (n: number): BlockRef => ({ number: BigInt(n), hash: `0x${n.toString(16).padStart(64, '0')}`, parentHash: '0x00', timestamp: BigInt(n * 2) })

/** Finalizes blocks start+1..end one by one, as the sync does, and returns the history after each. */
function walk(start: number, end: number): BlockRef[] {
  let history: BlockRef[] = []
  for (let n = start + 1; n <= end; n++) history = rememberFinalized(history, ref(n - 1), BigInt(n))
  return history
}

describe('finalized history', () => {
  it('keeps one block per power-of-two distance below the finalized block, newest first', () => {
    const history = walk(0, 1000)
    const distances = history.map((r) => 1000 - Number(r.number))
    expect(distances[0]).toBe(1)
    for (let i = 1; i < distances.length; i++) {
      expect(distances[i]!).toBeGreaterThan(distances[i - 1]!)
      // One per bucket: never two entries with the same floor(log2(distance)).
      expect(Math.floor(Math.log2(distances[i]!))).toBeGreaterThan(Math.floor(Math.log2(distances[i - 1]!)))
    }
    // It reaches back at least half way to the first block and never further than it.
    expect(distances.at(-1)!).toBeGreaterThanOrEqual(500)
    expect(distances.at(-1)!).toBeLessThanOrEqual(1000)
  })

  it('has, for any loss of d blocks, a remembered block within a factor of two below it', () => {
    const history = walk(0, 5000)
    for (const d of [1, 2, 3, 13, 100, 777, 2048, 4000]) {
      const below = history.filter((r) => 5000 - Number(r.number) >= d)
      expect(below.length, `loss of ${d}`).toBeGreaterThan(0)
      expect(5000 - Number(below[0]!.number)).toBeLessThan(2 * d + 1)
    }
  })

  it('is bounded whatever the chain length', () => {
    let history: BlockRef[] = []
    for (let n = 1; n <= 2_000; n++) history = rememberFinalized(history, ref(n * 1_000_003 - 1), BigInt(n * 1_000_003))
    expect(history.length).toBeLessThanOrEqual(HISTORY_LIMIT)
  })

  it('drops blocks at or above the finalized one (after a reorg moved finality down)', () => {
    const history = rememberFinalized([ref(90), ref(95)], ref(99), 96n)
    expect(history.map((r) => r.number)).toEqual([95n, 90n])
  })
})
