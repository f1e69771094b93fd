import { describe, expect, it } from 'vitest'
import { lazyLookup, lazyLookupsBuilt } from '../../../daemon/executor/lazy-lookup.ts'

describe('lazyLookup (docs/execution.md §8, "The launch tick\'s CPU from its start to the first collect, profiled")', () => {
  it('builds its map only when first asked, and once', () => {
    let builds = 0
    const before = lazyLookupsBuilt()
    const lookup = lazyLookup(() => {
      builds++
      return new Map([['a', 1]])
    })
    expect(builds).toBe(0)
    expect(lookup.built).toBe(false)
    expect(lookup.get('a')).toBe(1)
    expect(lookup.get('b')).toBeUndefined()
    lookup.build()
    expect(builds).toBe(1)
    expect(lookup.built).toBe(true)
    expect(lazyLookupsBuilt() - before).toBe(1)
  })

  it('build() builds it without a key', () => {
    let builds = 0
    const lookup = lazyLookup(() => {
      builds++
      return new Map<string, number>()
    })
    lookup.build()
    lookup.build()
    expect(builds).toBe(1)
  })
})
