import { describe, expect, it } from 'vitest'
import { packBundles } from '../../../../src/wallets/bundler/pack-bundles.ts'

describe('packBundles', () => {
  it('keeps order and fills each chunk up to the limit', () => {
    const chunks = packBundles([1, 2, 3, 4, 5, 6], (n) => BigInt(n) * 10n, 100n, 10n)
    expect(chunks).toEqual([[1, 2, 3], [4, 5], [6]])
    expect(chunks.flat()).toEqual([1, 2, 3, 4, 5, 6])
  })
  it('puts everything in one chunk when it fits and gives an oversized item its own', () => {
    expect(
      packBundles(
        Array.from({ length: 50 }, (_, i) => i),
        () => 1n,
        100n,
      ),
    ).toHaveLength(1)
    expect(packBundles([1, 500, 1], (n) => BigInt(n), 100n)).toEqual([[1], [500], [1]])
    expect(packBundles([], () => 1n, 10n)).toEqual([])
  })
})
