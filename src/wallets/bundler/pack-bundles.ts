/**
 * Splits an ordered list of items into consecutive chunks whose gas stays within `maxGas`, keeping the given order
 * (the executor's priority order) and using as few chunks as a greedy pass allows. `gasOf` is each item's share;
 * `overhead` is paid once per chunk (the transaction and handleOps' own cost). An item too large for any chunk
 * still gets a chunk of its own: the estimate is a guess, and the node's answer decides.
 */
export function packBundles<T>(items: readonly T[], gasOf: (item: T) => bigint, maxGas: bigint, overhead = 0n): T[][] {
  const chunks: T[][] = []
  let current: T[] = []
  let used = overhead
  for (const item of items) {
    const gas = gasOf(item)
    if (current.length > 0 && used + gas > maxGas) {
      chunks.push(current)
      current = []
      used = overhead
    }
    current.push(item)
    used += gas
  }
  if (current.length > 0) chunks.push(current)
  return chunks
}
