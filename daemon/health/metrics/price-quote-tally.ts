import type { ChainKey } from '../../../src/chain/chain-keys.ts'
import type { QuoteDisagreement } from '../../executor/tick-quotes.ts'

/**
 * Counts of formula-vs-quote disagreements (per chain and launchpad) and of unanswered quotes (per chain), kept from the
 * executor's start: the executor starts before the metrics registry exists, which reads these at each scrape.
 */
export interface PriceQuoteTally {
  disagreements: Map<string, { chain: ChainKey; launchpad: string; kind: string; count: number }>
  failures: Map<ChainKey, number>
  onDisagreement(disagreement: QuoteDisagreement): void
  onFailure(chain: ChainKey): void
}

export function createPriceQuoteTally(): PriceQuoteTally {
  const disagreements: PriceQuoteTally['disagreements'] = new Map()
  const failures: PriceQuoteTally['failures'] = new Map()
  return {
    disagreements,
    failures,
    onDisagreement({ chain, launchpad, comparison }) {
      // Which way: a dearer real swap is what the formula would have bought into; a cheaper one is expected where the
      // formula prices an upper bound (a Clanker dynamic-fee pool at its hook's maxLpFee, docs/execution.md).
      const kind = comparison.kind === 'swaps_differ' ? 'swaps_differ' : comparison.deviationBps > 0 ? 'quote_dearer' : 'quote_cheaper'
      const key = `${chain}|${launchpad}|${kind}`
      const entry = disagreements.get(key) ?? { chain, launchpad, kind, count: 0 }
      entry.count++
      disagreements.set(key, entry)
    },
    onFailure(chain) {
      failures.set(chain, (failures.get(chain) ?? 0) + 1)
    },
  }
}
