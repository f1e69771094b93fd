import { nextBlockTimestamp } from '../chain/block-seconds.ts'
import type { Hash } from 'viem'
import type { LaunchRecord, PriceTick, TickReason } from '../domain/execution/tick-records.ts'
import { effectiveMarketCap } from './effective-market-cap.ts'
import { fdvUsd } from './fdv.ts'
import { type FeeSchedule, feeAt, type NextBlock, scheduleSettled } from './fee-schedule.ts'
import { type Fraction, floorOf, toNumber } from './fraction.ts'
import { bridgeRouteFee } from './bridge-fee.ts'
import { compoundFees } from './route-price.ts'

/** A paired asset's USD price as a tick states it: stablecoin atoms per 10^18 smallest units, floored. */
export const pairedUsdAtomsOf = (pairedUsd: Fraction): string =>
  floorOf({ numerator: pairedUsd.numerator * 10n ** 18n, denominator: pairedUsd.denominator }).toString()
import { tokenPriceInPaired } from './sqrt-price.ts'

export interface PoolState {
  sqrtPriceX96: bigint
  liquidity: bigint
}

export interface TickInput {
  launch: LaunchRecord
  reason: TickReason
  pool: PoolState
  /** Stablecoin smallest units per smallest unit of the launch's paired asset (paired-prices.ts), at this block. */
  pairedUsd: Fraction
  block: { number: bigint; hash: Hash; timestamp: bigint }
  logIndex: number
  /** Seconds between blocks (0.2 on Base since Denim): a swap submitted now lands in the next block (nextBlockTimestamp). */
  blockTimeSeconds: number
  at: number
}

/**
 * The block a buy submitted after `block` lands in: the next number, at the earliest whole second it can carry (the
 * contracts read `block.timestamp` in whole seconds; with 200 ms blocks the next block usually shares the second).
 */
export const nextBlockAfter = (block: { number: bigint; timestamp: bigint }, blockTimeSeconds: number): NextBlock => ({
  number: block.number + 1n,
  timestamp: nextBlockTimestamp(Number(block.timestamp), blockTimeSeconds),
})

/**
 * A price tick, pure: the pool's FDV in stablecoin atoms and the effective market cap for a swap landing in the NEXT
 * block (the fee schedule evaluated for that block's number and expected timestamp, compounded with the static fees of
 * the pools a bridged pair is bought through: ETH -> ZORA). Exact until the final rounding (cap up).
 */
export function computePriceTick(input: TickInput): PriceTick {
  const { launch } = input
  const schedule = launch.feeSchedule as FeeSchedule
  const next = nextBlockAfter(input.block, input.blockTimeSeconds)
  const quote = feeAt(schedule, next)
  const tokenIsCurrency0 = launch.poolKey.currency0.toLowerCase() === launch.token.toLowerCase()
  const tokenPrice = tokenPriceInPaired(input.pool.sqrtPriceX96, tokenIsCurrency0)
  const fdv = fdvUsd({ tokenPriceInPaired: tokenPrice, pairedUsd: input.pairedUsd, totalSupply: BigInt(launch.totalSupply) })
  const totalFee = compoundFees(quote.totalFee, bridgeRouteFee(launch.paired))
  const cap = effectiveMarketCap(fdv, totalFee)
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
    pairedUsdAtoms: pairedUsdAtomsOf(input.pairedUsd),
    nextBlockTimestamp: next.timestamp,
    lpFeePips: quote.lpFee,
    totalFeeFraction: toNumber(totalFee),
    swapsAllowed: quote.swapsAllowed,
    fdvUsdAtoms: floorOf(fdv).toString(),
    effectiveCapAtoms: cap === null ? null : cap.toString(),
    feeDecaying: !scheduleSettled(schedule, next),
    at: input.at,
  }
}

/** Whether new blocks still change what orders are compared with (a fee still decaying, gating still ahead). */
export function needsBlockTicks(launch: LaunchRecord, latestBlock: { number: bigint; timestamp: bigint }, blockTimeSeconds: number): boolean {
  return !scheduleSettled(launch.feeSchedule as FeeSchedule, nextBlockAfter(latestBlock, blockTimeSeconds))
}
