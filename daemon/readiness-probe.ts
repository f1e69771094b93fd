import { createPublicClient, http } from 'viem'
import type { ChainConfig, ChainKey } from '../src/chain/chain-keys.ts'
import { enabledChainKeys } from '../src/chain/enabled-chains.ts'
import { withDeadline } from '../src/common/with-deadline.ts'
import { type ChainObservation, judgeReadiness, type OwnContractObservation, type ReadinessReport } from '../src/domain/health/readiness.ts'
import { createJournal } from '../src/journal/journal.ts'
import type { Store } from '../src/store/open-store.ts'

/** Blocks the indexer may be behind a chain's head and still be ready: a minute on Base (2 s blocks). */
export const MAX_READY_LAG_BLOCKS = 30
/** How long a chain has to answer the probe's head read. */
const HEAD_DEADLINE_MS = 2_000

/**
 * GET /readyz's check for the running daemon: the store's health, each chain's head (read with a deadline, no
 * retries) and the indexer's stored checkpoint (its newest processed block), judged by judgeReadiness.
 */
export function createReadinessProbe(deps: {
  store: Store
  chains: Record<ChainKey, ChainConfig>
  /** Our own contracts per chain, re-read at each probe (daemon/chain/contracts-watch.ts); absent: not checked. */
  contracts?: () => Promise<Partial<Record<ChainKey, readonly OwnContractObservation[]>>>
}): () => Promise<ReadinessReport> {
  const journal = createJournal(deps.store)
  // A chain disabled in the config is not waited for.
  const enabled = enabledChainKeys(deps.chains)
  const clients = Object.fromEntries(
    enabled.map((key) => [key, createPublicClient({ transport: http(deps.chains[key].rpcUrl, { retryCount: 0, timeout: HEAD_DEADLINE_MS }) })]),
  ) as Record<ChainKey, ReturnType<typeof createPublicClient>>
  const headOf = (key: ChainKey) =>
    withDeadline(clients[key].getBlockNumber({ cacheTime: 0 }), HEAD_DEADLINE_MS, () => new Error('no answer')).catch(() => null)
  async function indexedOf(key: ChainKey): Promise<bigint | null> {
    if (!deps.store.health().open) return null
    const checkpoint = await journal.getCheckpoint(key)
    if (!checkpoint) return null
    return [checkpoint.finalized, ...checkpoint.unfinalized].reduce((tip, block) => (BigInt(block.number) > tip ? BigInt(block.number) : tip), 0n)
  }
  return async () => {
    const [chains, contracts] = await Promise.all([
      Promise.all(enabled.map(async (chain): Promise<ChainObservation> => ({ chain, head: await headOf(chain), indexed: await indexedOf(chain) }))),
      deps.contracts?.(),
    ])
    return judgeReadiness({ store: deps.store.health(), chains, maxLagBlocks: MAX_READY_LAG_BLOCKS, ...(contracts ? { contracts } : {}) })
  }
}
