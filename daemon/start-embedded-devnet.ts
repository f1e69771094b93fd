import type { EmbeddedDevnet, StartEmbeddedDevnetOptions } from './embedded-devnet.ts'

/**
 * The one door from the product to the devnet wing: loads devnet/ only when the daemon runs its own chains, and hands
 * back the devnet as the daemon sees it (EmbeddedDevnet). No other product file names devnet/ (scripts/import-graph.ts
 * prints any that does; test/unit/devnet-wing.test.ts fails on it).
 */
export async function startEmbeddedDevnet(options: StartEmbeddedDevnetOptions): Promise<EmbeddedDevnet> {
  const wing = await import('../devnet/start-devnet-wing.ts')
  return wing.startDevnetWing(options)
}
