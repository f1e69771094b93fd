import { Counter, Gauge, type Registry } from 'prom-client'
import { createJournal } from '../../../src/journal/journal.ts'
import type { OrderEvent } from '../../../src/journal/journal-records.ts'
import type { Store } from '../../../src/store/open-store.ts'

/**
 * What the indexer and the executor did, from the records they write: every order transition the executor commits
 * (fills, failures, expiries, ...) is counted as its batch lands (store.onBatch, the one write path), and launches and
 * launch candidates are counted from the journal at each scrape (a handful of records; exact after a restart).
 */
export function createJournalMetrics(registry: Registry, store: Store): { stop(): void } {
  const journal = createJournal(store)
  const transitions = new Counter({
    name: 'prebuy_order_transitions_total',
    help: 'Order state transitions committed since the daemon started (to="filled": fills; to="failed": failed buys).',
    labelNames: ['from', 'to'] as const,
    registers: [registry],
  })
  new Gauge({
    name: 'prebuy_launches',
    help: 'Launches of registered projects the indexer bound, by chain and launchpad.',
    labelNames: ['chain', 'launchpad'] as const,
    registers: [registry],
    async collect() {
      this.reset()
      if (!store.health().open) return
      for await (const launch of journal.sub.launches.values()) this.inc({ chain: launch.chain, launchpad: launch.launchpad })
    },
  })
  new Gauge({
    name: 'prebuy_launch_candidates',
    help: 'Launches that touched a project without binding it, by status (rejected, awaiting_confirmation, ...).',
    labelNames: ['chain', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset()
      if (!store.health().open) return
      for await (const candidate of journal.sub.candidates.values()) this.inc({ chain: candidate.chain, status: candidate.status })
    },
  })
  const stop = store.onBatch((operations) => {
    for (const op of operations) {
      if (op.type !== 'put' || op.sublevel !== journal.sub.orderEvents) continue
      const event = op.value as OrderEvent
      transitions.inc({ from: event.from, to: event.to })
    }
  })
  return { stop }
}
