/**
 * Stable descending order of items by two non-negative numeric keys (primary first), as an index permutation, in
 * linear time: an LSD radix sort over the IEEE-754 bit patterns, which order exactly like the values for non-negative
 * doubles (+Infinity included). Ties keep their input order. At 100,000 orders this is several times faster than a
 * comparator sort, which matters because prioritisation runs whenever a launch's order set changes.
 *
 * Only the bits that differ between keys are sorted on: the bits above the highest and below the lowest differing bit
 * are the same in every key (common exponent bits, trailing zero mantissa bits of round amounts) and cannot change the
 * order. The remaining range is cut into digits of at most 11 bits (2,048 buckets: the counters stay in L1 cache),
 * so typical books of micro-USD amounts sort in 6-8 passes over small arrays.
 */
export function radixOrderDescending(primary: Float64Array, secondary: Float64Array): Uint32Array {
  const n = primary.length
  let order = new Uint32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  if (n < 2) return order
  let scratch = new Uint32Array(n)
  const digits = new Uint16Array(n)
  const counts = new Uint32Array(1 << MAX_DIGIT_BITS)
  let identity = true
  // Least significant key first.
  for (const keys of [secondary, primary]) {
    const words = wordsOf(keys)
    const range = varyingBits(words, n)
    if (range === undefined) continue
    const [low, high] = range
    const width = high - low + 1
    const passes = Math.ceil(width / MAX_DIGIT_BITS)
    const bits = Math.ceil(width / passes)
    for (let pass = 0; pass < passes; pass++) {
      const shift = low + pass * bits
      const w = Math.min(bits, high + 1 - shift)
      const mask = (1 << w) - 1
      counts.fill(0, 0, mask + 1)
      // Digits inverted (mask - digit) so that ascending buckets give a descending order.
      if (shift >= 32) {
        const s = shift - 32
        for (let i = 0; i < n; i++) {
          const d = mask - ((words[2 * i + HI]! >>> s) & mask)
          digits[i] = d
          counts[d]!++
        }
      } else if (shift + w <= 32) {
        for (let i = 0; i < n; i++) {
          const d = mask - ((words[2 * i + LO]! >>> shift) & mask)
          digits[i] = d
          counts[d]!++
        }
      } else {
        const up = 32 - shift
        for (let i = 0; i < n; i++) {
          const d = mask - (((words[2 * i + LO]! >>> shift) | (words[2 * i + HI]! << up)) & mask)
          digits[i] = d
          counts[d]!++
        }
      }
      // One bucket holding everything: this digit is equal for all, nothing to move.
      if (counts[digits[0]!] === n) continue
      let sum = 0
      for (let b = 0; b <= mask; b++) {
        const c = counts[b]!
        counts[b] = sum
        sum += c
      }
      if (identity) {
        for (let i = 0; i < n; i++) scratch[counts[digits[i]!]!++] = i
        identity = false
      } else {
        for (let j = 0; j < n; j++) {
          const index = order[j]!
          scratch[counts[digits[index]!]!++] = index
        }
      }
      const swap = order
      order = scratch
      scratch = swap
    }
  }
  return order
}

const MAX_DIGIT_BITS = 11

// Word order of a double in a Float64Array's buffer (platform endianness; little-endian everywhere Node runs).
const LITTLE_ENDIAN = new Uint32Array(Float64Array.of(1).buffer)[1] === 0x3ff00000
const LO = LITTLE_ENDIAN ? 0 : 1
const HI = LITTLE_ENDIAN ? 1 : 0

const wordsOf = (keys: Float64Array): Uint32Array => new Uint32Array(keys.buffer, keys.byteOffset, keys.length * 2)

const trailingZeros = (x: number): number => 31 - Math.clz32(x & -x)

/** [lowest, highest] bit (0..63) in which some key's pattern differs from the first key's; undefined: all equal. */
function varyingBits(words: Uint32Array, n: number): [number, number] | undefined {
  const lo0 = words[LO]!
  const hi0 = words[HI]!
  let lo = 0
  let hi = 0
  for (let i = 0; i < n; i++) {
    lo |= words[2 * i + LO]! ^ lo0
    hi |= words[2 * i + HI]! ^ hi0
  }
  if (lo === 0 && hi === 0) return undefined
  const low = lo !== 0 ? trailingZeros(lo) : 32 + trailingZeros(hi)
  const high = hi !== 0 ? 63 - Math.clz32(hi) : 31 - Math.clz32(lo)
  return [low, high]
}
