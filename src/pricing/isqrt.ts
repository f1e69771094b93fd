/** floor(sqrt(value)) for a non-negative bigint (Newton's method). */
export function isqrt(value: bigint): bigint {
  if (value < 0n) throw new RangeError('isqrt of a negative number')
  if (value < 2n) return value
  let x = value
  let y = (x + 1n) / 2n
  while (y < x) {
    x = y
    y = (x + value / x) / 2n
  }
  return x
}
