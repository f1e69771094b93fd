import type { FastifyInstance } from 'fastify'
import type { BackgroundWorker, WorkerContext } from '../background-workers.ts'
import { devnetLaunchRoutes } from './devnet-launch-routes.ts'

/**
 * Extra admin routes contributed by other parts of the daemon. They are registered on the admin app behind the same
 * operator-token guard and error handling as the built-in routes; use paths under `/admin/v1/`.
 */
export type AdminExtension = (app: FastifyInstance) => void

/** Admin routes beyond the built-in ones; add executor or indexer inspection routes here. */
export function createAdminExtensions(context: WorkerContext, _workers: readonly BackgroundWorker[]): AdminExtension[] {
  const extensions: AdminExtension[] = []
  if (context.config.chains.mode === 'devnet') extensions.push(devnetLaunchRoutes({ dataDir: context.config.dataDir, chains: context.chains }))
  return extensions
}
