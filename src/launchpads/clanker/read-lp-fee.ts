import type { Address, Hex, PublicClient } from 'viem'
import { notAnswered } from '../../chain/not-answered.ts'
import { CLANKER_DYNAMIC_FEE_ABI, CLANKER_FEE_ABI } from './clanker-abi.ts'

/** The LP fee a Clanker pool's buys are priced with, and where it came from. */
export interface ClankerLpFee {
  /** Pips. */
  lpFee: number
  /** `static`: the hook's pairedFee, exact. `dynamic`: the dynamic hook's maxLpFee, an upper bound (see below). */
  source: 'static' | 'dynamic'
}

/**
 * Reads the LP fee of a Clanker pool from its hook. The dynamic-fee hook (ClankerHookDynamicFeeV2) is recognised by its
 * `poolConfigVars` getter (it has no `pairedFee`): its fee is `baseFee + feeControlNumerator * VA^2 / 1e10` capped at
 * `maxLpFee`, where VA includes the tick move of the swap itself (clanker-devco/v4-contracts
 * src/hooks/ClankerHookDynamicFeeV2.sol), so it depends on the buy's size and on every buy before it in the block.
 * Buys are priced at `maxLpFee`, the one bound the hook never exceeds: the effective cap is never underestimated (no
 * buy reverts on its minimum out because the fee was higher than priced); an order whose limit lies within that margin
 * (at most maxLpFee - baseFee, 2% with the SDK's Dynamic3) waits. The static hook's `pairedFee` is exact. A hook that
 * answers neither throws: the launch is quarantined rather than priced with a guess.
 */
export async function readClankerLpFee(client: PublicClient, hook: Address, poolId: Hex): Promise<ClankerLpFee> {
  // Both getters at once (issue 23 item 3: a launch's fee schedule is on its first tick's path): pairedFee's answer
  // (or refusal) counts only when the hook has no poolConfigVars, as when it was asked after.
  const pairedFeeRead = client.readContract({ address: hook, abi: CLANKER_FEE_ABI, functionName: 'pairedFee', args: [poolId] })
  pairedFeeRead.catch(() => undefined)
  try {
    const config = await client.readContract({ address: hook, abi: CLANKER_DYNAMIC_FEE_ABI, functionName: 'poolConfigVars', args: [poolId] })
    return { lpFee: config.maxLpFee, source: 'dynamic' }
  } catch (error) {
    if (!notAnswered(error)) throw error
  }
  try {
    const lpFee = await pairedFeeRead
    return { lpFee, source: 'static' }
  } catch (error) {
    if (notAnswered(error)) throw new Error(`the Clanker hook ${hook} answers neither pairedFee nor poolConfigVars: its LP fee is unknown`)
    throw error
  }
}
