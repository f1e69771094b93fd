import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { LaunchInfo, ProjectRecord } from '../../src/domain/records.ts'
import { put, type Store } from '../../src/store/open-store.ts'
import { heldProjectSlugs, projectSlugs } from '../../src/store/project-index.ts'
import { projectLaunchOps, projectWriteOps } from '../../src/store/project-writes.ts'
import { projectRecord } from '../support/records.ts'
import { openTempStore } from '../support/temp-store.ts'

const launch = (chain: ChainKey): LaunchInfo => ({
  chain,
  tokenAddress: '0x00000000000000000000000000000000000000a7',
  symbol: 'A',
  name: 'A',
  decimals: 18,
  launchedAt: 5,
})

/** The held slugs of the executor's warm refresh (executor-context.ts), on a real LevelDB. */
describe('heldProjectSlugs', () => {
  let store: Store
  let remove: () => Promise<void>
  beforeEach(async () => {
    ;({ store, remove } = await openTempStore('held-project-slugs'))
  })
  afterEach(() => remove())

  it('holds a chain read until a write of that chain index; a launch moves a slug out of the waiting ones', async () => {
    const alpha = projectRecord('alpha')
    await store.batch([...projectWriteOps(store, undefined, alpha), ...projectWriteOps(store, undefined, projectRecord('gamma', { chain: 'second_chain' }))])
    const held = heldProjectSlugs(store, 'waiting')
    const first = await held.of('base')
    expect(first).toEqual(['alpha'])
    // Held: the same answer, not a read again.
    expect(await held.of('base')).toBe(first)
    // A write of the other chain's index, or of no index (a plain record elsewhere), keeps it.
    await store.batch(projectWriteOps(store, undefined, projectRecord('delta', { chain: 'second_chain' })))
    await store.batch([put(store.sub.users, 'k1', { keyId: 'k1' } as never)])
    expect(await held.of('base')).toBe(first)
    expect(await held.of('second_chain')).toEqual(['delta', 'gamma'])

    // A new project on the chain: read again, with it.
    await store.batch(projectWriteOps(store, undefined, projectRecord('beta', { launchpad: 'zora' })))
    expect(await held.of('base')).toEqual(['alpha', 'beta'])
    // Launched: no longer waiting.
    await store.batch(projectLaunchOps(store, alpha, launch('base'), 9))
    expect(await held.of('base')).toEqual(['beta'])
    held.stop()
  })

  it('always equals a fresh read of the index, whatever the writes (property)', async () => {
    const held = { waiting: heldProjectSlugs(store, 'waiting'), launched: heldProjectSlugs(store, 'launched') }
    const step = fc.record({
      slug: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      chain: fc.constantFrom<ChainKey>('base', 'second_chain'),
      launchpad: fc.constantFrom<ProjectRecord['launchpad']>('clanker', 'doppler', 'zora'),
      launched: fc.boolean(),
      ask: fc.boolean(),
    })
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 14 }), async (steps) => {
        for (const s of steps) {
          const previous = await store.sub.projects.get(s.slug)
          // A project keeps its chain (a fixed field); a waiting one may change launchpad; launched or back (a reorg).
          const base = previous ?? projectRecord(s.slug, { chain: s.chain, launchpad: s.launchpad })
          const launchpad = base.launch === null ? s.launchpad : base.launchpad
          // A new project waits first (the writer refuses one already launched).
          const next: ProjectRecord = { ...base, launchpad, launch: s.launched && previous ? launch(base.chain) : null, updatedAt: base.updatedAt + 1 }
          await store.batch(projectWriteOps(store, previous, next))
          if (!s.ask) continue
          for (const chain of ['base', 'second_chain'] as const)
            for (const state of ['waiting', 'launched'] as const) expect(await held[state].of(chain)).toEqual(await projectSlugs(store, chain, state))
        }
        for (const chain of ['base', 'second_chain'] as const)
          for (const state of ['waiting', 'launched'] as const) expect(await held[state].of(chain)).toEqual(await projectSlugs(store, chain, state))
      }),
      { numRuns: 40 },
    )
    held.waiting.stop()
    held.launched.stop()
  })
})
