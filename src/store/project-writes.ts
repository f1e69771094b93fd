import { PrebuyError } from '../common/errors.ts'
import type { LaunchInfo, ProjectRecord } from '../domain/records.ts'
import { del, put, type Store, type StoreOperation } from './open-store.ts'
import { projectChainKey } from './project-index.ts'

/** Fields fixed when a project is approved. */
const FIXED = ['slug', 'chain', 'ownerKeyId', 'registrationId', 'createdAt', 'status'] as const satisfies ReadonlyArray<keyof ProjectRecord>
/** What binds a project to its launch: editable while it waits, fixed once it launched. */
const BINDING = ['launchpad', 'creatorAddress', 'expectedTokenAddress', 'expectedSymbol', 'expectedName', 'launchMethod'] as const satisfies ReadonlyArray<
  keyof ProjectRecord
>

/**
 * The one way a project is written (its approval, profile edits, the indexer's launch mark and its undoing by a
 * reorg): the record and its index entries, for the writer's own atomic batch. Refuses, with an internal error, a new
 * project that is already launched, a change of a fixed field, a change of the launch binding once launched, and a
 * launch replaced by another one (a launch is set once, and only a reorg clears it).
 */
export function projectWriteOps(store: Store, previous: ProjectRecord | undefined, next: ProjectRecord): StoreOperation[] {
  const refuse = (why: string) => {
    throw new PrebuyError('invalid_project_change', `Project ${next.slug}: ${why}.`)
  }
  if (!previous) {
    if (next.launch !== null) refuse('a new project has not launched')
  } else {
    for (const field of FIXED) if (previous[field] !== next[field]) refuse(`${field} never changes`)
    if (previous.launch !== null && next.launch !== null) {
      for (const field of BINDING) if (previous[field] !== next[field]) refuse(`${field} is fixed once launched`)
      if (previous.launch.tokenAddress.toLowerCase() !== next.launch.tokenAddress.toLowerCase()) refuse('a launch is not replaced by another')
    }
  }
  const { projects, projectsByOwner, projectsByChain } = store.sub
  const ops: StoreOperation[] = [put(projects, next.slug, next)]
  if (!previous && next.ownerKeyId) ops.push(put(projectsByOwner, `${next.ownerKeyId}!${next.slug}`, next.slug))
  const key = projectChainKey(next)
  if (previous && projectChainKey(previous) !== key) ops.push(del(projectsByChain, projectChainKey(previous)))
  ops.push(put(projectsByChain, key, next.slug))
  return ops
}

/**
 * The indexer's launch mark (`launch` set when a registered project's token launched) and its undoing when a reorg
 * removes the launch block (`launch` null).
 */
export const projectLaunchOps = (store: Store, project: ProjectRecord, launch: LaunchInfo | null, at: number): StoreOperation[] =>
  projectWriteOps(store, project, { ...project, launch, updatedAt: at })
