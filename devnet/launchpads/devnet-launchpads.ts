import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Account } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { devnetDir } from '../chain/deployments-file.ts'
import type { LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import { deployDevnetLaunchpads, devnetLaunchpadsExist } from './deploy-devnet-launchpads.ts'

/** Where the devnet launchpads of each chain are recorded (next to the devnet's deployments.json). */
export const devnetLaunchpadsPath = (dataDir: string): string => join(devnetDir(dataDir), 'launchpads.json')

/**
 * The version of the devnet launchpad contracts a record was deployed with: bump it whenever a devnet launchpad's ABI
 * or behaviour changes, so a devnet recorded before is redeployed instead of reused. 2: Clanker takes the real
 * `deployToken(DeploymentConfig)` with its own LP locker, DevBuy extension and MEV module. 3: the factories at their
 * real Base addresses. 4: Doppler's DopplerHookInitializer with per-pool plugins (two rehype deployments at their Base
 * addresses, the swap restrictor) or none (a static fee), and DopplerERC20V1 assets. 5: Clanker v5's factory and hook.
 * 6: Clanker v4.0's MEV modules (BlockDelay, SniperAuctionV0) enabled on the Clanker factory.
 * 7: Zora coins with an owner who may migrate their liquidity to a new hook (migrateLiquidity, LiquidityMigrated).
 */
export const DEVNET_LAUNCHPADS_VERSION = 7

type Recorded = Partial<Record<ChainKey, LaunchpadAddresses & { chainId: number; version?: number }>>

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
  // A record of older contracts (no version: from before ZORA, Clanker's dynamic-fee hook, Doppler's rehype pools or
  // Clanker's real deployToken) is redeployed: its factories cannot launch what the current code asks of them.
  const current = previous?.version === DEVNET_LAUNCHPADS_VERSION
  // A damaged record (a field missing) is no record: redeployed too.
  const exists = (record: LaunchpadAddresses) => devnetLaunchpadsExist(chain, record).catch(() => false)
  if (previous && current && previous.chainId === chain.chainId && (await exists(previous))) return previous
  const addresses = await deployDevnetLaunchpads(chain, deployer)
  // Both chains record into one file at the same time on a first start: serialise the read-modify-write and replace
  // the file atomically, or one chain's entry is lost (or the JSON interleaved) and its launchpads redeployed later.
  const record = recordQueue.then(async () => {
    const latest = await readDevnetLaunchpads(dataDir)
    latest[chain.key] = { ...addresses, chainId: chain.chainId, version: DEVNET_LAUNCHPADS_VERSION }
    const path = devnetLaunchpadsPath(dataDir)
    await mkdir(dirname(path), { recursive: true })
    await writeFile(`${path}.tmp`, `${JSON.stringify(latest, null, 2)}\n`)
    await rename(`${path}.tmp`, path)
  })
  recordQueue = record.catch(() => undefined)
  await record
  return addresses
}

let recordQueue: Promise<void> = Promise.resolve()
