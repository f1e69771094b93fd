import { type Address, type Hex, type PublicClient, getAddress, zeroAddress } from 'viem'
import { notAnswered } from '../../chain/not-answered.ts'
import { DOPPLER_HOOK_INITIALIZER_ABI, DOPPLER_SWAP_RESTRICTOR_ABI } from './doppler-abi.ts'

/**
 * Why a DopplerHookInitializer pool whose plugin announced no fee schedule is not bought, or null when the pool's hook
 * is not a DopplerHookInitializer or has no plugin. The plugin is `getState(asset).dopplerHook`
 * (src/initializers/DopplerHookInitializer.sol); a plugin answering SwapRestrictorDopplerHook's `isAssetToken0` is the
 * swap restrictor (src/dopplerHooks/SwapRestrictorDopplerHook.sol): its `_onSwap` lets an asset buy through only when
 * the swap's `sender`, the PoolManager's caller, has an allowance set at launch; our buys reach the PoolManager through
 * the Universal Router, which no launch approves, so every one of them would revert InsufficientAmountLeft. Any other
 * plugin may charge or refuse anything: its fee is unknown. A failed RPC read throws (the launch is retried).
 */
export async function dopplerPluginProblem(client: PublicClient, hook: Address, asset: Address, poolId: Hex, blockNumber: bigint): Promise<string | null> {
  let plugin: Address
  try {
    const state = await client.readContract({ address: hook, abi: DOPPLER_HOOK_INITIALIZER_ABI, functionName: 'getState', args: [asset], blockNumber })
    plugin = state[2]
  } catch (error) {
    if (notAnswered(error)) return null
    throw error
  }
  if (plugin === zeroAddress) return null
  try {
    await client.readContract({ address: plugin, abi: DOPPLER_SWAP_RESTRICTOR_ABI, functionName: 'isAssetToken0', args: [poolId], blockNumber })
    return `a SwapRestrictorDopplerHook pool (${getAddress(plugin)}): only the senders its launch approved may buy, and our buys reach the pool through the router, so each would revert (InsufficientAmountLeft): not supported`
  } catch (error) {
    if (!notAnswered(error)) throw error
  }
  return `a DopplerHookInitializer pool whose plugin ${getAddress(plugin)} announces no fee schedule (not rehype): its fees and rules are unknown, not supported`
}
