import type { Address, PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../../chain/chain-keys.ts'
import { enabledChainKeys } from '../../../chain/enabled-chains.ts'
import type { Logger } from '../../../common/logger.ts'
import { BASE_CLANKER_DEV_BUY } from '../chain/clanker-dev-buy-deployment.ts'
import type { DevBuyChainSetup } from '../chain/dev-buy-chain.ts'
import { DEV_BUY_COORDINATOR_SALT, devBuyCoordinatorInitCode } from '../chain/dev-buy-coordinator-contract.ts'
import { create2Address, ensureCreate2Contract } from '../../../../daemon/chain/ensure-create2-contract.ts'
import type { DevnetSetup } from '../../../../daemon/embedded-devnet.ts'

/**
 * Each chain's dev-buy setup: the Clanker modules a launch deploys through and this service's coordinator contract
 * (CREATE2: its address follows from the chain's EntryPoint, stablecoin, WETH, WETH/stablecoin pool and Clanker factory,
 * the bundler EOA that alone may launch, and the fee recipient). On devnet the Clanker modules are the devnet's (handed
 * over by the devnet, DevnetSetup.devBuy) and the coordinator is deployed when missing; on Base they are
 * Clanker's published ones, and the coordinator must have been deployed (docs/launch-methods.md): a chain without it has
 * no dev buy (refused with dev_buy_unavailable).
 */
export async function resolveDevBuySetups(options: {
  chains: Record<ChainKey, ChainConfig>
  clients: Record<ChainKey, PublicClient>
  operator: Address
  feeRecipient: Address
  /** This service's vesting contract per chain (deployed with the OTC settlement); a chain without one has no dev buy. */
  vesting: Partial<Record<ChainKey, Address>>
  /** On the devnet: its Clanker modules and the account that deploys the coordinator; absent on real chains. */
  devnet?: Pick<DevnetSetup, 'devBuy' | 'contractsDeployer'>
  logger: Logger
}): Promise<DevBuyChainSetup> {
  const out: DevBuyChainSetup = { coordinators: {}, vesting: {}, setups: {} }
  const devnet = options.devnet
  for (const key of enabledChainKeys(options.chains)) {
    const chain = options.chains[key]
    const setup = devnet ? devnet.devBuy[key] : chain.chainId === BASE_CLANKER_DEV_BUY.chainId ? BASE_CLANKER_DEV_BUY : undefined
    const vesting = options.vesting[key]
    if (!setup || !vesting) continue
    out.vesting[key] = vesting
    const initCode = devBuyCoordinatorInitCode({
      entryPoint: chain.addresses.entryPoint,
      stablecoin: chain.addresses.stablecoin,
      weth: chain.addresses.weth,
      ethUsdPool: chain.addresses.ethUsdPool,
      factory: setup.factory,
      vesting,
      operator: options.operator,
      feeRecipient: options.feeRecipient,
    })
    if (devnet) {
      out.coordinators[key] = await ensureCreate2Contract({
        publicClient: options.clients[key],
        walletClient: devnet.contractsDeployer(key),
        salt: DEV_BUY_COORDINATOR_SALT,
        initCode,
        name: 'PrebuyDevBuyCoordinator',
      })
      out.setups[key] = setup
      continue
    }
    const address = create2Address(DEV_BUY_COORDINATOR_SALT, initCode)
    const code = await options.clients[key].getCode({ address })
    if (code && code !== '0x') {
      out.coordinators[key] = address
      out.setups[key] = setup
    } else
      options.logger.warn(
        { chain: key, address },
        'no dev-buy coordinator contract at its address: dev-buy launches are refused on this chain (docs/launch-methods.md)',
      )
  }
  return out
}
