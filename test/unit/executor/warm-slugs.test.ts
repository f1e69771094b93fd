import { describe, expect, it } from 'vitest'
import { createWarmSlugs, WARM_AFTER_LAUNCH_REFRESHES } from '../../../daemon/executor/warm-slugs.ts'

describe('the projects a warm refresh covers (warm-slugs.ts)', () => {
  it('waiting and ticking ones; one that stopped waiting is carried for a few refreshes, reported as carried, then dropped', () => {
    const warm = createWarmSlugs()
    expect(warm.next('base', ['a', 'b'], ['t']).sort()).toEqual(['a', 'b', 't'])
    expect([...warm.carried('base')]).toEqual([])
    // `a` launched in a block the indexer read behind the head: no longer waiting, its first tick not run yet.
    for (let refresh = 0; refresh < WARM_AFTER_LAUNCH_REFRESHES; refresh++) {
      expect(warm.next('base', ['b'], ['t']).sort()).toEqual(['a', 'b', 't'])
      expect([...warm.carried('base')]).toEqual(['a'])
    }
    expect(warm.next('base', ['b'], ['t']).sort()).toEqual(['b', 't'])
    expect([...warm.carried('base')]).toEqual([])
  })

  it('stops carrying a project once it is ticked, and keeps chains apart', () => {
    const warm = createWarmSlugs()
    warm.next('base', ['a'], [])
    warm.next('second_chain', ['z'], [])
    expect(warm.next('base', [], ['a'])).toEqual(['a'])
    expect([...warm.carried('base')]).toEqual([])
    expect(warm.next('base', [], [])).toEqual([])
    expect(warm.next('second_chain', [], [])).toEqual(['z'])
    expect([...warm.carried('second_chain')]).toEqual(['z'])
  })
})
