import type { Address, PublicClient } from 'viem'
import { notAnswered } from '../../chain/not-answered.ts'
import { DOPPLER_ERC20_V1_ABI } from './doppler-abi.ts'

/**
 * When a DopplerERC20V1's balance limit ends (unix seconds), or undefined when the asset has none in force at the
 * launch block (not a DopplerERC20V1, or its limit is off). Until `balanceLimitEnd` no holder outside its exclusion
 * list may hold more than `maxBalanceLimit` (src/tokens/DopplerERC20V1.sol `_beforeTokenTransfer`); the first transfer
 * at or after it lifts the limit. Our 3% fee recipient collects from every buy, so it reaches the limit first and
 * every buy would then revert: the launch is gated until the end, never an order's failure. The controller may lift the
 * limit earlier (`disableBalanceLimit`); we keep waiting for the end (a later buy, never a wrong one).
 */
export async function readBalanceLimitEnd(client: PublicClient, asset: Address, blockNumber: bigint): Promise<number | undefined> {
  try {
    const [active, end] = await Promise.all([
      client.readContract({ address: asset, abi: DOPPLER_ERC20_V1_ABI, functionName: 'isBalanceLimitActive', blockNumber }),
      client.readContract({ address: asset, abi: DOPPLER_ERC20_V1_ABI, functionName: 'balanceLimitEnd', blockNumber }),
    ])
    return active ? Number(end) : undefined
  } catch (error) {
    if (notAnswered(error)) return undefined
    throw error
  }
}
