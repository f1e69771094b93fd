import type { LoadedOrder } from './warm-books.ts'

/**
 * The buyers (user indices) of the launched projects' active orders, which the readying pass asks for on every
 * processed block (ready-ahead.ts: a wallet that may be buying is neither readied nor approved ahead). The same set is
 * handed back while the projects' order lists hold the same buyers in the same places (the warm snapshot hands back
 * the same array until a write; a PATCH's new array differs in one entry, sameBuyers): a held book of 17,000 orders had 17,000 user indices added to a new set every block, and as many deleted from
 * the waiting set after it, ~4 ms of each 200 ms block on the event loop the executor's ticks wait on (a CPU profile of
 * the held-ticks bench, 2026-11-27, docs/execution.md §3). The set handed out is never changed: a caller that adds to
 * it copies it first.
 */
export function createLaunchedBuyers(): (lists: ReadonlyArray<readonly LoadedOrder[]>) => ReadonlySet<number> {
  let last: { lists: ReadonlyArray<readonly LoadedOrder[]>; buyers: ReadonlySet<number> } | undefined
  return (lists) => {
    if (last && last.lists.length === lists.length && last.lists.every((list, i) => sameBuyers(list, lists[i]!))) {
      last = { lists, buyers: last.buyers }
      return last.buyers
    }
    const buyers = new Set<number>()
    for (const orders of lists) for (const loaded of orders) buyers.add(loaded.userIndex)
    last = { lists, buyers }
    return buyers
  }
}

/**
 * The same buyers, index for index: the same array, or (a write such as a PATCH, which hands out a new array) one whose
 * entries are the same objects but a few, and those of the same buyer. Only the entries that differ are read: the
 * loader's patch hands the unchanged ones back as the very same objects (load-orders.ts), so a PATCH of one order of
 * 17,000 compares 17,000 pointers and reads two entries. Another length (an order placed or gone): gathered again.
 */
function sameBuyers(a: readonly LoadedOrder[], b: readonly LoadedOrder[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && a[i]!.userIndex !== b[i]!.userIndex) return false
  return true
}
