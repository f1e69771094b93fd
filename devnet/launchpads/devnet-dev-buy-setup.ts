import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import type { ClankerDevBuySetup } from '../../src/launch-methods/dev-buy/chain/clanker-dev-buy-deployment.ts'
import type { LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import { DEVNET_LAUNCH_DEFAULTS } from './deploy-devnet-launchpads.ts'
import { DEVNET_CLANKER_POSITIONS } from './launch-token.ts'

/** A dev-buy launch on the devnet Clanker: its modules, with the devnet launch defaults (the shape `prebuy devnet launch` deploys). */
export function devnetClankerDevBuySetup(chain: ChainConfig, clanker: LaunchpadAddresses['clanker']): ClankerDevBuySetup {
  const d = DEVNET_LAUNCH_DEFAULTS.clanker
  return {
    chainId: chain.chainId,
    weth: chain.addresses.weth,
    factory: clanker.factory,
    staticHook: clanker.hook,
    locker: clanker.locker,
    mevModule: clanker.mevModule,
    devBuyExtension: clanker.devBuy,
    tickIfToken0IsClanker: d.tickIfToken0IsClanker,
    tickSpacing: d.tickSpacing,
    positions: DEVNET_CLANKER_POSITIONS,
    lpFeePips: d.lpFee,
    sniperFee: { startingFee: d.startFee, endingFee: d.endFee, secondsToDecay: d.decaySeconds },
  }
}
