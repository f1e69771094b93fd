import type { FastifyInstance } from 'fastify'
import { PrebuyError } from '../../src/common/errors.ts'

/** On real chains every `prebuy devnet ...` path answers 400 with the reason, so the CLI says why rather than "no such route". */
export function refuseDevnetRoutes(app: FastifyInstance): void {
  app.all('/admin/v1/devnet/*', async () => {
    throw new PrebuyError('devnet_only', 'devnet commands need the daemon to run its own devnet chains (chains.mode devnet)')
  })
}
