import type { Address, Hex } from 'viem'
import type { DevBuyParams, DevBuyPoolShape } from '../../../domain/records.ts'
import { CLANKER_DEPLOY_ABI, clankerDeploymentConfig, clankerDevBuyExtension } from '../../../launchpads/clanker/clanker-deployment-config.ts'
import { type ClankerPositionConfig, clankerLaunchPool } from '../../../launchpads/clanker/clanker-launch-pool.ts'
import { MAX_TICK, MIN_TICK, maxUsableTick } from '../../../pricing/v4/tick-math.ts'
import { CLANKER_DEFAULT_POOL, CLANKER_TOKEN_SUPPLY, REFERENCE_LAUNCH_FEES } from '../../../launchpads/reference-launch.ts'
import type { DevBuyDeployment } from './dev-buy-deployment.ts'

/** One chain's Clanker modules and the launch shape a dev-buy project gets there. */
export interface ClankerDevBuySetup {
  chainId: number
  weth: Address
  factory: Address
  /** The static-fee hook (StaticFeeV2): the dev-buy launch's pool charges `lpFeePips` on buys and sells. */
  staticHook: Address
  locker: Address
  mevModule: Address
  /** The ETH dev-buy extension (ClankerUniv4EthDevBuy). */
  devBuyExtension: Address
  tickIfToken0IsClanker: number
  tickSpacing: number
  positions: readonly ClankerPositionConfig[]
  lpFeePips: number
  /** The sniper fee after the launch (the MEV module's FeeConfig): pips and seconds. */
  sniperFee: { startingFee: number; endingFee: number; secondsToDecay: number }
}

/**
 * Clanker v4 on Base, for dev-buy launches: the factory, StaticFeeV2 hook, LP locker, SniperAuctionV2 and ETH DevBuy
 * addresses as clanker-sdk publishes them (`CLANKERS.clanker_v4` and its `related`, clanker-sdk 4.2; the factory, hooks,
 * MEV module and DevBuy also in ../shared/facts/launchpads.md), the SDK's defaults for the launch shape: the Standard
 * position (one range from the starting tick -230,400 to -120,000), tick spacing 200, a static 1% fee, and the sniper
 * fee 66.6777% -> 4.1673% over 15 s.
 */
export const BASE_CLANKER_DEV_BUY: ClankerDevBuySetup = {
  chainId: 8453,
  weth: '0x4200000000000000000000000000000000000006',
  factory: '0xE85A59c628F7d27878ACeB4bf3b35733630083a9',
  staticHook: '0xb429d62f8f3bFFb98CdB9569533eA23bF0Ba28CC',
  locker: '0x63D2DfEA64b3433F4071A98665bcD7Ca14d93496',
  mevModule: '0xebB25BB797D82CB78E1bc70406b13233c0854413',
  devBuyExtension: '0x1331f0788F9c08C8F38D52c7a1152250A9dE00be',
  ...CLANKER_DEFAULT_POOL,
  lpFeePips: REFERENCE_LAUNCH_FEES.clanker.lpFee,
  sniperFee: {
    startingFee: REFERENCE_LAUNCH_FEES.clanker.startingFee,
    endingFee: REFERENCE_LAUNCH_FEES.clanker.endingFee,
    secondsToDecay: REFERENCE_LAUNCH_FEES.clanker.secondsToDecay,
  },
}

/** The chain's setup with the launch shape the owner chose (its starting tick, positions and static LP fee). */
export function withPoolShape(setup: ClankerDevBuySetup, shape: DevBuyPoolShape | undefined): ClankerDevBuySetup {
  if (!shape) return setup
  return { ...setup, tickIfToken0IsClanker: shape.startingTick, positions: shape.positions, lpFeePips: shape.lpFeePips }
}

/** Clanker's static hook refuses LP fees above 10% (../shared/facts/launchpads.md: "capped at 10%"). */
export const CLANKER_MAX_STATIC_FEE_PIPS = 100_000

/** uint128's largest value: `LiquidityAmounts.getLiquidityForAmounts` casts its result with SafeCast.toUint128. */
const MAX_UINT128 = (1n << 128n) - 1n

/**
 * The v4 PoolManager's cap on the liquidity referencing one tick (`Pool.tickSpacingToMaxLiquidityPerTick`,
 * Uniswap/v4-core `src/libraries/Pool.sol`): uint128's max over the number of usable ticks; `modifyLiquidity` reverts
 * `TickLiquidityOverflow(tick)` when a tick's gross liquidity would pass it.
 */
export function maxLiquidityPerTick(tickSpacing: number): bigint {
  const minTick = Math.trunc(MIN_TICK / tickSpacing) * tickSpacing
  const maxTick = Math.trunc(MAX_TICK / tickSpacing) * tickSpacing
  return MAX_UINT128 / BigInt((maxTick - minTick) / tickSpacing + 1)
}

