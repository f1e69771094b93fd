import { createLaunchWorkers } from '../../../daemon/workers/launch-workers.ts'
import type { WiredLaunchMethod } from '../worker/wired-launch-method.ts'

/**
 * Open market: the launch indexer and the order executor (daemon/indexer, daemon/executor), which buy on the launched
 * pool. Its contract, the buy router, is ensured by the executor's start (ensure-buy-router.ts), so resolve has
 * nothing to do. The indexer also records the launches of pooled OTC and dev-buy projects, which leave this path there.
 */
export function wireOpenMarket(): WiredLaunchMethod {
  return {
    name: 'open_market',
    resolve: async () => {},
    workers: (context) => createLaunchWorkers(context),
  }
}
