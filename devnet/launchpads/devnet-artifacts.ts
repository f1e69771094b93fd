import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Abi, Hex } from 'viem'

/** The devnet launchpad contracts (devnet/contracts/launchpads, compiled by `npm run compile:contracts`). */
export type LaunchpadArtifactName =
  | 'DevnetHookDeployer'
  | 'DevnetClankerHook'
  | 'DevnetClankerDynamicHook'
  | 'DevnetClankerFactory'
  | 'DevnetClankerSniperAuction'
  | 'DevnetClankerSniperAuctionV0'
  | 'DevnetClankerMevBlockDelay'
  | 'DevnetClankerLpLocker'
  | 'DevnetClankerDevBuy'
  | 'DevnetDopplerHook'
  | 'DevnetDopplerAirlock'
  | 'DevnetDopplerHookInitializer'
  | 'DevnetRehypeDopplerHook'
  | 'DevnetSwapRestrictorDopplerHook'
  | 'DevnetDopplerERC20V1'
  | 'DevnetZoraHook'
  | 'DevnetZoraFactory'
  | 'DevnetZoraEthPool'
  | 'DevnetZoraCoin'
  | 'DevnetForgedLiquidityMigration'
  | 'DevnetLaunchToken'
  | 'DevnetClankerV5Hook'
  | 'DevnetClankerV5Factory'

export interface LaunchpadArtifact {
  abi: Abi
  bytecode: Hex
  deployedBytecode: Hex
}

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'contracts', 'artifacts')
const cache = new Map<LaunchpadArtifactName, LaunchpadArtifact>()

export function loadLaunchpadArtifact(name: LaunchpadArtifactName): LaunchpadArtifact {
  const cached = cache.get(name)
  if (cached) return cached
  const json = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as { abi: Abi; bytecode: Hex; deployedBytecode: Hex }
  const artifact = { abi: json.abi, bytecode: json.bytecode, deployedBytecode: json.deployedBytecode }
  cache.set(name, artifact)
  return artifact
}
