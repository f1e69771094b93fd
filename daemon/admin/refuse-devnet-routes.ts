import type { FastifyInstance } from 'fastify'
import { DEVNET_PATH_PREFIX } from '../../src/admin-api/admin-routes.ts'
import { PrebuyError } from '../../src/common/errors.ts'

/** On real chains every `prebuy devnet ...` path answers 400 with the reason, so the CLI says why rather than "no such route". */
export function refuseDevnetRoutes(app: FastifyInstance): void {
  app.all(`${DEVNET_PATH_PREFIX}*`, async () => {
    throw new PrebuyError('devnet_only', 'devnet commands need the daemon to run its own devnet chains (chains.mode devnet)')
  })
}
