import type { WorkerContext } from '../workers/background-worker.ts'
import type { AdminExtension } from './admin-extension.ts'
import { devnetLaunchRoutes } from './devnet-launch-routes.ts'

/** Admin routes beyond the built-in ones. */
export function createAdminExtensions(context: WorkerContext): AdminExtension[] {
  const extensions: AdminExtension[] = []
  if (context.config.chains.mode === 'devnet') extensions.push(devnetLaunchRoutes({ dataDir: context.config.dataDir, chains: context.chains }))
  return extensions
}
