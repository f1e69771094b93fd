import pino from 'pino'
import type { PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LaunchDetector } from '../../daemon/indexer/detect-launch.ts'
import { createLaunchIntake } from '../../daemon/indexer/launch-intake.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { createJournal, type Journal } from '../../src/journal/journal.ts'
import type { Store } from '../../src/store/open-store.ts'
import { projectWriteOps } from '../../src/store/project-writes.ts'
import { projectRecord } from '../support/records.ts'
import { openTempStore } from '../support/temp-store.ts'
import { launchLog, standInAdapter } from './intake-fixture.ts'

/**
 * A block with a launch log reads the chain's launch candidates (LevelDB) once: `due` retries from them and the judge
 * holds projects by them, and the read starts with the log's prefetch, while the receipt is out, so the judge after
 * the receipt does not wait on LevelDB (issue 23 item 3: 2-9 ms between the decoding and the binding in the latency
 * bench before). Real LevelDB; the detector is a stand-in whose decoding names an unrelated deployer.
 */
let temp: Awaited<ReturnType<typeof openTempStore>>
let store: Store
let journal: Journal
let candidateReads = 0

const log = launchLog

beforeAll(async () => {
  temp = await openTempStore('intake-candidates')
  store = temp.store
  const real = createJournal(store)
  journal = new Proxy(real, {
    get(target, property, receiver) {
      if (property === 'candidates') {
        return (...args: Parameters<Journal['candidates']>) => {
          candidateReads++
          return target.candidates(...args)
        }
      }
      return Reflect.get(target, property, receiver)
    },
  })
  await store.batch(projectWriteOps(store, undefined, projectRecord('waiting-one', { launchpad: 'clanker', chain: 'base' })))
})
afterAll(async () => {
  await temp?.remove()
})

describe('the launch intake of one block', () => {
  it('reads the chain’s candidates once, from the launch log’s prefetch on', async () => {
    const adapter = standInAdapter
    const detector: LaunchDetector = {
      adapterOf: () => adapter,
      waitingLaunchpads: async () => new Set(['clanker']),
      readAhead: () => undefined,
      // Someone else's launch on the same launchpad: judged against the waiting project, unrelated.
      decode: async () => ({
        kind: 'unsupported',
        reason: 'test',
        launch: {
          launchpad: 'clanker',
          token: '0x00000000000000000000000000000000000000f1',
          deployer: '0x00000000000000000000000000000000000000d9',
          claimedCreators: [],
          name: 'Other',
          symbol: 'OTHER',
          txHash: log.transactionHash!,
          blockNumber: 10n,
          blockHash: log.blockHash!,
          launchedAt: 1,
          logIndex: 0,
        },
      }),
      complete: async () => {
        throw new Error('nothing binds in this test')
      },
    }
    const intake = createLaunchIntake({
      store,
      journal,
      chain: { key: 'base' } as ChainConfig,
      client: {} as PublicClient,
      detector,
      sharedDeployers: new Set(),
      log: pino({ level: 'silent' }),
      now: () => 1,
      blockSeconds: 0.2,
    })
    const session = intake({ number: 10n, hash: log.blockHash!, timestamp: 1n }, async () => undefined)
    session.prefetch([log])
    // The prefetch reads the waiting projects first (LevelDB, off the thread): wait on the condition, with a deadline.
    const deadline = Date.now() + 10_000
    while (candidateReads === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(candidateReads).toBe(1)
    await session.due()
    expect(await session.scan(log, [log])).toEqual([])
    expect(candidateReads).toBe(1)
    expect(session.result()).toEqual({ launches: [], ops: [] })
  })
})
