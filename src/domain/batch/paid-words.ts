const AMOUNT_BITS = 96n

/**
 * A chunk's (or an executeBatch's) paid words as PrebuyBatchBuyer hashes them: the entries sent (wallet << 96 | amount)
 * with the amount of every skipped buyer (its index in the entries: `CollectSkipped` / `BuyerSkipped`) zeroed. What
 * `sweepChunk` / `refund` (and `sweep`) must be given back, rebuilt from the transaction's calldata and its events.
 */
export function paidWords(entries: readonly bigint[], skippedIndices: Iterable<number>): bigint[] {
  const out = [...entries]
  for (const index of skippedIndices) {
    if (!Number.isInteger(index) || index < 0 || index >= out.length) throw new RangeError(`no entry at index ${index}`)
    out[index] = (out[index]! >> AMOUNT_BITS) << AMOUNT_BITS
  }
  return out
}
