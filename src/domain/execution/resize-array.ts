/**
 * `array` with exactly `length` entries, reused in place: shortened by its length (V8 trims or keeps the backing store,
 * nothing allocated), grown by pushes of `fill` (amortised growth of a fast, packed backing store). Not `array.length =
 * length` to grow it: on an empty or short array that gives a sparse array, which V8 may keep in dictionary mode, and
 * every later write to it then goes through a hash table. Entries kept are not cleared: the caller writes them all.
 */
export function resizeArray<T>(array: T[], length: number, fill: T): T[] {
  if (array.length > length) array.length = length
  while (array.length < length) array.push(fill)
  return array
}
