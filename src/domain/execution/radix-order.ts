/**
 * Stable descending order of items by two non-negative numeric keys (primary first), as an index permutation, in
 * linear time: an LSD radix sort over the IEEE-754 bit patterns, which order exactly like the values for non-negative
 * doubles (+Infinity included). Ties keep their input order. At 100,000 orders this is several times faster than a
 * comparator sort, which matters because prioritisation runs on the hot path of a launch.
 */
export function radixOrderDescending(primary: Float64Array, secondary: Float64Array): Uint32Array {
  const n = primary.length
  let order = new Uint32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  let scratch = new Uint32Array(n)
  const counts = new Uint32Array(65_536)
  // Least significant key first; each 64-bit pattern as four 16-bit digits, low to high.
  for (const keys of [secondary, primary]) {
    const words = new Uint32Array(keys.buffer, keys.byteOffset, n * 2)
    for (let digit = 0; digit < 4; digit++) {
      const word = digit >> 1
      const shift = (digit & 1) * 16
      counts.fill(0)
      for (let i = 0; i < n; i++) counts[0xffff - ((words[i * 2 + word]! >>> shift) & 0xffff)]!++
      // One bucket holding everything: this digit is equal for all, nothing to move.
      let skip = false
      for (let b = 0; b < 65_536; b++) {
        const c = counts[b]!
        if (c === n) skip = true
        if (c !== 0) break
      }
      if (skip) continue
      let sum = 0
      for (let b = 0; b < 65_536; b++) {
        const c = counts[b]!
        counts[b] = sum
        sum += c
      }
      for (let i = 0; i < n; i++) {
        const index = order[i]!
        const bucket = 0xffff - ((words[index * 2 + word]! >>> shift) & 0xffff)
        scratch[counts[bucket]!++] = index
      }
      const swap = order
      order = scratch
      scratch = swap
    }
  }
  return order
}
