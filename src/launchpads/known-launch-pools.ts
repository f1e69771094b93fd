import { zeroAddress } from 'viem'
import type { KnownLaunchPools } from '../domain/launches/known-launch-pools.ts'
import type { LaunchpadAddresses } from './create-adapters.ts'
import { CLANKER_SUPPLY_RULES } from './clanker/clanker-supply-split.ts'

/**
 * The pool configurations each launchpad's launches use on Base (src/domain/launches/known-launch-pools.ts checks a
 * launch against them). Clanker v4 (v4.0 and v4.1 share the factory): its hooks and MEV modules as clanker-sdk 4.2.18
 * lists them for Base (`dist/index.js`, the `clanker_v4` deployment's `related`: feeStaticHook, feeDynamicHook,
 * feeStaticHookV2, feeDynamicHookV2, mevModule, mevModuleV2; ../shared/facts/launchpads.md), paired with WETH (the
 * adapter's only pair). Doppler and Zora are not listed: their hooks on Base change with every deployment (Doppler's
 * deployments file lists several rehype hooks; Zora's hook versions) and no complete list is published that we could
 * cite; their Airlock and factory allow only their own whitelisted modules.
 */
export const BASE_KNOWN_POOLS: KnownLaunchPools = {
  clanker: {
    hooks: [
      '0xDd5EeaFf7BD481AD55Db083062b13a3cdf0A68CC',
      '0x34a45c6B61876d739400Bd71228CbcbD4F53E8cC',
      '0xb429d62f8f3bFFb98CdB9569533eA23bF0Ba28CC',
      '0xd60D6B218116cFd801E28F78d011a203D2b068Cc',
    ],
    pairedKinds: ['weth'],
    feeModules: [
      zeroAddress,
      '0xFdc013ce003980889cFfd66b0c8329545ae1d1E8',
      '0xebB25BB797D82CB78E1bc70406b13233c0854413',
      // ClankerMevBlockDelay, Base v4.0 (clanker-devco/v4-contracts README at b004c2e, "v4.0"; not in the SDK's list).
      '0xE143f9872A33c955F23cF442BB4B1EFB3A7402A2',
    ],
    supplySplit: CLANKER_SUPPLY_RULES,
  },
}

/**
 * The devnet launchpads' configurations: every contract their deployment lists (devnet/launchpads), so a contract added
 * there is known here without a change.
 */
export function devnetKnownPools(addresses: LaunchpadAddresses): KnownLaunchPools {
  const all = (group: object): string[] => Object.values(group).filter((v): v is string => typeof v === 'string')
  return {
    clanker: {
      hooks: [addresses.clanker.hook, addresses.clanker.dynamicHook],
      pairedKinds: ['weth'],
      feeModules: [zeroAddress, ...all(addresses.clanker)],
      supplySplit: CLANKER_SUPPLY_RULES,
    },
    doppler: { pairedKinds: ['weth', 'eth'], feeModules: all(addresses.doppler), hooks: all(addresses.doppler) },
    zora: { hooks: all(addresses.zora), pairedKinds: ['eth', 'zora', 'coin'] },
  }
}
