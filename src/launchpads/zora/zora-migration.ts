import { type Address, getAddress, type Hash, type Hex, isAddressEqual, type Log, parseAbi } from 'viem'
import { decodeEventLogCached } from '../../chain/decode-event-log.ts'
import { eventTopicsOf, mayBeEventOf } from '../../chain/event-topics.ts'
import type { LaunchRecord } from '../../domain/execution/tick-records.ts'
import type { LinearFeeSchedule } from '../../pricing/schedules/linear.ts'
import { withLaunchProtocolFee } from '../../pricing/protocol-fee.ts'
import { DYNAMIC_FEE_FLAG } from '../../pricing/route-price.ts'
import type { PoolKey } from '../launchpad-adapter.ts'
import { poolIdOf } from '../pool-id.ts'

/**
 * ourzora/zora-protocol packages/coins/src/interfaces/ICoin.sol (commit 5f2aebad34f77990345b2a77f9a1170e39e7b1dc):
 * `LiquidityMigrated(PoolKey fromPoolKey, bytes32 fromPoolKeyHash, PoolKey toPoolKey, bytes32 toPoolKeyHash)`, nothing
 * indexed. The COIN emits it (BaseCoin.migrateLiquidity, `onlyOwner`: one of the coin's owners), after the coin's
 * current hook moved the liquidity (ZoraV4CoinHook.migrateLiquidity: only the pool's coin may call it, only along an
 * upgrade path Zora's HookUpgradeGate registered; it burns the coin's positions at the pool's price and forgets the
 * pool, so a user swap there reverts `NoCoinForHook`), and the coin then keeps the new key. The hashes are
 * `CoinCommon.hashPoolKey` = keccak256(abi.encode(key)), the v4 PoolIds.
 */
export const ZORA_LIQUIDITY_MIGRATED = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'event LiquidityMigrated(PoolKey fromPoolKey, bytes32 fromPoolKeyHash, PoolKey toPoolKey, bytes32 toPoolKeyHash)',
])
const MIGRATED_TOPICS = eventTopicsOf(ZORA_LIQUIDITY_MIGRATED)

/** A coin's liquidity moving from the pool a launch is priced on to a new one. */
export interface ZoraLiquidityMigration {
  coin: Address
  fromPoolId: Hex
  toPoolKey: PoolKey
  toPoolId: Hex
  blockNumber: bigint
  txHash: Hash
}

const keyOf = (key: PoolKey): PoolKey => ({
  currency0: getAddress(key.currency0),
  currency1: getAddress(key.currency1),
  fee: key.fee,
  tickSpacing: key.tickSpacing,
  hooks: getAddress(key.hooks),
})

/**
 * The migration `entry` announces for `launch`, or undefined. Only the launch's coin emits the real event: a log of the
 * same shape from any other address (anyone can deploy a contract that emits it) is ignored, as is one that does not
 * move the launch's current pool, names a key its hash does not match, or another pair of currencies (the real hook
 * keeps both: V4Liquidity.lockAndMigrate).
 */
export function decodeZoraMigration(
  entry: Pick<Log, 'address' | 'data' | 'topics' | 'blockNumber' | 'transactionHash'>,
  launch: Pick<LaunchRecord, 'launchpad' | 'token' | 'poolId' | 'poolKey'>,
): ZoraLiquidityMigration | undefined {
  if (launch.launchpad !== 'zora' || !isAddressEqual(entry.address, launch.token)) return undefined
  if (entry.blockNumber === null || entry.transactionHash === null) return undefined
  if (!mayBeEventOf(MIGRATED_TOPICS, entry)) return undefined // another event of the coin (Transfer, ...)
  let args: { fromPoolKeyHash: Hex; toPoolKey: PoolKey; toPoolKeyHash: Hex }
  try {
    ;({ args } = decodeEventLogCached({ abi: ZORA_LIQUIDITY_MIGRATED, data: entry.data, topics: entry.topics, strict: true }))
  } catch {
    return undefined // another event of the coin (Transfer, ...)
  }
  const to = keyOf(args.toPoolKey)
  if (args.fromPoolKeyHash.toLowerCase() !== launch.poolId.toLowerCase()) return undefined
  if (poolIdOf(to).toLowerCase() !== args.toPoolKeyHash.toLowerCase()) return undefined
  if (!isAddressEqual(to.currency0, launch.poolKey.currency0) || !isAddressEqual(to.currency1, launch.poolKey.currency1)) return undefined
  return {
    coin: getAddress(entry.address),
    fromPoolId: launch.poolId,
    toPoolKey: to,
    toPoolId: poolIdOf(to),
    blockNumber: entry.blockNumber,
    txHash: entry.transactionHash,
  }
}

