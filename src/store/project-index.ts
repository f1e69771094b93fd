import type { ChainKey } from '../chain/chain-keys.ts'
import type { Launchpad, ProjectRecord } from '../domain/records.ts'
import { createHeldReads, type HeldReads } from './held-reads.ts'
import type { Store } from './open-store.ts'
import { readAll } from './paginate.ts'

/** Whether a project still waits for its launch or has launched (its `launch` is set). */
export type LaunchState = 'waiting' | 'launched'

export const launchStateOf = (project: Pick<ProjectRecord, 'launch'>): LaunchState => (project.launch === null ? 'waiting' : 'launched')

/** The project's entry in projectsByChain: `${chain}!${waiting|launched}!${launchpad}!${slug}`. */
export const projectChainKey = (project: Pick<ProjectRecord, 'chain' | 'launch' | 'launchpad' | 'slug'>): string =>
  `${project.chain}!${launchStateOf(project)}!${project.launchpad}!${project.slug}`

/**
 * Slugs of the projects on a chain in one launch state (optionally of one launchpad), from the index: what the
 * indexer matches launches against and the executor keeps warm, without reading every project.
 */
export async function projectSlugs(store: Store, chain: ChainKey, state: LaunchState, launchpad?: Launchpad): Promise<string[]> {
  const prefix = launchpad === undefined ? `${chain}!${state}!` : `${chain}!${state}!${launchpad}!`
  return (await readAll(store.sub.projectsByChain, prefix)).map((entry) => entry.value)
}

/** The launchpads of the projects waiting to launch on a chain. */
export async function waitingLaunchpads(store: Store, chain: ChainKey): Promise<Set<Launchpad>> {
  const out = new Set<Launchpad>()
  for (const { key } of await readAll(store.sub.projectsByChain, `${chain}!waiting!`)) out.add(key.split('!')[2] as Launchpad)
  return out
}

/** The records of the projects on a chain in one launch state (optionally of one launchpad). */
export async function projectsIn(store: Store, chain: ChainKey, state: LaunchState, launchpad?: Launchpad): Promise<ProjectRecord[]> {
  const slugs = await projectSlugs(store, chain, state, launchpad)
  const records = await store.sub.projects.getMany(slugs)
  return records.filter((record): record is ProjectRecord => record !== undefined)
}

/**
 * The slugs of each chain's projects in one launch state, held from a read until a write of that chain's index entries
 * (held-reads.ts: exact, not a timed cache). A project never changes chain, so a write moves entries within its own.
 */
export function heldProjectSlugs(store: Store, state: LaunchState): HeldReads<ChainKey, string[]> {
  return createHeldReads(store, {
    read: (chain: ChainKey) => projectSlugs(store, chain, state),
    dropped: (op) => (op.sublevel === store.sub.projectsByChain ? (op.key.slice(0, op.key.indexOf('!')) as ChainKey) : undefined),
  })
}
