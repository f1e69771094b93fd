/**
 * A decimal amount string ("12.5") as an exact number of atomic units (10^-decimals), without a regex or a BigInt:
 * the executor parses 100,000 amounts whenever a launch's order set changes, and this is several times faster than
 * parseDecimal. Accepts exactly what parseDecimal accepts (/^\d+(\.\d+)?$/ with at most `decimals` fraction digits).
 * Returns NaN for a malformed amount and +Infinity for a well-formed one above 2^53 - 1 atoms (not an exact double:
 * the caller falls back to parseDecimal for its exact bigint).
 */
export function atomsNumber(value: string, decimals: number): number {
  const length = value.length
  let i = 0
  let whole = 0
  for (; i < length; i++) {
    const digit = value.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) break
    whole = whole * 10 + digit
  }
  if (i === 0) return Number.NaN
  let fraction = 0
  let fractionDigits = 0
  if (i < length) {
    if (value.charCodeAt(i) !== 46) return Number.NaN
    const start = ++i
    for (; i < length; i++) {
      const digit = value.charCodeAt(i) - 48
      if (digit < 0 || digit > 9) return Number.NaN
      fraction = fraction * 10 + digit
    }
    fractionDigits = length - start
    if (fractionDigits === 0 || fractionDigits > decimals) return Number.NaN
  }
  const scale = POW10[decimals]
  if (scale === undefined) throw new RangeError(`unsupported decimals: ${decimals}`)
  // Every partial sum of the whole part is at most its final value, so a final value within the bound was computed
  // exactly; whole * scale and the sum below are then exact or land at/above 2^53 (caught by the last check).
  if (whole > MAX_WHOLE[decimals]!) return Number.POSITIVE_INFINITY
  const atoms = fractionDigits === 0 ? whole * scale : whole * scale + fraction * POW10[decimals - fractionDigits]!
  return atoms > Number.MAX_SAFE_INTEGER ? Number.POSITIVE_INFINITY : atoms
}

const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k)
/** The largest whole part whose atoms (whole * 10^decimals) stay a safe integer, per decimals. */
const MAX_WHOLE = POW10.map((scale) => Math.floor(Number.MAX_SAFE_INTEGER / scale))
