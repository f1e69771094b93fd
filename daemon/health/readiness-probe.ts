import { createPublicClient } from 'viem'
import { blocksIn, TIMING_SECONDS } from '../../src/chain/block-seconds.ts'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { enabledChainKeys } from '../../src/chain/enabled-chains.ts'
import { withDeadline } from '../../src/common/with-deadline.ts'
import { type ChainHeads, createChainHeads } from '../../src/chain/chain-heads.ts'
import { type ChainTipObservation, judgeReadiness, type OwnContractObservation, type ReadinessReport } from '../../src/domain/health/readiness.ts'
import { createJournal } from '../../src/journal/journal.ts'
import type { Store } from '../../src/store/open-store.ts'
import { rpcHttp } from '../../src/chain/rpc-http.ts'

/**
 * Blocks the indexer may be behind a chain's head and still be ready, for a chain of 2-second blocks: a minute
 * (TIMING_SECONDS.readyLag). A chain with another block time gets the same minute in its blocks (300 of 200 ms on Base).
 */
export const MAX_READY_LAG_BLOCKS = blocksIn(TIMING_SECONDS.readyLag, 2)
/** How long a chain has to answer the probe's head read. */
const HEAD_DEADLINE_MS = 2_000

/**
 * GET /readyz's check for the running daemon: the store's health, each chain's head (read with a deadline, no
 * retries) and the indexer's stored checkpoint (its newest processed block), judged by judgeReadiness.
 */
export function createReadinessProbe(deps: {
  store: Store
  chains: Record<ChainKey, ChainConfig>
  heads?: ChainHeads
  /** Each chain's seconds per block (src/chain/block-seconds.ts); a chain left out counts 2-second blocks. */
  blockSeconds?: Partial<Record<ChainKey, number>>
  /** Our own contracts per chain, re-read at each probe (daemon/chain/contracts-watch.ts); absent: not checked. */
  contracts?: () => Promise<Partial<Record<ChainKey, readonly OwnContractObservation[]>>>
}): () => Promise<ReadinessReport> {
  const journal = createJournal(deps.store)
  // A chain disabled in the config is not waited for.
  const enabled = enabledChainKeys(deps.chains)
  const heads = deps.heads ?? createProbeHeads(deps.chains)
  // The shared heads answer from the indexer's sync when it read the head within their age, else fetch it (a stalled
  // indexer does not hide its lag: its head observations age out).
  const headOf = (key: ChainKey) => withDeadline(heads.head(key), HEAD_DEADLINE_MS, () => new Error('no answer')).catch(() => null)
  async function indexedOf(key: ChainKey): Promise<bigint | null> {
    if (!deps.store.health().open) return null
    const checkpoint = await journal.getCheckpoint(key)
    if (!checkpoint) return null
    return [checkpoint.finalized, ...checkpoint.unfinalized].reduce((tip, block) => (BigInt(block.number) > tip ? BigInt(block.number) : tip), 0n)
  }
  return async () => {
    const [chains, contracts] = await Promise.all([
      Promise.all(
        enabled.map(
          async (chain): Promise<ChainTipObservation> => ({
            chain,
            head: await headOf(chain),
            indexed: await indexedOf(chain),
            maxLagBlocks: blocksIn(TIMING_SECONDS.readyLag, deps.blockSeconds?.[chain] ?? 2),
          }),
        ),
      ),
      deps.contracts?.(),
    ])
    return judgeReadiness({ store: deps.store.health(), chains, maxLagBlocks: MAX_READY_LAG_BLOCKS, ...(contracts ? { contracts } : {}) })
  }
}

/** How old a head observed by the indexer's sync may be for the probe: five Base blocks (200 ms each, Denim). */
export const SHARED_HEAD_MAX_AGE_MS = 1_000

/**
 * The heads the readiness probe (and, in the daemon, the indexer's sync) share: read with the probe's deadline and no
 * retries, reused for SHARED_HEAD_MAX_AGE_MS after the sync observed or a probe read them.
 */
export function createProbeHeads(chains: Record<ChainKey, ChainConfig>): ChainHeads {
  const clients = Object.fromEntries(
    enabledChainKeys(chains).map((key) => [key, createPublicClient({ transport: rpcHttp(chains[key].rpcUrl, { retryCount: 0, timeout: HEAD_DEADLINE_MS }) })]),
  ) as Record<ChainKey, ReturnType<typeof createPublicClient>>
  return createChainHeads({ read: (key) => clients[key].getBlockNumber({ cacheTime: 0 }), maxAgeMs: SHARED_HEAD_MAX_AGE_MS })
}
