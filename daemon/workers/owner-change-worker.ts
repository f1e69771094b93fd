import type { Logger } from '../../src/common/logger.ts'
import type { Services } from '../../src/services/services.ts'
import { createPollingWorker, type PollingWorker } from './polling-worker.ts'

/** How often confirmed owner changes are checked for the end of their notice period (each round reads every project; a late check only keeps the old terms a few seconds longer). */
const INTERVAL_MS = 5_000

/**
 * Brings into force the owner's changes the operator confirmed once their notice period has passed
 * (src/services/owner-change-service.ts): until then the terms in force stay what the buyers saw.
 */
export function createOwnerChangeWorker({ services, logger }: { services: Pick<Services, 'ownerChanges'>; logger: Logger }): PollingWorker {
  const log = logger.child({ component: 'owner-changes' })
  return createPollingWorker({ name: 'owner changes', intervalMs: INTERVAL_MS, log }, async () => {
    const applied = await services.ownerChanges.applyDue()
    if (applied.length > 0) log.info({ slugs: applied }, "owner changes' notice period passed: in force")
  })
}
