import type { LoadedOrder } from './warm-books.ts'

/**
 * The buyers (user indices) of the launched projects' active orders, which the readying pass asks for on every
 * processed block (ready-ahead.ts: a wallet that may be buying is neither readied nor approved ahead). The same set is
 * handed back while the projects' order lists are the same arrays (the warm snapshot hands back the same array until a
 * write): a held book of 17,000 orders had 17,000 user indices added to a new set every block, and as many deleted from
 * the waiting set after it, ~4 ms of each 200 ms block on the event loop the executor's ticks wait on (a CPU profile of
 * the held-ticks bench, 2026-11-27, docs/execution.md §3). The set handed out is never changed: a caller that adds to
 * it copies it first.
 */
export function createLaunchedBuyers(): (lists: ReadonlyArray<readonly LoadedOrder[]>) => ReadonlySet<number> {
  let last: { lists: ReadonlyArray<readonly LoadedOrder[]>; buyers: ReadonlySet<number> } | undefined
  return (lists) => {
    if (last && last.lists.length === lists.length && last.lists.every((list, i) => list === lists[i])) return last.buyers
    const buyers = new Set<number>()
    for (const orders of lists) for (const loaded of orders) buyers.add(loaded.userIndex)
    last = { lists, buyers }
    return buyers
  }
}
