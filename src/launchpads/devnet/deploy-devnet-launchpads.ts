import { createWalletClient, encodeDeployData, getAddress, http, type Account, type Address, type Hex } from 'viem'
import { PrebuyError } from '../../common/errors.ts'
import type { ChainConfig } from '../../chain/chain-keys.ts'
import { chainFromConfig } from '../../chain/clients.ts'
import type { LaunchpadAddresses } from '../create-adapters.ts'
import { loadLaunchpadArtifact, type LaunchpadArtifactName } from './devnet-artifacts.ts'
import { BEFORE_SWAP_FLAG, BEFORE_SWAP_RETURNS_DELTA_FLAG, mineHookSalt } from './mine-hook-salt.ts'
import { confirmDevnetTx, devnetPublicClient, sendDevnetCall } from './send-devnet-tx.ts'

/** Default launch fees of the devnet launchpads (pips), overridable per launch. */
export const DEVNET_LAUNCH_DEFAULTS = {
  /** Clanker SDK default sniper fee: 66.6777% -> 4.1673% over 15 s; LP fee 1%. */
  clanker: { startFee: 666_777, endFee: 41_673, decaySeconds: 15, lpFee: 10_000 },
  /** Reported for Bankr launches: 80% -> 1.2% over 10 s. */
  doppler: { startFee: 800_000, endFee: 12_000, decaySeconds: 10 },
  /** Zora: 99% -> 1% over 10 s. */
  zora: { startFee: 990_000, endFee: 10_000, decaySeconds: 10 },
} as const

/**
 * Deploys the three devnet launchpads on a devnet chain whose fixtures (PoolManager, WETH) exist: a CREATE2 hook
 * deployer, each hook at a mined address carrying its permission bits, each factory, and the hook -> factory link.
 * `deployer` is a funded local account (the devnet deployer or any dev account).
 */
export async function deployDevnetLaunchpads(chain: ChainConfig, deployer: Account): Promise<LaunchpadAddresses> {
  const client = devnetPublicClient(chain)
  const { poolManager, weth } = chain.addresses
  const wallet = createWalletClient({ chain: chainFromConfig(chain), account: deployer, transport: http(chain.rpcUrl) })

  const deploy = async (name: LaunchpadArtifactName, args: readonly unknown[]): Promise<Address> => {
    const { abi, bytecode } = loadLaunchpadArtifact(name)
    const hash = await wallet.deployContract({ abi, bytecode, args } as Parameters<typeof wallet.deployContract>[0])
    const receipt = await confirmDevnetTx(chain, hash)
    if (!receipt.contractAddress) throw new PrebuyError('internal', 'devnet_deploy_failed', `Deploying ${name} created no contract.`)
    return getAddress(receipt.contractAddress)
  }

  const hookDeployer = await deploy('DevnetHookDeployer', [])
  const deployHook = async (name: LaunchpadArtifactName, flags: number): Promise<Address> => {
    const { abi, bytecode } = loadLaunchpadArtifact(name)
    const initCode: Hex = encodeDeployData({ abi, bytecode, args: [poolManager, deployer.address] })
    const { salt, address } = mineHookSalt(hookDeployer, initCode, flags)
    await sendDevnetCall(chain, deployer, {
      address: hookDeployer,
      abi: loadLaunchpadArtifact('DevnetHookDeployer').abi,
      functionName: 'deploy',
      args: [salt, initCode],
    })
    const code = await client.getCode({ address })
    if (!code || code === '0x') throw new PrebuyError('internal', 'devnet_deploy_failed', `The ${name} hook is not at its mined address.`)
    return getAddress(address)
  }

  const clankerHook = await deployHook('DevnetClankerHook', BEFORE_SWAP_FLAG | BEFORE_SWAP_RETURNS_DELTA_FLAG)
  const dopplerHook = await deployHook('DevnetDopplerHook', BEFORE_SWAP_FLAG)
  const zoraHook = await deployHook('DevnetZoraHook', BEFORE_SWAP_FLAG)

  const c = DEVNET_LAUNCH_DEFAULTS
  const clankerFactory = await deploy('DevnetClankerFactory', [poolManager, weth, clankerHook, c.clanker.startFee, c.clanker.endFee, BigInt(c.clanker.decaySeconds), c.clanker.lpFee])
  const dopplerAirlock = await deploy('DevnetDopplerAirlock', [poolManager, weth, dopplerHook, c.doppler.startFee, c.doppler.endFee, c.doppler.decaySeconds])
  const zoraFactory = await deploy('DevnetZoraFactory', [poolManager, weth, zoraHook, c.zora.startFee, c.zora.endFee, c.zora.decaySeconds])

  for (const [hook, launchpad, name] of [
    [clankerHook, clankerFactory, 'DevnetClankerHook'],
    [dopplerHook, dopplerAirlock, 'DevnetDopplerHook'],
    [zoraHook, zoraFactory, 'DevnetZoraHook'],
  ] as const) {
    await sendDevnetCall(chain, deployer, { address: hook, abi: loadLaunchpadArtifact(name).abi, functionName: 'setLaunchpad', args: [launchpad] })
  }

  return {
    clanker: { factory: clankerFactory, hook: clankerHook },
    doppler: { airlock: dopplerAirlock, hook: dopplerHook },
    zora: { factory: zoraFactory, hook: zoraHook },
  }
}

/** Whether every launchpad contract of `addresses` has code on the chain (a restarted devnet keeps them). */
export async function devnetLaunchpadsExist(chain: ChainConfig, addresses: LaunchpadAddresses): Promise<boolean> {
  const client = devnetPublicClient(chain)
  const all = [addresses.clanker.factory, addresses.clanker.hook, addresses.doppler.airlock, addresses.doppler.hook, addresses.zora.factory, addresses.zora.hook]
  const codes = await Promise.all(all.map((address) => client.getCode({ address })))
  return codes.every((code) => code !== undefined && code !== '0x')
}
