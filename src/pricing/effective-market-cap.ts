import { ceilOf, fraction, type Fraction } from './fraction.ts'

/**
 * The market cap a buyer effectively pays: FDV / (1 - f_total), where f_total is every pool fee that reduces the tokens
 * received (sniper fee, LP fee, hook protocol fee) for a swap landing in the next block. The platform fee is not in it.
 * Rounded UP, so comparing `limit >= cap` never admits a buy above the limit. Returns null when f_total >= 1: no
 * finite cap, no order is eligible.
 */
export function effectiveMarketCap(fdv: bigint | Fraction, totalFee: Fraction): bigint | null {
  const value = typeof fdv === 'bigint' ? fraction(fdv) : fdv
  const keptNumerator = totalFee.denominator - totalFee.numerator
  if (keptNumerator <= 0n) return null
  return ceilOf(fraction(value.numerator * totalFee.denominator, value.denominator * keptNumerator))
}