/**
 * Why a pool shape cannot launch on this chain's Clanker (null: it can), as the factory's deployment checks it: the
 * starting tick on the tick spacing and in range, the fee within the static hook's cap, the positions as the LP locker
 * checks them (clankerLaunchPool: ranges on the spacing, inside Uniswap's MIN/MAX ticks, at or above the start, shares
 * adding up to 10,000), and then what the locker's minting does with them, for either way the token sorts against
 * WETH (its address is drawn from a secret salt, so both can happen): `LiquidityAmounts.getLiquidityForAmounts`
 * reverts when a position's liquidity passes uint128 (SafeCast), the PoolManager refuses a position of no liquidity
 * (`Position.update`: CannotUpdateEmptyPosition) and a tick whose gross liquidity passes maxLiquidityPerTick
 * (TickLiquidityOverflow). Issue 24: a start of 887,000 passed the earlier checks and the deployment then reverted.
 */
export function poolShapeProblem(setup: ClankerDevBuySetup, shape: DevBuyPoolShape): string | null {
  const { tickSpacing } = setup
  if (!Number.isInteger(shape.startingTick) || shape.startingTick % tickSpacing !== 0 || Math.abs(shape.startingTick) > maxUsableTick(tickSpacing)) {
    return `startingTick must be a multiple of the tick spacing ${tickSpacing} within ±${maxUsableTick(tickSpacing)}`
  }
  if (!Number.isInteger(shape.lpFeePips) || shape.lpFeePips < 0 || shape.lpFeePips > CLANKER_MAX_STATIC_FEE_PIPS) {
    return `the LP fee must be 0 to ${CLANKER_MAX_STATIC_FEE_PIPS / 100} basis points`
  }
  // The ranges (on the spacing, within the ticks, at or above the start) and the shares' sum are clankerLaunchPool's
  // checks; a share of nothing is the one it lets through.
  for (const p of shape.positions) {
    if (!Number.isInteger(p.bps) || p.bps <= 0) return `position [${p.tickLower}, ${p.tickUpper}] (${p.bps} bps) must take a positive share`
  }
  const perTickCap = maxLiquidityPerTick(tickSpacing)
  for (const tokenIsCurrency0 of [true, false]) {
    let pool: ReturnType<typeof clankerLaunchPool>
    try {
      pool = clankerLaunchPool({ ...shape, tickIfToken0IsClanker: shape.startingTick, tickSpacing, poolSupply: CLANKER_TOKEN_SUPPLY, tokenIsCurrency0 })
    } catch (error) {
      if (error instanceof RangeError) return error.message
      throw error
    }
    const gross = new Map<number, bigint>()
    for (const [i, placed] of pool.positions.entries()) {
      const p = shape.positions[i]!
      const range = `position [${p.tickLower}, ${p.tickUpper}]`
      if (placed.liquidity === 0n) return `${range} would hold no liquidity at this starting tick`
      if (placed.liquidity > MAX_UINT128) return `${range} would need more liquidity than a pool holds (over 2^128): move the start or widen the range`
      for (const tick of [placed.tickLower, placed.tickUpper]) gross.set(tick, (gross.get(tick) ?? 0n) + placed.liquidity)
    }
    for (const [tick, liquidity] of gross) {
      if (liquidity > perTickCap) {
        const asConfigured = tokenIsCurrency0 ? tick : -tick
        return `the positions at tick ${asConfigured} would pass Uniswap's liquidity cap per tick (${perTickCap}): move the start lower or widen the ranges`
      }
    }
  }
  return null
}

/**
 * The deployment a dev-buy launch makes through Clanker: the owner's token parameters, the chain's launch shape, the
 * project's token admin receiving the LP-fee rewards, the attempt's secret salt (newLaunchSalt: Clanker deploys the
 * token by CREATE2 from `keccak256(abi.encode(tokenAdmin, salt))` and the token's constructor arguments, whoever calls
 * it, so a public salt would let anyone deploy the token first), and the ETH dev-buy extension buying for the
 * coordinator (its msgValue is set on chain to the ETH the contributions bought).
 */
export function clankerDevBuyDeployment(chainSetup: ClankerDevBuySetup, params: DevBuyParams, coordinator: Address, salt: Hex): DevBuyDeployment {
  const setup = withPoolShape(chainSetup, params.pool)
  const admin = params.tokenAdmin as Address
  const config = clankerDeploymentConfig({
    chainId: setup.chainId,
    token: { admin, name: params.name, symbol: params.symbol, salt, image: params.image, metadata: params.metadata, context: 'prebuy dev buy' },
    pool: {
      hook: setup.staticHook,
      pairedToken: setup.weth,
      tickIfToken0IsClanker: setup.tickIfToken0IsClanker,
      tickSpacing: setup.tickSpacing,
      fee: { kind: 'static', clankerFee: setup.lpFeePips, pairedFee: setup.lpFeePips },
    },
    locker: { address: setup.locker, positions: setup.positions, rewards: [{ admin, recipient: admin, bps: 10_000 }] },
    mevModule: { address: setup.mevModule, ...setup.sniperFee },
    extensions: [clankerDevBuyExtension(setup.devBuyExtension, { recipient: coordinator, wei: 0n })],
  })
  return {
    factory: setup.factory,
    factoryAbi: CLANKER_DEPLOY_ABI,
    config,
    devBuyIndex: 0,
    pool: { tickIfToken0IsClanker: setup.tickIfToken0IsClanker, tickSpacing: setup.tickSpacing, positions: setup.positions },
    lpFeePips: setup.lpFeePips,
    totalSupply: CLANKER_TOKEN_SUPPLY,
  }
}
