import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { Launchpad, ProjectRecord } from '../../src/domain/records.ts'
import { createHeldReads, EVERY_KEY } from '../../src/store/held-reads.ts'
import type { Store, StoreOperation } from '../../src/store/open-store.ts'
import { projectsIn, waitingLaunchpads } from '../../src/store/project-index.ts'

/** The projects waiting to launch on one chain, kept in memory between blocks (see createWaitingProjects). */
export interface WaitingProjects {
  /** The launchpads with a project waiting on the chain. */
  launchpads(): Promise<Set<Launchpad>>
  /** The projects waiting on the chain and launchpad. */
  of(launchpad: Launchpad): Promise<ProjectRecord[]>
  /** Starts the reads of what is not held (after a block: the next block's launch log then finds them in memory). */
  warm(): void
  /** Stops following the store's writes. */
  stop(): void
}

/**
 * The indexer's view of the waiting projects, read once and kept until a write changes it (issue 23 item 3).
 *
 * A launch log's receipt and reads ahead start only for a launchpad with a project waiting (most launches on a busy
 * chain are not ours), and the intake read that from LevelDB in every block: the project index, then the records.
 * Those two reads ran at the launch log's arrival, before its receipt was asked: 10 ms of the split bench's launch
 * (2026-11-27, the fetch log and a CPU profile of the bench), more on a loaded host. Held here, the launch block's
 * receipt goes out in the turn its log arrives.
 *
 * Read from its creation on, and again right after a write dropped it. Exact, not a timed cache (held-reads.ts): any
 * write to the project records or their chain index drops everything held.
 */
export function createWaitingProjects(store: Store, chain: ChainKey): WaitingProjects {
  const touches = (op: StoreOperation) => (op.sublevel === store.sub.projects || op.sublevel === store.sub.projectsByChain ? EVERY_KEY : undefined)
  // What a write dropped is read again right after it (once per turn of writes), not at the next launch log.
  let rereading = false
  let stopped = false
  const onDropped = () => {
    if (rereading || stopped) return
    rereading = true
    setImmediate(() => {
      rereading = false
      if (!stopped) api.warm()
    })
  }
  const launchpads = createHeldReads(store, { read: () => waitingLaunchpads(store, chain), dropped: touches, onDropped })
  const records = createHeldReads(store, { read: (launchpad: Launchpad) => projectsIn(store, chain, 'waiting', launchpad), dropped: touches })

  const api: WaitingProjects = {
    launchpads: () => launchpads.of(undefined),
    of: (launchpad) => records.of(launchpad),
    warm() {
      api.launchpads().then(
        (held) => {
          for (const launchpad of held) api.of(launchpad).catch(() => undefined)
        },
        () => undefined,
      )
    },
    stop() {
      stopped = true
      launchpads.stop()
      records.stop()
    },
  }
  api.warm()
  return api
}
