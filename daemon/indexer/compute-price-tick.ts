import type { Hash } from 'viem'
import type { LaunchRecord, PriceTick, TickReason } from '../../src/journal/journal-records.ts'
import { effectiveMarketCap } from '../../src/pricing/effective-market-cap.ts'
import { fdvUsd } from '../../src/pricing/fdv.ts'
import { feeAt, feeFloorAt, type FeeSchedule } from '../../src/pricing/fee-schedule.ts'
import { floorOf } from '../../src/pricing/fraction.ts'
import { ethUsdFromV3Slot0, tokenPriceInWeth } from '../../src/pricing/sqrt-price.ts'

export interface PoolState {
  sqrtPriceX96: bigint
  liquidity: bigint
}

export interface TickInput {
  launch: LaunchRecord
  reason: TickReason
  pool: PoolState
  /** The v3 WETH/stablecoin pool's sqrtPriceX96 and whether WETH is its token0. */
  ethUsd: { sqrtPriceX96: bigint; wethIsToken0: boolean }
  block: { number: bigint; hash: Hash; timestamp: bigint }
  logIndex: number
  /** Seconds between blocks: a swap submitted now lands at block time + this. */
  blockTimeSeconds: number
  at: number
}

/**
 * A price tick, pure: the pool's FDV in stablecoin atoms and the effective market cap for a swap landing in the NEXT
 * block (the fee schedule evaluated at that block's expected timestamp). Exact until the final rounding (cap up).
 */
export function computePriceTick(input: TickInput): PriceTick {
  const { launch } = input
  const schedule = launch.feeSchedule as FeeSchedule
  const nextBlockTimestamp = Number(input.block.timestamp) + input.blockTimeSeconds
  const quote = feeAt(schedule, nextBlockTimestamp)
  const tokenIsCurrency0 = launch.poolKey.currency0.toLowerCase() === launch.token.toLowerCase()
  const ethUsd = ethUsdFromV3Slot0(input.ethUsd.sqrtPriceX96, input.ethUsd.wethIsToken0)
  const fdv = fdvUsd({ tokenPriceInWeth: tokenPriceInWeth(input.pool.sqrtPriceX96, tokenIsCurrency0), ethUsd, totalSupply: BigInt(launch.totalSupply) })
  const cap = effectiveMarketCap(fdv, quote.totalFee)
  return {
    slug: launch.slug,
    chain: launch.chain,
    token: launch.token,
    reason: input.reason,
    blockNumber: input.block.number.toString(),
    blockHash: input.block.hash,
    logIndex: input.logIndex,
    sqrtPriceX96: input.pool.sqrtPriceX96.toString(),
    liquidity: input.pool.liquidity.toString(),
    ethUsdAtoms: floorOf({ numerator: ethUsd.numerator * 10n ** 18n, denominator: ethUsd.denominator }).toString(),
    nextBlockTimestamp,
    lpFeePips: quote.lpFee,
    totalFeeFraction: quote.totalFraction,
    swapsAllowed: quote.swapsAllowed,
    fdvUsdAtoms: floorOf(fdv).toString(),
    effectiveCapAtoms: cap === null ? null : cap.toString(),
    feeDecaying: nextBlockTimestamp < feeFloorAt(schedule) || !quote.swapsAllowed,
    at: input.at,
  }
}

/** Whether new blocks still change the price orders are compared with (time-based fee above its floor, or swaps not open yet). */
export function needsBlockTicks(launch: LaunchRecord, latestBlockTimestamp: bigint, blockTimeSeconds: number): boolean {
  const schedule = launch.feeSchedule as FeeSchedule
  const next = Number(latestBlockTimestamp) + blockTimeSeconds
  return next <= feeFloorAt(schedule) || !feeAt(schedule, next).swapsAllowed
}
