import { type Address, encodeDeployData, getAddress, type Hex, parseEventLogs, type TransactionReceipt } from 'viem'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import type { LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import type { PoolKey } from '../../src/launchpads/launchpad-adapter.ts'
import { ZORA_LIQUIDITY_MIGRATED } from '../../src/launchpads/zora/zora-migration.ts'
import { jsonRpc } from '../anvil/json-rpc.ts'
import { loadLaunchpadArtifact } from './devnet-artifacts.ts'
import { BEFORE_SWAP_FLAG, mineHookSalt } from './mine-hook-salt.ts'
import { confirmDevnetTx, devnetPublicClient, impersonate, sendDevnetCall } from './send-devnet-tx.ts'

/** Who deploys the migration's hook deployer on devnet (impersonated; touches no launchpad deployer's nonce). */
const MIGRATION_DEPLOYER: Address = '0x000000000000000000000000000000000000A16a'

export interface ZoraMigrationResult {
  newHook: Address
  poolKey: PoolKey
  poolId: Hex
  txHash: Hex
  blockNumber: bigint
  receipt: TransactionReceipt
}

/**
 * A new Zora hook on devnet (another DevnetZoraHook, as Zora deploys a new ZoraV4CoinHook version) at an address with
 * its permission bits, its admin the current hook's, and the upgrade path current -> new registered on both (the real
 * HookUpgradeGate, kept by Zora). Reusable for any number of coins.
 */
export async function deployZoraUpgradeHook(chain: ChainConfig, addresses: LaunchpadAddresses): Promise<Address> {
  const client = devnetPublicClient(chain)
  const hookAbi = loadLaunchpadArtifact('DevnetZoraHook').abi
  const oldHook = addresses.zora.hook
  const admin = (await client.readContract({ address: oldHook, abi: hookAbi, functionName: 'admin' })) as Address
  await impersonate(chain, MIGRATION_DEPLOYER)
  const deployer = loadLaunchpadArtifact('DevnetHookDeployer')
  const hash = await jsonRpc<Hex>(chain.rpcUrl, 'eth_sendTransaction', [{ from: MIGRATION_DEPLOYER, data: deployer.bytecode, gas: '0x989680' }])
  const hookDeployer = getAddress((await confirmDevnetTx(chain, hash)).contractAddress!)
  const { bytecode } = loadLaunchpadArtifact('DevnetZoraHook')
  const initCode = encodeDeployData({ abi: hookAbi, bytecode, args: [chain.addresses.poolManager, admin] })
  const { salt, address } = await mineHookSalt(hookDeployer, initCode, BEFORE_SWAP_FLAG)
  await sendDevnetCall(chain, MIGRATION_DEPLOYER, {
    address: hookDeployer,
    abi: deployer.abi,
    functionName: 'deploy',
    args: [salt, initCode],
    gas: 10_000_000n,
  })
  const newHook = getAddress(address)
  await impersonate(chain, admin)
  for (const hook of [oldHook, newHook]) {
    await sendDevnetCall(chain, admin, { address: hook, abi: hookAbi, functionName: 'registerUpgradePath', args: [oldHook, newHook] })
  }
  return newHook
}

/**
 * The coin's owner (impersonated; on devnet the deploy's caller) moves the coin's liquidity to `newHook`
 * (DevnetZoraCoin.migrateLiquidity, as BaseCoin.migrateLiquidity), and the coin's LiquidityMigrated is read back.
 */
export async function migrateZoraLiquidity(options: { chain: ChainConfig; coin: Address; owner: Address; newHook: Address }): Promise<ZoraMigrationResult> {
  const { chain, coin, owner, newHook } = options
  await impersonate(chain, owner)
  const receipt = await sendDevnetCall(chain, owner, {
    address: coin,
    abi: loadLaunchpadArtifact('DevnetZoraCoin').abi,
    functionName: 'migrateLiquidity',
    args: [newHook, '0x'],
    gas: 3_000_000n,
  })
  const [event] = parseEventLogs({ abi: ZORA_LIQUIDITY_MIGRATED, logs: receipt.logs, eventName: 'LiquidityMigrated' }).filter(
    (l) => l.address.toLowerCase() === coin.toLowerCase(),
  )
  if (!event) throw new PrebuyError('devnet_tx_reverted', `The coin ${coin} announced no liquidity migration (${receipt.transactionHash}).`)
  const key = event.args.toPoolKey
  return {
    newHook,
    poolKey: {
      currency0: getAddress(key.currency0),
      currency1: getAddress(key.currency1),
      fee: key.fee,
      tickSpacing: key.tickSpacing,
      hooks: getAddress(key.hooks),
    },
    poolId: event.args.toPoolKeyHash,
    txHash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
    receipt,
  }
}
