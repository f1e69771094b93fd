import type { Address } from 'viem'
import type { Launchpad } from '../domain/records.ts'
import { CLANKER_BASE, createClankerAdapter } from './clanker/clanker-adapter.ts'
import { CLANKER_V5_BASE, createClankerV5Adapter } from './clanker-v5/clanker-v5-adapter.ts'
import { createDopplerAdapter, DOPPLER_BASE } from './doppler/doppler-adapter.ts'
import type { LaunchpadAdapter } from './launchpad-adapter.ts'
import { createZoraAdapter, ZORA_BASE } from './zora/zora-adapter.ts'
import type { ZoraRoute } from './zora/zora-route.ts'

/** Where each launchpad lives on one chain: the factory (Clanker, Zora) or Airlock (Doppler) emitting launches. */
export interface LaunchpadAddresses {
  /**
   * The devnet Clanker's modules, as the real factory's: the static and dynamic hooks, the LP locker, the DevBuy extension
   * and the MEV module (SniperAuctionV2), each enabled on the factory; a DeploymentConfig names them. Also enabled:
   * Clanker v4.0's modules, mevBlockDelay (ClankerMevBlockDelay, 2 blocks) and mevAuctionV0 (ClankerSniperAuctionV0).
   */
  clanker: {
    factory: Address
    hook: Address
    dynamicHook: Address
    locker: Address
    devBuy: Address
    mevModule: Address
    mevBlockDelay: Address
    mevAuctionV0: Address
  }
  /**
   * rehypeInitializer: the DopplerHookInitializer, pool hook of rehype, static-fee and swap-restrictor launches (devnet);
   * its plugins: rehypeHook (at doppler-sdk 1.0.30's Base address, dividing by 800,000 as deployed there),
   * rehypeHookFixed (at the July 2026 address, dividing by 1e6) and swapRestrictor.
   */
  doppler: { airlock: Address; hook: Address; rehypeInitializer: Address; rehypeHook: Address; rehypeHookFixed: Address; swapRestrictor: Address }
  /** The devnet also deploys ZORA and its ETH pool beside the factory. */
  zora: { factory: Address; hook: Address; route: ZoraRoute }
  /** Clanker v5's factory and hook, at their Base addresses on the devnet too (the hook's address is its permissions). */
  clankerV5: { factory: Address; hook: Address }
}

export interface CreateLaunchpadAdaptersOptions {
  poolManager: Address
  weth: Address
  clanker: { factory: Address }
  doppler: { airlock: Address }
  /** `route`: how ZORA is bought and priced (Base: configured by the operator; absent, ZORA pairs are unsupported). */
  zora: { factory: Address; route?: ZoraRoute }
  /** Clanker v5: found by its hook; its fee is measured by quoting the swap through `v4Quoter`. */
  clankerV5: { factory: Address; hook: Address }
  v4Quoter: Address
  /** Multicall3 (the chain's `addresses.multicall3`): Doppler probes its asset's balance-limit getters through it. */
  multicall3: Address
}

/** The four adapters for one chain. */
export function createLaunchpadAdapters(options: CreateLaunchpadAdaptersOptions): Record<Launchpad, LaunchpadAdapter> {
  const { poolManager, weth } = options
  return {
    clanker: createClankerAdapter({ factory: options.clanker.factory, poolManager, weth }),
    doppler: createDopplerAdapter({ airlock: options.doppler.airlock, poolManager, weth, multicall3: options.multicall3 }),
    zora: createZoraAdapter({ factory: options.zora.factory, poolManager, weth, zoraRoute: options.zora.route }),
    clanker_v5: createClankerV5Adapter({ ...options.clankerV5, poolManager, weth, v4Quoter: options.v4Quoter }),
  }
}

/** The adapter options for launchpads deployed on a devnet (deployDevnetLaunchpads), ZORA route included. */
export const devnetAdapterOptions = (
  chain: { poolManager: Address; weth: Address; v4Quoter: Address; multicall3: Address },
  a: LaunchpadAddresses,
): CreateLaunchpadAdaptersOptions => ({
  poolManager: chain.poolManager,
  weth: chain.weth,
  v4Quoter: chain.v4Quoter,
  multicall3: chain.multicall3,
  clankerV5: { factory: a.clankerV5.factory, hook: a.clankerV5.hook },
  clanker: { factory: a.clanker.factory },
  doppler: { airlock: a.doppler.airlock },
  zora: { factory: a.zora.factory, route: a.zora.route },
})

/** The real Base deployments (facts file). */
export const BASE_LAUNCHPADS: CreateLaunchpadAdaptersOptions = {
  poolManager: CLANKER_BASE.poolManager,
  weth: CLANKER_BASE.weth,
  clanker: { factory: CLANKER_BASE.factory },
  doppler: { airlock: DOPPLER_BASE.airlock },
  zora: { factory: ZORA_BASE.factory },
  clankerV5: { factory: CLANKER_V5_BASE.factory, hook: CLANKER_V5_BASE.hook },
  v4Quoter: CLANKER_V5_BASE.v4Quoter,
  multicall3: DOPPLER_BASE.multicall3,
}
