import pino from 'pino'
import type { PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LaunchDetector } from '../../daemon/indexer/detect-launch.ts'
import { createLaunchIntake } from '../../daemon/indexer/launch-intake.ts'
import { createWaitingProjects } from '../../daemon/indexer/waiting-projects.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { createJournal } from '../../src/journal/journal.ts'
import type { Store } from '../../src/store/open-store.ts'
import { projectLaunchOps, projectWriteOps } from '../../src/store/project-writes.ts'
import { projectRecord } from '../support/records.ts'
import { openTempStore } from '../support/temp-store.ts'
import { launchLog, standInAdapter } from './intake-fixture.ts'

/**
 * The waiting projects held in memory by the indexer (daemon/indexer/waiting-projects.ts; issue 23 item 3): a launch
 * log's receipt and reads ahead go out in the turn the log arrives, without the LevelDB reads of the project index and
 * records before them, and what is held is exact: any write of a project or its index drops it. Real LevelDB.
 */
let temp: Awaited<ReturnType<typeof openTempStore>>
let store: Store

beforeAll(async () => {
  temp = await openTempStore('waiting-projects')
  store = temp.store
  await store.batch(projectWriteOps(store, undefined, projectRecord('wait-clanker', { launchpad: 'clanker', chain: 'base' })))
})
afterAll(async () => {
  await temp?.remove()
})

const slugs = async (read: Promise<Array<{ slug: string }>>) => (await read).map((p) => p.slug).sort()
/** Microtasks only, no turn of the event loop: LevelDB cannot answer within them (its answers come as I/O callbacks). */
const microtasks = async () => {
  for (let i = 0; i < 50; i++) await Promise.resolve()
}

describe('the waiting projects held in memory', () => {
  it('are read once, and read again after any write of a project', async () => {
    const waiting = createWaitingProjects(store, 'base')
    try {
      const first = waiting.of('clanker')
      expect(waiting.of('clanker')).toBe(first)
      expect(await slugs(first)).toEqual(['wait-clanker'])
      expect([...(await waiting.launchpads())]).toEqual(['clanker'])

      // A project registered: held no more; the next read has it, on another launchpad too.
      await store.batch(projectWriteOps(store, undefined, projectRecord('wait-zora', { launchpad: 'zora', chain: 'base' })))
      expect(waiting.of('clanker')).not.toBe(first)
      expect([...(await waiting.launchpads())].sort()).toEqual(['clanker', 'zora'])
      expect(await slugs(waiting.of('zora'))).toEqual(['wait-zora'])

      // A project launched: no longer waiting.
      const zora = (await store.sub.projects.get('wait-zora'))!
      const mark = {
        chain: 'base' as const,
        tokenAddress: '0x00000000000000000000000000000000000000f1',
        symbol: 'Z',
        name: 'Z',
        decimals: 18,
        launchedAt: 1,
        blockNumber: '1',
        txHash: `0x${'ab'.repeat(32)}`,
      }
      await store.batch(projectLaunchOps(store, zora, mark as never, 2))
      expect(await slugs(waiting.of('zora'))).toEqual([])
      expect([...(await waiting.launchpads())]).toEqual(['clanker'])

      // A write landing while a read is under way: that read is not kept.
      const during = waiting.of('doppler')
      await store.batch(projectWriteOps(store, undefined, projectRecord('wait-doppler', { launchpad: 'doppler', chain: 'base' })))
      await during
      expect(await slugs(waiting.of('doppler'))).toEqual(['wait-doppler'])
    } finally {
      waiting.stop()
    }
  })

  it('let a launch log’s reads ahead start in the turn the log arrives', async () => {
    const log = launchLog
    const adapter = standInAdapter
    let readsAhead = 0
    const detector = {
      adapterOf: () => adapter,
      waitingLaunchpads: async () => new Set(['clanker']),
      readAhead: () => {
        readsAhead++
      },
    } as unknown as LaunchDetector
    const waiting = createWaitingProjects(store, 'base')
    try {
      waiting.warm()
      await waiting.of('clanker')
      const intake = createLaunchIntake({
        store,
        journal: createJournal(store),
        chain: { key: 'base' } as ChainConfig,
        client: {} as PublicClient,
        detector,
        sharedDeployers: new Set(),
        log: pino({ level: 'silent' }),
        now: () => 1,
        blockSeconds: 0.2,
        waiting,
      })
      const session = intake({ number: 10n, hash: log.blockHash!, timestamp: 1n }, async () => undefined)
      session.prefetch([log])
      // Before: the prefetch read the project index and records from LevelDB first, so no read ahead had started here.
      await microtasks()
      expect(readsAhead).toBe(1)
    } finally {
      waiting.stop()
    }
  })
})
