import { createWalletClient, http, type Address, type PublicClient } from 'viem'
import { CHAIN_KEYS, type ChainConfig, type ChainKey } from '../../src/chain/chain-keys.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import { devAccounts } from '../../src/chain/devnet/devnet-accounts.ts'
import type { Logger } from '../../src/common/logger.ts'
import { OTC_SETTLEMENT_SALT, otcSettlementInitCode } from '../../src/launch-methods/otc/otc-settlement-contract.ts'
import { create2Address, ensureCreate2Contract } from '../chain/ensure-create2-contract.ts'

/** anvil dev account that deploys the OTC settlement on devnet (the launch machinery uses index 8). */
const DEVNET_OTC_DEPLOYER_INDEX = 9

/**
 * The OTC settlement contract of this service on each chain: its address follows from the chain's EntryPoint and
 * stablecoin, the service's bundler EOA (the only account that may settle) and its fee recipient, through CREATE2.
 * On devnet it is deployed at start when missing; on real chains it must have been deployed (docs/launch-methods.md),
 * and a chain without it has no OTC (offers there are refused with otc_unavailable).
 */
export async function resolveOtcSettlements(options: {
  chains: Record<ChainKey, ChainConfig>
  clients: Record<ChainKey, PublicClient>
  operator: Address
  feeRecipient: Address
  devnet: boolean
  logger: Logger
}): Promise<Partial<Record<ChainKey, Address>>> {
  const out: Partial<Record<ChainKey, Address>> = {}
  for (const key of CHAIN_KEYS) {
    const chain = options.chains[key]
    const initCode = otcSettlementInitCode({
      entryPoint: chain.addresses.entryPoint,
      stablecoin: chain.addresses.stablecoin,
      operator: options.operator,
      feeRecipient: options.feeRecipient,
    })
    if (options.devnet) {
      const account = devAccounts()[DEVNET_OTC_DEPLOYER_INDEX]!.account
      out[key] = await ensureCreate2Contract({
        publicClient: options.clients[key],
        walletClient: createWalletClient({ chain: chainFromConfig(chain), account, transport: http(chain.rpcUrl) }),
        salt: OTC_SETTLEMENT_SALT,
        initCode,
        name: 'PrebuyOtcSettlement',
      })
      continue
    }
    const address = create2Address(OTC_SETTLEMENT_SALT, initCode)
    const code = await options.clients[key].getCode({ address })
    if (code && code !== '0x') out[key] = address
    else
      options.logger.warn(
        { chain: key, address },
        'no OTC settlement contract at its address: pooled OTC offers are refused on this chain (docs/launch-methods.md)',
      )
  }
  return out
}
