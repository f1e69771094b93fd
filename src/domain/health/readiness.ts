import type { ChainKey } from '../../chain/chain-keys.ts'

/** What a chain looked like to the readiness probe: its head (null: it did not answer in time) and our indexed tip. */
export interface ChainObservation {
  chain: ChainKey
  head: bigint | null
  indexed: bigint | null
  /** This chain's largest lag still ready, when it differs from `ReadinessInput.maxLagBlocks` (its block time does). */
  maxLagBlocks?: number
}

export interface ReadinessInput {
  store: { open: boolean; writable: boolean }
  chains: readonly ChainObservation[]
  /** Largest indexer lag (blocks behind the head) still ready. */
  maxLagBlocks: number
}

export interface ReadinessReport {
  ready: boolean
  /** Why not, in one line per failing check; empty when ready. */
  problems: string[]
  checks: {
    store: 'ok' | 'closed' | 'write_failed'
    chains: Record<string, { head: string | null; indexed: string | null; lagBlocks: string | null; status: 'ok' | 'unreachable' | 'behind' | 'not_indexed' }>
  }
}

/**
 * Whether the daemon can do its job now: the store is open and its last write succeeded (LevelDB refuses every write
 * after a failed one until the daemon restarts), every chain answers, and the indexer is at most `maxLagBlocks`
 * behind each head (a launch further behind would be seen too late to buy). Pure: the daemon gathers the input.
 */
export function judgeReadiness(input: ReadinessInput): ReadinessReport {
  const problems: string[] = []
  const store = !input.store.open ? 'closed' : !input.store.writable ? 'write_failed' : 'ok'
  if (store === 'closed') problems.push('the store is closed')
  if (store === 'write_failed') problems.push('the store refused a write (disk full or read-only?): restart the daemon once fixed')
  const chains: ReadinessReport['checks']['chains'] = {}
  for (const { chain, head, indexed, maxLagBlocks = input.maxLagBlocks } of input.chains) {
    const lag = head !== null && indexed !== null ? (head > indexed ? head - indexed : 0n) : null
    const status = head === null ? 'unreachable' : indexed === null ? 'not_indexed' : lag! > BigInt(maxLagBlocks) ? 'behind' : 'ok'
    if (status === 'unreachable') problems.push(`${chain}: the chain does not answer`)
    if (status === 'not_indexed') problems.push(`${chain}: the indexer has not processed a block yet`)
    if (status === 'behind') problems.push(`${chain}: the indexer is ${lag} blocks behind (at most ${maxLagBlocks})`)
    chains[chain] = { head: head?.toString() ?? null, indexed: indexed?.toString() ?? null, lagBlocks: lag?.toString() ?? null, status }
  }
  return { ready: problems.length === 0, problems, checks: { store, chains } }
}
