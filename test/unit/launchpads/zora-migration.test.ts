import { describe, expect, it } from 'vitest'
import { type Address, encodeAbiParameters, encodeEventTopics, getAddress, type Hex, zeroAddress } from 'viem'
import type { LaunchRecord } from '../../../src/journal/journal-records.ts'
import type { PoolKey } from '../../../src/launchpads/launchpad-adapter.ts'
import { poolIdOf } from '../../../src/launchpads/pool-id.ts'
import { decodeZoraMigration, launchBeforeMigrationsAbove, migratedLaunch, ZORA_LIQUIDITY_MIGRATED } from '../../../src/launchpads/zora/zora-migration.ts'

const coin = getAddress('0x00000000000000000000000000000000000c0111')
const oldHook = getAddress('0x0000000000000000000000000000000000001080')
const newHook = getAddress('0x0000000000000000000000000000000000002080')
const from: PoolKey = { currency0: zeroAddress, currency1: coin, fee: 0x800000, tickSpacing: 200, hooks: oldHook }
const to: PoolKey = { ...from, fee: 10_000, hooks: newHook }

const launch: LaunchRecord = {
  slug: 'z',
  chain: 'base',
  launchpad: 'zora',
  token: coin,
  symbol: 'Z',
  name: 'Z',
  decimals: 18,
  totalSupply: (10n ** 27n).toString(),
  paired: { kind: 'eth', address: zeroAddress },
  poolKey: from,
  poolId: poolIdOf(from),
  feeSources: { hook: oldHook },
  feeSchedule: { kind: 'linear', startTime: 1_000, startFee: 990_000, endFee: 10_000, durationSeconds: 10, protocolFee: 500 },
  blockNumber: '10',
  blockHash: `0x${'1'.repeat(64)}`,
  txHash: `0x${'2'.repeat(64)}`,
  launchedAt: 1_000_000,
}

/** The coin's LiquidityMigrated log (ICoin.sol), from `emitter`. */
function migrationLog(emitter: Address, fromKey: PoolKey, toKey: PoolKey, toHash: Hex = poolIdOf(toKey), blockNumber = 20n) {
  const [event] = ZORA_LIQUIDITY_MIGRATED.filter((item) => item.type === 'event')
  const data = encodeAbiParameters(event!.inputs, [fromKey, poolIdOf(fromKey), toKey, toHash])
  return { address: emitter, topics: encodeEventTopics({ abi: [event!] }) as [Hex], data, blockNumber, transactionHash: `0x${'3'.repeat(64)}` as Hex }
}

describe('decodeZoraMigration', () => {
  it("reads the coin's own event moving the launch's current pool", () => {
    expect(decodeZoraMigration(migrationLog(coin, from, to), launch)).toEqual({
      coin,
      fromPoolId: launch.poolId,
      toPoolKey: to,
      toPoolId: poolIdOf(to),
      blockNumber: 20n,
      txHash: `0x${'3'.repeat(64)}`,
    })
  })

  it.each([
    ['another emitter (a forgery: anyone can emit the same event)', migrationLog(getAddress('0x000000000000000000000000000000000000bad1'), from, to)],
    ['another pool than the launch is on', migrationLog(coin, { ...from, tickSpacing: 60 }, to)],
    ['a hash that is not the new key', migrationLog(coin, from, to, poolIdOf({ ...to, fee: 3_000 }))],
    ['other currencies', migrationLog(coin, from, { ...to, currency0: getAddress('0x0000000000000000000000000000000000000001') })],
  ])('ignores %s', (_what, log) => {
    expect(decodeZoraMigration(log, launch)).toBeUndefined()
  })

  it('ignores a launch of another launchpad', () => {
    expect(decodeZoraMigration(migrationLog(coin, from, to), { ...launch, launchpad: 'doppler' })).toBeUndefined()
  })
})

describe('migratedLaunch / launchBeforeMigrationsAbove', () => {
  const migration = decodeZoraMigration(migrationLog(coin, from, to), launch)!

  it('moves key, id and hook; a static key fee is priced as that fee; the new pool protocol fee replaces the old', () => {
    const moved = migratedLaunch(launch, migration, 0)
    expect(moved.poolKey).toEqual(to)
    expect(moved.poolId).toBe(poolIdOf(to))
    expect(moved.feeSources).toEqual({ hook: newHook })
    expect(moved.feeSchedule).toEqual({ kind: 'linear', startTime: 1_000, startFee: 10_000, endFee: 10_000, durationSeconds: 0 })
    expect(moved.migrations).toEqual([
      { poolKey: from, poolId: launch.poolId, feeSources: launch.feeSources, feeSchedule: launch.feeSchedule, blockNumber: '20', txHash: migration.txHash },
    ])
    // Buying the coin (currency1) is zeroForOne: the low 12 bits of slot0's protocolFee.
    expect(migratedLaunch(launch, migration, (7 << 12) | 300).feeSchedule).toMatchObject({ protocolFee: 300 })
  })

  it('a destination that keeps the dynamic-fee flag keeps the launch schedule', () => {
    const dynamic = decodeZoraMigration(migrationLog(coin, from, { ...to, fee: 0x800000 }), launch)!
    expect(migratedLaunch(launch, dynamic, 0).feeSchedule).toEqual({ kind: 'linear', startTime: 1_000, startFee: 990_000, endFee: 10_000, durationSeconds: 10 })
  })

  it('a reorg below the move brings the launch back to the pool it left; one at or above keeps it', () => {
    const moved = migratedLaunch(launch, migration, 0)
    expect(launchBeforeMigrationsAbove(moved, 19n)).toEqual(launch)
    expect(launchBeforeMigrationsAbove(moved, 20n)).toBe(moved)
    expect(launchBeforeMigrationsAbove(launch, 0n)).toBe(launch)
  })
})