/**
 * What a Zora coin's new pool charges. The destination hook computes the same launch fee from the coin's creation
 * (ZoraV4CoinHook._calculateLaunchFee) and returns it as an override, which v4 applies only to a pool whose key fee
 * has the dynamic-fee flag (v4-core 1.0.2 src/libraries/Hooks.sol beforeSwap: `if (key.fee.isDynamicFee())
 * lpFeeOverride = ...`). Today's hook creates the new key with `fee = LP_FEE_V4` (10,000: a static 1%,
 * initializeFromMigrationWithUpdateableFee), so the moved pool charges its key's static fee; a destination with the
 * old interface keeps the old key's fee (the dynamic flag): the launch schedule goes on.
 */
export function migratedZoraSchedule(previous: LinearFeeSchedule, to: PoolKey): LinearFeeSchedule {
  const { protocolFee: _pool, ...schedule } = previous as LinearFeeSchedule & { protocolFee?: number }
  if (to.fee & DYNAMIC_FEE_FLAG) return schedule
  return { kind: 'linear', startTime: previous.startTime, startFee: to.fee, endFee: to.fee, durationSeconds: 0 }
}

/**
 * The launch moved to its new pool: key, id, hook, schedule (with the new pool's protocol fee, slot0's packed value
 * read at the migration's block) and the pool it left, for a reorg. What the executor buys on and the indexer prices is
 * the record's pool: this is the one way a launch changes pools.
 */
export function migratedLaunch(launch: LaunchRecord, migration: ZoraLiquidityMigration, slot0ProtocolFee: number): LaunchRecord {
  const previous = {
    poolKey: launch.poolKey,
    poolId: launch.poolId,
    feeSources: launch.feeSources,
    feeSchedule: launch.feeSchedule,
    blockNumber: migration.blockNumber.toString(),
    txHash: migration.txHash,
  }
  const moved: LaunchRecord = {
    ...launch,
    poolKey: migration.toPoolKey,
    poolId: migration.toPoolId,
    feeSources: { ...launch.feeSources, hook: migration.toPoolKey.hooks },
    feeSchedule: migratedZoraSchedule(launch.feeSchedule as LinearFeeSchedule, migration.toPoolKey),
    migrations: [...(launch.migrations ?? []), previous],
  }
  return withLaunchProtocolFee(moved, slot0ProtocolFee)
}

/** The launch as it was before every move in a block above `ancestor` (a reorg removed them); itself when none was. */
export function launchBeforeMigrationsAbove(launch: LaunchRecord, ancestor: bigint): LaunchRecord {
  const migrations = [...(launch.migrations ?? [])]
  let current = launch
  while (migrations.length > 0 && BigInt(migrations[migrations.length - 1]!.blockNumber) > ancestor) {
    const back = migrations.pop()!
    const { migrations: _all, ...rest } = current
    current = {
      ...rest,
      poolKey: back.poolKey,
      poolId: back.poolId,
      feeSources: back.feeSources,
      feeSchedule: back.feeSchedule,
      ...(migrations.length > 0 ? { migrations: [...migrations] } : {}),
    }
  }
  return current
}
