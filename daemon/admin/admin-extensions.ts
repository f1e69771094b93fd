import type { FastifyInstance } from 'fastify'
import type { BackgroundWorker, WorkerContext } from '../background-workers.ts'

/**
 * Extra admin routes contributed by other parts of the daemon. They are registered on the admin app behind the same
 * operator-token guard and error handling as the built-in routes; use paths under `/admin/v1/`.
 */
export type AdminExtension = (app: FastifyInstance) => void

/**
 * >>> Issue "Launch detection and open-market execution": routes for `prebuy devnet launch` / `prebuy devnet swap`
 * >>> (and any executor inspection) go here, built from the context and the running workers.
 */
export function createAdminExtensions(_context: WorkerContext, _workers: readonly BackgroundWorker[]): AdminExtension[] {
  return []
}
