import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { Journal } from '../../src/journal/journal.ts'
import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import { readAll } from '../../src/store/paginate.ts'
import type { PoolState } from '../../src/pricing/price-tick.ts'

/** A launched project's pool on the indexed chain: its launch, the pool state of its latest tick, and that tick's block. */
export interface LaunchedPool {
  launch: LaunchRecord
  state: PoolState
  lastTick: bigint
}

/** The launched pools of one chain, by lower-cased pool id: what swaps and blocks are priced for. */
export type LaunchedPools = Map<string, LaunchedPool>

export const poolKeyOf = (poolId: string): string => poolId.toLowerCase()

const stateOf = (tick: { sqrtPriceX96: string; liquidity: string } | undefined): PoolState => ({
  sqrtPriceX96: BigInt(tick?.sqrtPriceX96 ?? '0'),
  liquidity: BigInt(tick?.liquidity ?? '0'),
})

/** The chain's launched pools from the journal, each with the state and block of its newest stored tick. */
export async function loadLaunchedPools(journal: Journal, chain: ChainKey): Promise<LaunchedPools> {
  const pools: LaunchedPools = new Map()
  for (const { value: launch } of await readAll(journal.sub.launches, `${chain}!`)) {
    const latest = await journal.latestTick(launch.slug)
    pools.set(poolKeyOf(launch.poolId), { launch, state: stateOf(latest), lastTick: BigInt(latest?.blockNumber ?? launch.blockNumber) })
  }
  return pools
}

/** After a reorg reverted ticks: every pool's state falls back to its newest tick that survived. */
export async function restorePoolStates(journal: Journal, pools: LaunchedPools): Promise<void> {
  for (const pool of pools.values()) {
    const latest = await journal.latestTick(pool.launch.slug)
    if (latest) pool.state = stateOf(latest)
  }
}
