import type { ChainKey } from '../../src/chain/chain-keys.ts'

/**
 * How many reorgs the indexer has signalled per chain. The executor bumps a chain's count on the signal, before the fill
 * revalidation is queued (start-executor.ts). A settle reads the chain outside the chain lock and writes under it; the
 * revalidation checks only fills already written. A settle that read a buy or a batch's fate before a reorg and reached
 * the lock after the revalidation would record a fill in a block the chain no longer has, and nothing would look at it
 * again. So a settle notes the count before its reads and writes only if the count is the same under the lock;
 * otherwise it reads the chain again (run-tick.ts) or is asked again on the next block (run-batch.ts).
 */
export interface ReorgEpochs {
  of(chain: ChainKey): number
  bump(chain: ChainKey): void
}

export function createReorgEpochs(): ReorgEpochs {
  const counts = new Map<ChainKey, number>()
  return {
    of: (chain) => counts.get(chain) ?? 0,
    bump: (chain) => void counts.set(chain, (counts.get(chain) ?? 0) + 1),
  }
}
