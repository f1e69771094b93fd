import { type Address, type Log, type PublicClient, type TransactionReceipt, toEventSelector } from 'viem'
import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import { findInitializedPools, POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
import { decodeZoraMigration, migratedLaunch } from '../../src/launchpads/zora/zora-migration.ts'
import type { PoolState } from '../../src/pricing/price-tick.ts'
import { STATE_VIEW } from './state-view-abi.ts'
import type { LaunchedPools } from './launched-pools.ts'

/** A launch whose liquidity moved to a new pool, with the pool it left and the new pool's state. */
export interface MovedLaunch {
  launch: LaunchRecord
  previousPoolId: string
  state: PoolState
}

export interface LaunchMigrations {
  /**
   * The launched pools `entry` (a PoolManager log) moves: a Zora coin's `migrateLiquidity` initialises the new pool
   * (same currencies, the new hook) in the transaction whose coin log `LiquidityMigrated` names it. The coin is not a
   * contract the sync watches, so the PoolManager's `Initialize` of a pool with a launched Zora pool's currencies is
   * the cue: only then is the transaction's receipt read, and only the launch's own coin's event counts
   * (decodeZoraMigration: a forged event from any other contract, or one naming another pool, is ignored).
   */
  moved(entry: Log, pools: LaunchedPools): Promise<MovedLaunch[]>
}

/** The PoolManager's Initialize topic: every other PoolManager log (swaps, most of them) is passed over undecoded. */
const INITIALIZE_TOPIC = toEventSelector(POOL_MANAGER_EVENTS.find((e) => e.name === 'Initialize')!)

export function createLaunchMigrations(deps: { client: PublicClient; poolManager: Address; stateView: Address }): LaunchMigrations {
  const { client } = deps

  async function poolState(launch: LaunchRecord, blockNumber: bigint): Promise<PoolState & { protocolFee: number }> {
    const at = { address: deps.stateView, abi: STATE_VIEW, args: [launch.poolId], blockNumber } as const
    const [slot0, liquidity] = await Promise.all([
      client.readContract({ ...at, functionName: 'getSlot0' }),
      client.readContract({ ...at, functionName: 'getLiquidity' }),
    ])
    return { sqrtPriceX96: slot0[0], liquidity, protocolFee: slot0[2] }
  }

  return {
    async moved(entry, pools) {
      if (entry.topics[0] !== INITIALIZE_TOPIC) return []
      const [initialized] = findInitializedPools([entry], deps.poolManager)
      if (!initialized || entry.transactionHash === null || entry.blockNumber === null) return []
      const sameCurrencies = (launch: LaunchRecord) =>
        launch.launchpad === 'zora' &&
        launch.poolKey.currency0.toLowerCase() === initialized.poolKey.currency0.toLowerCase() &&
        launch.poolKey.currency1.toLowerCase() === initialized.poolKey.currency1.toLowerCase() &&
        launch.poolId.toLowerCase() !== initialized.poolId.toLowerCase()
      const launches = [...pools.values()].map((p) => p.launch).filter(sameCurrencies)
      if (launches.length === 0) return []
      const receipt: TransactionReceipt = await client.getTransactionReceipt({ hash: entry.transactionHash })
      const out: MovedLaunch[] = []
      for (const launch of launches) {
        const migration = receipt.logs
          .map((log) => decodeZoraMigration(log, launch))
          .find((m) => m !== undefined && m.toPoolId.toLowerCase() === initialized.poolId.toLowerCase())
        if (!migration) continue
        const provisional = migratedLaunch(launch, migration, 0)
        const { protocolFee, ...state } = await poolState(provisional, entry.blockNumber)
        out.push({ launch: migratedLaunch(launch, migration, protocolFee), previousPoolId: launch.poolId, state })
      }
      return out
    },
  }
}
