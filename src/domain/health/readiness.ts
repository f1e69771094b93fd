import type { ChainKey } from '../../chain/chain-keys.ts'

/** What a chain looked like to the readiness probe: its head (null: it did not answer in time) and our indexed tip. */
export interface ChainTipObservation {
  chain: ChainKey
  head: bigint | null
  indexed: bigint | null
  /** This chain's largest lag still ready, when it differs from `ReadinessInput.maxLagBlocks` (its block time does). */
  maxLagBlocks?: number
}

/** One of this service's own contracts on a chain (buy router, OTC settlement...): deployed, missing, or null: unknown. */
export interface OwnContractObservation {
  name: string
  address: string
  deployed: boolean | null
}

export interface ReadinessInput {
  store: { open: boolean; writable: boolean }
  chains: readonly ChainTipObservation[]
  /** Our own contracts per chain (real chains: deployed by `prebuy contracts deploy`); absent: not checked. */
  contracts?: Partial<Record<ChainKey, readonly OwnContractObservation[]>>
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
    /** Per chain: every one of our contracts deployed, some missing, or some not read (present when checked). */
    contracts?: Record<string, 'ok' | 'missing' | 'unknown'>
  }
}

/**
 * Whether the daemon can do its job now: the store is open and its last write succeeded (LevelDB refuses every write
 * after a failed one until the daemon restarts), every chain answers, our own contracts are deployed (when checked:
 * without the buy router nothing can be bought), and the indexer is at most `maxLagBlocks` behind each head (a launch further behind would be seen too late to buy). Pure: the daemon gathers the input.
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
  if (input.contracts === undefined) return { ready: problems.length === 0, problems, checks: { store, chains } }
  const contracts: Record<string, 'ok' | 'missing' | 'unknown'> = {}
  for (const [chain, list] of Object.entries(input.contracts)) {
    const missing = (list ?? []).filter((c) => c.deployed === false)
    const unknown = (list ?? []).filter((c) => c.deployed === null)
    contracts[chain] = missing.length > 0 ? 'missing' : unknown.length > 0 ? 'unknown' : 'ok'
    if (missing.length > 0) {
      const named = missing.map((c) => `${c.name} at ${c.address}`).join(', ')
      problems.push(`${chain}: our contracts are not deployed (${named}): run \`prebuy contracts deploy --chain ${chain}\``)
    } else if (unknown.length > 0) problems.push(`${chain}: could not read whether our contracts are deployed`)
  }
  return { ready: problems.length === 0, problems, checks: { store, chains, contracts } }
}
