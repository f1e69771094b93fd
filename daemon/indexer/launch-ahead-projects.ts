import type { Address } from 'viem'
import { pendingOf } from '../../src/domain/owner-changes.ts'
import type { ProjectRecord } from '../../src/domain/records.ts'
import type { LaunchCandidate } from '../../src/launchpads/launchpad-adapter.ts'
import { mayBindAhead } from './may-bind-ahead.ts'

/**
 * The most projects a launch log's reads ahead are asked for (launch_ahead): with the launch's quotes shared by identical
 * calls (tick-quotes.ts), what a log costs is bounded by its distinct spends, batch totals and wallets over these.
 */
export const MAX_PROJECTS_AHEAD = 32

/** A waiting project's creator, and the one an owner's pending binding change proposes. */
export const creatorsOfProject = (p: ProjectRecord): Address[] => {
  const proposed = pendingOf(p, 'launch_binding')?.binding.creatorAddress
  return (proposed ? [p.creatorAddress, proposed] : [p.creatorAddress]) as Address[]
}

/** Tells `onLaunchAhead` a provisional candidate with the projects it may bind (mayBindAhead), at most MAX_PROJECTS_AHEAD. */
export const tellAhead =
  (projects: readonly ProjectRecord[], onLaunchAhead: (candidate: LaunchCandidate, slugs: string[]) => void) =>
  (candidate: LaunchCandidate): void => {
    const slugs = projects.filter((p) => mayBindAhead(p, candidate)).map((p) => p.slug)
    if (slugs.length > 0) onLaunchAhead(candidate, slugs.slice(0, MAX_PROJECTS_AHEAD))
  }
