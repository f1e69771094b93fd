import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Account } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { devnetDir } from '../../src/chain/devnet/deployments-file.ts'
import type { LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import { deployDevnetLaunchpads, devnetLaunchpadsExist } from '../../src/launchpads/devnet/deploy-devnet-launchpads.ts'

/** Where the devnet launchpads of each chain are recorded (next to the devnet's deployments.json). */
export const devnetLaunchpadsPath = (dataDir: string): string => join(devnetDir(dataDir), 'launchpads.json')

type Recorded = Partial<Record<ChainKey, LaunchpadAddresses & { chainId: number }>>

export async function readDevnetLaunchpads(dataDir: string): Promise<Recorded> {
  try {
    return JSON.parse(await readFile(devnetLaunchpadsPath(dataDir), 'utf8')) as Recorded
  } catch {
    return {}
  }
}

/**
 * The devnet launchpads of a chain: reused when recorded and still on the chain (a restarted devnet keeps its
 * state), deployed and recorded otherwise. `prebuy devnet launch` reads the same file (readDevnetLaunchpads).
 */
export async function ensureDevnetLaunchpads(dataDir: string, chain: ChainConfig, deployer: Account): Promise<LaunchpadAddresses> {
  const recorded = await readDevnetLaunchpads(dataDir)
  const previous = recorded[chain.key]
  if (previous && previous.chainId === chain.chainId && (await devnetLaunchpadsExist(chain, previous))) return previous
  const addresses = await deployDevnetLaunchpads(chain, deployer)
  const latest = await readDevnetLaunchpads(dataDir)
  latest[chain.key] = { ...addresses, chainId: chain.chainId }
  await mkdir(dirname(devnetLaunchpadsPath(dataDir)), { recursive: true })
  await writeFile(devnetLaunchpadsPath(dataDir), `${JSON.stringify(latest, null, 2)}\n`)
  return addresses
}
