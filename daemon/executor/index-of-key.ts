/**
 * Index of the entry whose order has `keyId` in `list`, a project's held orders in keyId order (as a load lists them),
 * by binary search; -1: not there.
 */
export function indexOfKey(list: ReadonlyArray<{ order: { keyId: string } }>, keyId: string): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (list[mid]!.order.keyId < keyId) lo = mid + 1
    else hi = mid
  }
  return lo < list.length && list[lo]!.order.keyId === keyId ? lo : -1
}
