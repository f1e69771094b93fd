import { type Address, type PublicClient, toFunctionSelector } from 'viem'
import { probeWords } from '../../chain/read-words-multicall.ts'
import { DOPPLER_ERC20_V1_ABI } from './doppler-abi.ts'

/** DopplerERC20V1's balance limit getters' selectors (src/tokens/DopplerERC20V1.sol). */
const selectorOf = (name: string) => toFunctionSelector(DOPPLER_ERC20_V1_ABI.find((item) => item.name === name)!)
const IS_BALANCE_LIMIT_ACTIVE = selectorOf('isBalanceLimitActive')
const BALANCE_LIMIT_END = selectorOf('balanceLimitEnd')

/**
 * When a DopplerERC20V1's balance limit ends (unix seconds), or undefined when the asset has none in force at the
 * launch block (not a DopplerERC20V1, or its limit is off). Until `balanceLimitEnd` no holder outside its exclusion
 * list may hold more than `maxBalanceLimit` (src/tokens/DopplerERC20V1.sol `_beforeTokenTransfer`); the first transfer
 * at or after it lifts the limit. Our 3% fee recipient collects from every buy, so it reaches the limit first and
 * every buy would then revert: the launch is gated until the end, never an order's failure. The controller may lift the
 * limit earlier (`disableBalanceLimit`); we keep waiting for the end (a later buy, never a wrong one).
 *
 * Both getters in one probe through Multicall3 (read-words-multicall.ts `probeWords`), which does not revert for an
 * asset without them (Doppler's other tokens, the devnet's plain one): two reverting reads were ~0.9 ms of CPU on the
 * launch's detection path. Either getter missing: no limit. A malformed answer (a bool other than 0 or 1, an end
 * beyond uint48) throws, as viem's decoding of the getters did.
 */
export async function readBalanceLimitEnd(client: PublicClient, multicall3: Address, asset: Address, blockNumber: bigint): Promise<number | undefined> {
  const [active, end] = await probeWords(client, multicall3, asset, [IS_BALANCE_LIMIT_ACTIVE, BALANCE_LIMIT_END], blockNumber)
  if (active === undefined || end === undefined) return undefined
  if (active > 1n) throw new RangeError(`isBalanceLimitActive of ${asset} answered ${active}, not a bool`)
  if (end >= 2n ** 48n) throw new RangeError(`balanceLimitEnd of ${asset} answered ${end}, beyond uint48`)
  return active === 1n ? Number(end) : undefined
}
