import type { Address } from 'viem'
import type { Launchpad } from '../domain/records.ts'
import { CLANKER_BASE, createClankerAdapter } from './clanker/clanker-adapter.ts'
import { createDopplerAdapter, DOPPLER_BASE } from './doppler/doppler-adapter.ts'
import type { LaunchpadAdapter } from './launchpad-adapter.ts'
import { createZoraAdapter, ZORA_BASE } from './zora/zora-adapter.ts'

/** Where each launchpad lives on one chain: the factory (Clanker, Zora) or Airlock (Doppler) emitting launches. */
export interface LaunchpadAddresses {
  clanker: { factory: Address; hook: Address }
  doppler: { airlock: Address; hook: Address }
  zora: { factory: Address; hook: Address }
}

export interface CreateLaunchpadAdaptersOptions {
  poolManager: Address
  weth: Address
  clanker: { factory: Address }
  doppler: { airlock: Address }
  zora: { factory: Address }
}

/** The three adapters for one chain. */
export function createLaunchpadAdapters(options: CreateLaunchpadAdaptersOptions): Record<Launchpad, LaunchpadAdapter> {
  const { poolManager, weth } = options
  return {
    clanker: createClankerAdapter({ factory: options.clanker.factory, poolManager, weth }),
    doppler: createDopplerAdapter({ airlock: options.doppler.airlock, poolManager, weth }),
    zora: createZoraAdapter({ factory: options.zora.factory, poolManager, weth }),
  }
}

/** The real Base deployments (facts file). */
export const BASE_LAUNCHPADS: CreateLaunchpadAdaptersOptions = {
  poolManager: CLANKER_BASE.poolManager,
  weth: CLANKER_BASE.weth,
  clanker: { factory: CLANKER_BASE.factory },
  doppler: { airlock: DOPPLER_BASE.airlock },
  zora: { factory: ZORA_BASE.factory },
}
