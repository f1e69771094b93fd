/**
 * Exact non-negative rationals over bigint. Prices derived from sqrtPriceX96 are ratios of huge integers; keeping them
 * as fractions until the one final rounding makes every money figure exact and the rounding direction explicit.
 */
export interface Fraction {
  readonly numerator: bigint
  readonly denominator: bigint
}

export const fraction = (numerator: bigint, denominator: bigint = 1n): Fraction => {
  if (denominator === 0n) throw new RangeError('fraction denominator is zero')
  return denominator < 0n ? { numerator: -numerator, denominator: -denominator } : { numerator, denominator }
}

export const ONE: Fraction = { numerator: 1n, denominator: 1n }

export const multiply = (a: Fraction, b: Fraction): Fraction => fraction(a.numerator * b.numerator, a.denominator * b.denominator)

export const invert = (a: Fraction): Fraction => fraction(a.denominator, a.numerator)

export const oneMinus = (a: Fraction): Fraction => fraction(a.denominator - a.numerator, a.denominator)

export const floorOf = (a: Fraction): bigint => {
  const q = a.numerator / a.denominator
  return a.numerator < 0n && q * a.denominator !== a.numerator ? q - 1n : q
}

export const ceilOf = (a: Fraction): bigint => -floorOf(fraction(-a.numerator, a.denominator))

/** For logs and display only; never for money decisions. */
export const toNumber = (a: Fraction): number => {
  // Scale first so fractions of huge integers keep their significant digits.
  const scale = 10n ** 18n
  return Number((a.numerator * scale) / a.denominator) / 1e18
}

export const compare = (a: Fraction, b: Fraction): -1 | 0 | 1 => {
  const left = a.numerator * b.denominator
  const right = b.numerator * a.denominator
  return left < right ? -1 : left > right ? 1 : 0
}
