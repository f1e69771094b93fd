import { compare, type Fraction } from './fraction.ts'

/**
 * The sanity band on ETH's USD price (issue 24): the v3 pool's spot (slot0) moves within a block, so it is compared
 * with the same pool's time-weighted average over minutes (its oracle, `observe`), which one block cannot move much.
 */
export interface EthUsdBand {
  /** The TWAP's window in seconds (default 600: ten minutes). */
  twapSeconds: number
  /** Largest accepted gap between spot and TWAP, in basis points of the TWAP (default 200: 2%). */
  bandBps: number
}

export const DEFAULT_ETH_USD_BAND: EthUsdBand = { twapSeconds: 600, bandBps: 200 }

export type EthUsdBandOutcome =
  /** Spot within the band of the TWAP: the spot is the price. */
  | { status: 'in_band'; price: Fraction; deviationBps: number }
  /**
   * Spot outside the band: the price is the higher of spot and TWAP. Every use of it is a USD cap on what a buyer pays
   * (an order's FDV limit, a dev buy's price bounds): a higher ETH price makes every token look dearer in USD, so
   * fewer buys pass. If the spot was pushed up, the buy really pays that spot for its ETH (through this pool), and the
   * spot is what is counted; if it was pushed down, the buy gets its ETH cheaper than the TWAP counted. Either way no
   * buy passes a limit it would not pass at the price it actually pays, so a manipulated spot never buys above a limit.
   */
  | { status: 'out_of_band'; price: Fraction; spot: Fraction; twap: Fraction; deviationBps: number }
  /** No second source (the pool has no history yet): the spot, unchecked. */
  | { status: 'no_twap'; price: Fraction }

/** |spot − twap| / twap in basis points, rounded up (so the band's edge is exact). */
export function deviationBps(spot: Fraction, twap: Fraction): number {
  const a = spot.numerator * twap.denominator
  const b = twap.numerator * spot.denominator
  const diff = a > b ? a - b : b - a
  if (b === 0n) return Number.POSITIVE_INFINITY
  const bps = (diff * 10_000n + b - 1n) / b
  return bps > BigInt(Number.MAX_SAFE_INTEGER) ? Number.POSITIVE_INFINITY : Number(bps)
}

/** The price eligibility may use, given the spot, the TWAP (null: none) and the band. */
export function bandEthUsd(spot: Fraction, twap: Fraction | null, band: Pick<EthUsdBand, 'bandBps'>): EthUsdBandOutcome {
  if (twap === null) return { status: 'no_twap', price: spot }
  const gap = deviationBps(spot, twap)
  if (gap <= band.bandBps) return { status: 'in_band', price: spot, deviationBps: gap }
  return { status: 'out_of_band', price: compare(spot, twap) >= 0 ? spot : twap, spot, twap, deviationBps: gap }
}

/**
 * The arithmetic mean tick between two tick cumulatives `seconds` apart, rounded toward negative infinity as
 * Uniswap's OracleLibrary.consult does (v3-periphery `contracts/libraries/OracleLibrary.sol`).
 */
export function meanTick(olderCumulative: bigint, newerCumulative: bigint, seconds: number): number {
  if (!Number.isInteger(seconds) || seconds <= 0) throw new RangeError(`a TWAP window of ${seconds} s`)
  const delta = newerCumulative - olderCumulative
  const window = BigInt(seconds)
  let tick = delta / window
  if (delta < 0n && delta % window !== 0n) tick--
  return Number(tick)
}
