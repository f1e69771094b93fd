import type { Address } from 'viem'
import type { LaunchedToken } from '../../devnet/launchpads/launch-token.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import type { FlowHarness } from './flow-harness.ts'
import { CONSTANT_FEE } from './probe-launch.ts'

/** A launch's batch records by sequence (batch-journal.ts). */
export type BatchOf = (sequence: number) => Promise<BatchRecord | undefined>

/**
 * Launches `slug` on Doppler with CONSTANT_FEE once the indexer caught up with the head and the executor is idle (the
 * orders placed and approved before are in its book), and waits until the indexer processed the launch block. Returns
 * the launch and its batches.
 */
export async function launchWithBatches(h: FlowHarness, slug: string, creator: Address): Promise<{ launched: LaunchedToken; batch: BatchOf }> {
  await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
  await h.executor.idle()
  const launched = await h.launch(slug, 'doppler', creator, CONSTANT_FEE)
  await h.indexer.caughtUp('base', launched.blockNumber)
  const launch = (await h.journal.getLaunchBySlug(slug))!
  const batches = createBatchJournal(h.store)
  return { launched, batch: (sequence) => batches.get('base', slug, launch.blockNumber, sequence) }
}
