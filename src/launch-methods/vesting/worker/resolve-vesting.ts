import type { Address } from 'viem'
import { enabledChainKeys } from '../../../chain/enabled-chains.ts'
import type { ChainKey } from '../../../chain/chain-keys.ts'
import { VESTING_SALT, vestingInitCode } from '../chain/vesting-contract.ts'
import { create2Address, ensureCreate2Contract } from '../../../../daemon/chain/ensure-create2-contract.ts'
import type { LaunchMethodSetup } from '../../worker/wired-launch-method.ts'

/**
 * This service's vesting contract per chain (CREATE2 from its bytecode alone: the same address everywhere). On the
 * devnet it is deployed when missing; on a real chain it must have been deployed (`prebuy contracts deploy`,
 * docs/launch-methods.md): a chain without it has no locked pooled OTC offer and no dev buy.
 */
export async function resolveVesting(setup: Omit<LaunchMethodSetup, 'operator' | 'feeRecipient'>): Promise<Partial<Record<ChainKey, Address>>> {
  const out: Partial<Record<ChainKey, Address>> = {}
  const address = create2Address(VESTING_SALT, vestingInitCode())
  for (const key of enabledChainKeys(setup.chains)) {
    const publicClient = setup.clients[key]
    if (setup.devnet) {
      const walletClient = setup.devnet.contractsDeployer(key)
      out[key] = await ensureCreate2Contract({ publicClient, walletClient, salt: VESTING_SALT, initCode: vestingInitCode(), name: 'PrebuyVesting' })
      continue
    }
    const code = await publicClient.getCode({ address })
    if (code !== undefined && code !== '0x') out[key] = address
    else
      setup.logger.warn(
        { chain: key, address },
        'no vesting contract at its address: pooled OTC and dev-buy launches are refused on this chain (docs/launch-methods.md)',
      )
  }
  return out
}
