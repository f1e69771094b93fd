import type { FastifyInstance } from 'fastify'

/**
 * Extra admin routes contributed by other parts of the daemon. They are registered on the admin app behind the same
 * operator-token guard and error handling as the built-in routes; use paths under `/admin/v1/`.
 */
export type AdminExtension = (app: FastifyInstance) => void
