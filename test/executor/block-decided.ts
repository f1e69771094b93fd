import type { FlowHarness } from './flow-harness.ts'

/**
 * Waits until `block` was processed by the indexer (its `processed` signal: a quiet tick's decision is journaled only when
 * a verdict changes, so the signal is what is waited for) and, unless told otherwise, decided by an idle executor.
 */
export async function blockDecided(h: FlowHarness, block: bigint, options = { idle: true }): Promise<void> {
  await h.waitFor(`block ${block} processed`, async () =>
    h.signals.some((signal) => signal.type === 'processed' && signal.chain === 'base' && signal.blockNumber >= block),
  )
  if (options.idle) await h.executor.idle()
}
