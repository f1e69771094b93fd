import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { Launchpad, ProjectRecord } from '../../src/domain/records.ts'
import type { Store } from '../../src/store/open-store.ts'
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
 * Read from its creation on, and again right after a write dropped it. Exact, not a timed cache: every write of the service goes through `store.batch`, whose `onBatch` listeners run
 * synchronously after the write (open-store.ts), and any write to the project records or their chain index drops
 * everything held. A read under way when such a write lands is handed to those who asked already (as a read racing the
 * write always was) but not kept.
 */
export function createWaitingProjects(store: Store, chain: ChainKey): WaitingProjects {
  let launchpadsHeld: Promise<Set<Launchpad>> | undefined
  const held = new Map<Launchpad, Promise<ProjectRecord[]>>()
  // What a write dropped is read again right after it (once per turn of writes), not at the next launch log.
  let rereading = false
  const unsubscribe = store.onBatch((operations) => {
    for (const op of operations) {
      if (op.sublevel === store.sub.projects || op.sublevel === store.sub.projectsByChain) {
        launchpadsHeld = undefined
        held.clear()
        if (!rereading && !stopped) {
          rereading = true
          setImmediate(() => {
            rereading = false
            if (!stopped) api.warm()
          })
        }
        return
      }
    }
  })
  let stopped = false
  // A failed read is not kept: the next caller reads again.
  const forgetOnFailure = <T>(read: Promise<T>, forget: () => void): Promise<T> => {
    read.catch(forget)
    return read
  }

  const api: WaitingProjects = {
    launchpads() {
      if (!launchpadsHeld) {
        const read = waitingLaunchpads(store, chain)
        launchpadsHeld = read
        forgetOnFailure(read, () => {
          if (launchpadsHeld === read) launchpadsHeld = undefined
        })
      }
      return launchpadsHeld
    },
    of(launchpad) {
      let read = held.get(launchpad)
      if (!read) {
        const reading = projectsIn(store, chain, 'waiting', launchpad)
        held.set(launchpad, reading)
        forgetOnFailure(reading, () => {
          if (held.get(launchpad) === reading) held.delete(launchpad)
        })
        read = reading
      }
      return read
    },
    warm() {
      api.launchpads().then(
        (launchpads) => {
          for (const launchpad of launchpads) api.of(launchpad).catch(() => undefined)
        },
        () => undefined,
      )
    },
    stop() {
      stopped = true
      unsubscribe()
    },
  }
  api.warm()
  return api
}
