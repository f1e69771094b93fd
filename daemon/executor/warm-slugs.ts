import type { ChainKey } from '../../src/chain/chain-keys.ts'

/**
 * Refreshes a project stays warm after it stopped waiting (it launched): its launch tick may run a block or more after
 * the launch block. When the indexer read that block behind the chain's head (at 200 ms blocks and 50 ms per request it
 * often does), the launch's tick is coalesced into the next head block (docs/execution.md §2, "Ticks when behind"), whose
 * warm refresh used to leave the project out (no longer waiting, not ticking yet): the tick then read its wallets'
 * balances itself, one round trip on the launch path (issue 23 item 3).
 */
export const WARM_AFTER_LAUNCH_REFRESHES = 3

/**
 * Which projects a chain's warm refresh covers (warm-books.ts `slugsOf`): the ones waiting to launch, the launched ones
 * being ticked, and, for WARM_AFTER_LAUNCH_REFRESHES refreshes, the ones that were waiting at an earlier refresh and
 * are neither any more (launched, their first tick not run yet; or gone: their orders load empty).
 */
export interface WarmSlugs {
  /** The slugs of this refresh; counts the refreshes of the carried ones. */
  next(chain: ChainKey, waiting: readonly string[], ticking: readonly string[]): string[]
  /**
   * The projects the last refresh of the chain carried though they no longer wait: what is readied ahead (deployments,
   * approvals, books prepared ahead: ready-ahead.ts) treats them as launched, never as waiting.
   */
  carried(chain: ChainKey): ReadonlySet<string>
}

export function createWarmSlugs(): WarmSlugs {
  const left = new Map<ChainKey, Map<string, number>>()
  const carriedNow = new Map<ChainKey, Set<string>>()
  return {
    next(chain, waiting, ticking) {
      const out = new Set([...waiting, ...ticking])
      const counts = new Map<string, number>()
      const carried = new Set<string>()
      for (const [slug, refreshes] of left.get(chain) ?? []) {
        if (out.has(slug) || refreshes <= 0) continue
        out.add(slug)
        carried.add(slug)
        if (refreshes > 1) counts.set(slug, refreshes - 1)
      }
      for (const slug of waiting) counts.set(slug, WARM_AFTER_LAUNCH_REFRESHES)
      left.set(chain, counts)
      carriedNow.set(chain, carried)
      return [...out]
    },
    carried: (chain) => carriedNow.get(chain) ?? new Set(),
  }
}
