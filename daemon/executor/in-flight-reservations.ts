import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { InFlightExecution } from '../../src/journal/journal-records.ts'
import type { Journal } from '../../src/journal/journal.ts'
import { createHeldReads } from '../../src/store/held-reads.ts'
import type { Store } from '../../src/store/open-store.ts'

/** A chain's in-flight executions and what they reserve, as one read of the journal found them. */
export interface InFlightOnChain {
  entries: readonly InFlightExecution[]
  /** Stablecoin each wallet has committed to in-flight buys on the chain (any launch), by lower-cased address. */
  byWallet: ReadonlyMap<string, bigint>
}

export interface InFlightReservations {
  /** The chain's in-flight executions and reservations: held from the last read until a write of the journal's in-flight entries. */
  of(chain: ChainKey): Promise<InFlightOnChain>
  /** Stops following the store's writes: from then on every call reads the journal. */
  stop(): void
}

/**
 * The in-flight reservations of each chain, read once and kept until a write changes them (issue 23 item 4).
 *
 * Every tick of a launched book asks them (its buys are sized against what each wallet already committed), and the
 * readying pass of a waiting book too, every block. Read from LevelDB each time, the read queued behind the warm
 * refresh's reads of the books: 2-7 ms of a tick after a PATCH at 17,000 orders, and 48 ms of a held tick that waited
 * behind a refresh (held-ticks bench, 2026-11-28, a stage trace of the daemon). Held, a tick that buys nothing reads
 * nothing.
 *
 * Exact, not a timed cache (held-reads.ts): a write of any in-flight entry of a chain drops what is held for it. Its
 * writers (a tick's executing batch, a settlement, a batch's moves) hold the chain lock until their write resolved, so
 * a reader under that lock never finds a read older than a write made before it took the lock.
 */
export function createInFlightReservations(store: Pick<Store, 'onBatch'>, journal: Pick<Journal, 'inFlight' | 'sub'>): InFlightReservations {
  return createHeldReads(store, {
    read: (chain: ChainKey) => journal.inFlight(chain).then((entries): InFlightOnChain => ({ entries, byWallet: reservedByWallet(entries) })),
    // Keys are `${chain}!${keyId}!${slug}` (journal.ts putInFlight).
    dropped: (op) => (op.sublevel === journal.sub.inFlight ? (op.key.slice(0, op.key.indexOf('!')) as ChainKey) : undefined),
  })
}

/** Stablecoin each wallet has committed to the entries, by lower-cased address. */
export function reservedByWallet(entries: readonly InFlightExecution[]): ReadonlyMap<string, bigint> {
  const out = new Map<string, bigint>()
  for (const entry of entries) {
    const key = entry.wallet.toLowerCase()
    out.set(key, (out.get(key) ?? 0n) + BigInt(entry.spendAtoms))
  }
  return out
}
