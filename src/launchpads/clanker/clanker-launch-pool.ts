import type { LiquidityPosition, PoolLiquidityState } from '../../pricing/v4/simulate-swap.ts'
import { getLiquidityForAmount0, getLiquidityForAmount1 } from '../../pricing/v4/liquidity-amounts.ts'
import { getSqrtPriceAtTick } from '../../pricing/v4/tick-math.ts'

/** One entry of a Clanker locker config: a range in the "token is currency0" convention and its share of the pool supply. */
export interface ClankerPositionConfig {
  tickLower: number
  tickUpper: number
  /** Basis points of the pool supply; the entries add up to 10,000. */
  bps: number
}

export interface ClankerPoolConfig {
  /** PoolConfig.tickIfToken0IsClanker: the starting tick as if the token were currency0. */
  tickIfToken0IsClanker: number
  tickSpacing: number
  positions: readonly ClankerPositionConfig[]
  /** The token supply placed in the pool: the total supply less what extensions (a dev buy's extensionBps) take. */
  poolSupply: bigint
  tokenIsCurrency0: boolean
}

/** ClankerLpLocker*.MAX_LP_POSITIONS. */
export const CLANKER_MAX_LP_POSITIONS = 7

/**
 * The pool a Clanker v4 deployment creates, before any swap: initialised at the starting tick (negated when the token
 * sorts after its paired token), with one single-sided position per locker entry holding `poolSupply * bps / 10,000`
 * tokens (rounded down), ticks negated and swapped when the token is currency1, liquidity rounded down as
 * LiquidityAmounts does. Read from clanker-devco/v4-contracts `src/lp-lockers/ClankerLpLockerFeeConversion.sol`
 * (`_mintLiquidity`: the bps split, the tick mirroring, `getLiquidityForAmounts` at the starting price) and its config
 * checks (ranges on the spacing, every lower tick at or above the starting tick, bps adding up to 10,000, at most 7).
 */
export function clankerLaunchPool(config: ClankerPoolConfig): PoolLiquidityState {
  const { tickSpacing, positions } = config
  if (positions.length === 0 || positions.length > CLANKER_MAX_LP_POSITIONS)
    throw new RangeError(`a Clanker pool takes 1 to ${CLANKER_MAX_LP_POSITIONS} positions`)
  if (positions.reduce((sum, p) => sum + p.bps, 0) !== 10_000) throw new RangeError('the positions’ basis points must add up to 10,000')
  for (const p of positions) {
    if (p.tickLower >= p.tickUpper || p.tickLower % tickSpacing !== 0 || p.tickUpper % tickSpacing !== 0)
      throw new RangeError(`position [${p.tickLower}, ${p.tickUpper}] is not a range on tick spacing ${tickSpacing}`)
    if (p.tickLower < config.tickIfToken0IsClanker) throw new RangeError(`position [${p.tickLower}, ${p.tickUpper}] starts below the starting tick`)
  }
  const tick = config.tokenIsCurrency0 ? config.tickIfToken0IsClanker : -config.tickIfToken0IsClanker
  const placed: LiquidityPosition[] = positions.map((p) => {
    const amount = (config.poolSupply * BigInt(p.bps)) / 10_000n
    const [tickLower, tickUpper] = config.tokenIsCurrency0 ? [p.tickLower, p.tickUpper] : [-p.tickUpper, -p.tickLower]
    const lower = getSqrtPriceAtTick(tickLower)
    const upper = getSqrtPriceAtTick(tickUpper)
    // Every range sits on the far side of the start from where the token is paid for, so one side only.
    const liquidity = config.tokenIsCurrency0 ? getLiquidityForAmount0(lower, upper, amount) : getLiquidityForAmount1(lower, upper, amount)
    return { tickLower, tickUpper, liquidity }
  })
  return { sqrtPriceX96: getSqrtPriceAtTick(tick), tick, tickSpacing, positions: placed }
}
