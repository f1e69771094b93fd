import { fraction, type Fraction } from './fraction.ts'

/** Fees in Uniswap v4 units: 1,000,000 = 100% ("pips"). */
export const PIPS = 1_000_000

export const feeFractionFromPips = (pips: number): Fraction => fraction(BigInt(pips), BigInt(PIPS))

/**
 * Clanker's total fee on an exact-input buy: the hook first takes a protocol fee of 20% of the charged LP fee f from
 * the input, as input x f/(5 + f), and the pool then charges f on the rest, so the buyer keeps (1 - f) / (1 + 0.2 f):
 * f_total = 1 - (1 - f)/(1 + 0.2 f) = 1.2 f / (1 + 0.2 f) = 6F / (5e6 + F) with F in pips. Exact, no rounding.
 */
export const clankerTotalFeeFraction = (lpFeePips: number): Fraction => fraction(6n * BigInt(lpFeePips), 5n * BigInt(PIPS) + BigInt(lpFeePips))

/** The part of an exact-input amount the Clanker hook keeps as protocol fee, rounded like the devnet hook. */
export const clankerProtocolFeeOf = (amountIn: bigint, lpFeePips: number): bigint => (amountIn * BigInt(lpFeePips)) / (5n * BigInt(PIPS) + BigInt(lpFeePips))
