import type { Account, Address, Chain, PublicClient, Transport, WalletClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../../chain/chain-keys.ts'
import { enabledChainKeys } from '../../../chain/enabled-chains.ts'
import type { Logger } from '../../../common/logger.ts'
import { OTC_SETTLEMENT_SALT, otcSettlementInitCode } from '../chain/otc-settlement-contract.ts'
import { VESTING_SALT, vestingInitCode } from '../../vesting/chain/vesting-contract.ts'
import { create2Address, ensureCreate2Contract } from '../../../../daemon/chain/ensure-create2-contract.ts'

/** This service's launch-method contracts on each chain where they are deployed. */
export interface LaunchMethodContracts {
  /** PrebuyOtcSettlement per chain (absent: no OTC there). */
  settlements: Partial<Record<ChainKey, Address>>
  /** PrebuyVesting per chain (the same address everywhere: no constructor arguments). */
  vesting: Partial<Record<ChainKey, Address>>
}

/**
 * The OTC settlement contract of this service on each chain, beside the vesting contract already resolved
 * (vesting/worker/resolve-vesting.ts). Its address follows by CREATE2 from the chain's EntryPoint and stablecoin, the
 * service's bundler EOA (the only account that may settle), its fee recipient and the vesting contract (where locked
 * offers put buyers' tokens). On devnet it is deployed at start when missing; on real chains it must have been deployed
 * (docs/launch-methods.md), and a chain missing it or the vesting contract has no OTC (offers there are refused with
 * otc_unavailable: a settlement without its vesting contract could not settle a locked offer).
 */
export async function resolveOtcSettlements(options: {
  chains: Record<ChainKey, ChainConfig>
  clients: Record<ChainKey, PublicClient>
  operator: Address
  feeRecipient: Address
  /** The vesting contract per chain where it is there (resolveVesting). */
  vesting: Partial<Record<ChainKey, Address>>
  /** On the devnet: the account that deploys the settlement where missing (DevnetSetup.contractsDeployer); absent on real chains. */
  deployer?: (chain: ChainKey) => WalletClient<Transport, Chain, Account>
  logger: Logger
}): Promise<LaunchMethodContracts> {
  const out: LaunchMethodContracts = { settlements: {}, vesting: {} }
  const vesting = create2Address(VESTING_SALT, vestingInitCode())
  for (const key of enabledChainKeys(options.chains)) {
    const chain = options.chains[key]
    const initCode = otcSettlementInitCode({
      entryPoint: chain.addresses.entryPoint,
      stablecoin: chain.addresses.stablecoin,
      operator: options.operator,
      feeRecipient: options.feeRecipient,
      vesting,
    })
    const vestingThere = options.vesting[key] !== undefined
    if (options.deployer && vestingThere) {
      const walletClient = options.deployer(key)
      const publicClient = options.clients[key]
      out.settlements[key] = await ensureCreate2Contract({ publicClient, walletClient, salt: OTC_SETTLEMENT_SALT, initCode, name: 'PrebuyOtcSettlement' })
      out.vesting[key] = vesting
      continue
    }
    const address = create2Address(OTC_SETTLEMENT_SALT, initCode)
    const code = await options.clients[key].getCode({ address })
    const settlementThere = code !== undefined && code !== '0x'
    if (settlementThere && vestingThere) {
      out.settlements[key] = address
      out.vesting[key] = vesting
    } else
      options.logger.warn(
        { chain: key, address, vesting, settlementThere, vestingThere },
        'no OTC settlement or vesting contract at its address: pooled OTC offers are refused on this chain (docs/launch-methods.md)',
      )
  }
  return out
}
