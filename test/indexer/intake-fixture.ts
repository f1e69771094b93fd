import type { Log } from 'viem'
import type { LaunchpadAdapter } from '../../src/launchpads/launchpad-adapter.ts'

/** The emitter of the intake tests' stand-in launchpad. */
export const LAUNCHPAD_EMITTER = '0x00000000000000000000000000000000000000e1'

/** A log of the stand-in launchpad in block 10 (the intake tests' detectors decide what it means). */
export const launchLog = {
  address: LAUNCHPAD_EMITTER,
  topics: [`0x${'00'.repeat(31)}01`],
  data: '0x',
  transactionHash: `0x${'ab'.repeat(32)}`,
  blockNumber: 10n,
  blockHash: `0x${'cd'.repeat(32)}`,
  logIndex: 0,
  transactionIndex: 0,
  removed: false,
} as unknown as Log

/** The stand-in launchpad: a clanker id on LAUNCHPAD_EMITTER. */
export const standInAdapter = { id: 'clanker', launchEvent: { address: LAUNCHPAD_EMITTER, events: [] } } as unknown as LaunchpadAdapter
