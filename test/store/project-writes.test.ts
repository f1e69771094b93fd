import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LaunchInfo, ProjectRecord } from '../../src/domain/records.ts'
import { createJournal } from '../../src/journal/journal.ts'
import { migrateStore, STORE_VERSION } from '../../daemon/store/migrate-store.ts'
import { put, type Store } from '../../src/store/open-store.ts'
import { readAll } from '../../src/store/paginate.ts'
import { projectSlugs, projectsIn, waitingLaunchpads } from '../../src/store/project-index.ts'
import { projectLaunchOps, projectWriteOps } from '../../src/store/project-writes.ts'
import { projectRecord } from '../support/records.ts'
import { openTempStore } from '../support/temp-store.ts'

const project = (slug: string, patch: Partial<ProjectRecord> = {}) => projectRecord(slug, { ownerKeyId: 'owner1', ...patch })
const launch = (token: string): LaunchInfo => ({ chain: 'base', tokenAddress: token, symbol: 'A', name: 'A', decimals: 18, launchedAt: 5 })

describe('the project writer and its per-chain index', () => {
  let store: Store
  let remove: () => Promise<void>
  beforeEach(async () => {
    ;({ store, remove } = await openTempStore('project-writes'))
  })
  afterEach(() => remove())

  it('indexes projects by chain, launch state and launchpad; a launch mark and its undoing move the entry', async () => {
    const alpha = project('alpha')
    await store.batch([
      ...projectWriteOps(store, undefined, alpha),
      ...projectWriteOps(store, undefined, project('beta', { launchpad: 'zora', ownerKeyId: null })),
      ...projectWriteOps(store, undefined, project('gamma', { chain: 'second_chain' })),
    ])
    expect(await projectSlugs(store, 'base', 'waiting')).toEqual(['alpha', 'beta'])
    expect(await projectSlugs(store, 'base', 'waiting', 'zora')).toEqual(['beta'])
    expect([...(await waitingLaunchpads(store, 'base'))].sort()).toEqual(['clanker', 'zora'])
    expect(await readAll(store.sub.projectsByOwner, 'owner1!')).toEqual([
      { key: 'owner1!alpha', value: 'alpha' },
      { key: 'owner1!gamma', value: 'gamma' },
    ])

    await store.batch(projectLaunchOps(store, alpha, launch('0x00000000000000000000000000000000000000a7'), 9))
    expect(await projectSlugs(store, 'base', 'waiting')).toEqual(['beta'])
    expect((await projectsIn(store, 'base', 'launched')).map((p) => [p.slug, p.launch?.tokenAddress, p.updatedAt])).toEqual([
      ['alpha', '0x00000000000000000000000000000000000000a7', 9],
    ])
    const launched = (await store.sub.projects.get('alpha'))!
    await store.batch(projectLaunchOps(store, launched, null, 10))
    expect(await projectSlugs(store, 'base', 'launched')).toEqual([])
    expect(await projectSlugs(store, 'base', 'waiting', 'clanker')).toEqual(['alpha'])
  })

  it('refuses a launched new project, a change of a fixed field, a binding change once launched, and a second launch', () => {
    const refused = (fn: () => unknown) => expect(fn).toThrow(expect.objectContaining({ kind: 'internal', code: 'invalid_project_change' }))
    const alpha = project('alpha')
    const launched = { ...alpha, launch: launch('0x00000000000000000000000000000000000000a7') }
    refused(() => projectWriteOps(store, undefined, launched))
    refused(() => projectWriteOps(store, alpha, { ...alpha, chain: 'second_chain' }))
    refused(() => projectWriteOps(store, alpha, { ...alpha, ownerKeyId: 'someone-else' }))
    refused(() => projectWriteOps(store, launched, { ...launched, creatorAddress: '0x00000000000000000000000000000000000000c9' }))
    refused(() => projectWriteOps(store, launched, { ...launched, launch: launch('0x00000000000000000000000000000000000000b8') }))
    // While it waits, the binding may still be edited; a launch may be undone (reorg) and profile edits go anywhere.
    expect(projectWriteOps(store, alpha, { ...alpha, creatorAddress: '0x00000000000000000000000000000000000000c9' })).not.toHaveLength(0)
    expect(projectWriteOps(store, launched, { ...launched, launch: null })).not.toHaveLength(0)
    expect(
      projectWriteOps(store, launched, { ...launched, profile: { ...launched.profile, content: { ...launched.profile.content, bio: ['x'] } } }),
    ).not.toHaveLength(0)
  })

  it('migrating a store written before the index builds the index once and records the layout version', async () => {
    // A version-1 store: project records without index entries and no recorded version.
    await store.batch([
      put(store.sub.projects, 'alpha', project('alpha')),
      put(store.sub.projects, 'omega', project('omega', { launch: launch('0x00000000000000000000000000000000000000a7') })),
    ])
    await migrateStore(store)
    expect(await projectSlugs(store, 'base', 'waiting')).toEqual(['alpha'])
    expect(await projectSlugs(store, 'base', 'launched')).toEqual(['omega'])
    expect(await store.sub.meta.get('storeVersion')).toBe(STORE_VERSION)
    await migrateStore(store)
    expect(await readAll(store.sub.projectsByChain, '')).toHaveLength(2)
  })

  it('migrating to version 3 names the reverted buy in order events recorded before, from their reason text', async () => {
    const { orderEvents } = createJournal(store).sub
    const event = (reason: string | undefined, to: 'active' | 'filled' = 'active') => ({
      keyId: 'k1',
      slug: 'alpha',
      from: 'executing' as const,
      to,
      at: 1,
      ...(reason ? { reason } : {}),
    })
    await store.batch([
      put(store.sub.meta, 'storeVersion', 2),
      put(orderEvents, 'k1!alpha!1', event('TooLittleReceived(90, 100)')),
      put(orderEvents, 'k1!alpha!2', event('ERC20InsufficientBalance(0x1, 1, 2)')),
      put(orderEvents, 'k1!alpha!3', event('not sent (bundle_send_failed); the operation did not run')),
      put(orderEvents, 'k1!alpha!4', event('submission failed')),
      put(orderEvents, 'k1!alpha!5', event(undefined, 'filled')),
    ])
    await migrateStore(store)
    expect((await readAll(orderEvents, '')).map((e) => e.value.errorName)).toEqual([
      'TooLittleReceived',
      'ERC20InsufficientBalance',
      undefined,
      undefined,
      undefined,
    ])
  })

  it('refuses a store written by a newer version', async () => {
    await store.batch([put(store.sub.meta, 'storeVersion', STORE_VERSION + 1)])
    await expect(migrateStore(store)).rejects.toMatchObject({ code: 'store_too_new' })
  })
})
