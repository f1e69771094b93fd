/**
 * Wallets of an order book by index: an append-only string -> index table. A book rebuild indexes up to 100,000
 * addresses at once, and both a Map<string, number> (~0.5 µs per new 42-character key) and an open-addressing table
 * (a cache miss per address in a 1 MB table) cost 20-50 ms there. indexWallets instead hashes every address (a few
 * characters of its random hex tail), radix-sorts the hashes and groups equal runs: sequential passes, ~5x faster.
 * Lookups binary-search the sorted hashes; wallets added later (merged orders) go to a small Map.
 *
 * Append-only, so a book derived from another (filtered, merged) may share it: indices never move, and a book only
 * ever looks up the wallets of its own orders. Keys are taken as given (the caller normalises case).
 */
export interface WalletIndex {
  /** Wallet per index. */
  readonly names: readonly string[]
  /** The wallet's index, or -1. */
  indexOf(wallet: string): number
  /** The wallet's index, added when new. */
  intern(wallet: string): number
}

/** The index of `wallets` (indices in order of first appearance) and each input's wallet index. */
export function indexWallets(wallets: readonly string[]): { index: WalletIndex; walletOf: Uint32Array } {
  const n = wallets.length
  const hashes = new Uint32Array(n)
  for (let i = 0; i < n; i++) hashes[i] = hashOf(wallets[i]!)
  const order = ascendingOrder(hashes)

  // Per input: the first input with the same wallet (itself when first). Equal wallets have equal hashes, so they sit
  // in one run of the sorted order, in input order (the sort is stable); runs are almost always of length 1.
  const first = new Uint32Array(n)
  for (let start = 0; start < n; ) {
    const h = hashes[order[start]!]!
    let end = start + 1
    while (end < n && hashes[order[end]!] === h) end++
    for (let k = start; k < end; k++) {
      const i = order[k]!
      first[i] = i
      for (let e = start; e < k; e++) {
        const earlier = order[e]!
        if (first[earlier] === earlier && wallets[earlier] === wallets[i]) {
          first[i] = earlier
          break
        }
      }
    }
    start = end
  }
  const names: string[] = []
  const walletOf = new Uint32Array(n)
  for (let i = 0; i < n; i++) {
    const f = first[i]!
    if (f === i) {
      walletOf[i] = names.length
      names.push(wallets[i]!)
    } else {
      walletOf[i] = walletOf[f]!
    }
  }
  // The distinct wallets' hashes in ascending order, with their index, for lookups.
  const sortedHash = new Uint32Array(names.length)
  const sortedIndex = new Uint32Array(names.length)
  let d = 0
  for (let k = 0; k < n; k++) {
    const i = order[k]!
    if (first[i] !== i) continue
    sortedHash[d] = hashes[i]!
    sortedIndex[d] = walletOf[i]!
    d++
  }
  const later = new Map<string, number>()

  const indexOf = (wallet: string): number => {
    const h = hashOf(wallet)
    let lo = 0
    let hi = sortedHash.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (sortedHash[mid]! < h) lo = mid + 1
      else hi = mid
    }
    for (let k = lo; k < sortedHash.length && sortedHash[k] === h; k++) if (names[sortedIndex[k]!] === wallet) return sortedIndex[k]!
    return later.get(wallet) ?? -1
  }
  const index: WalletIndex = {
    names,
    indexOf,
    intern(wallet) {
      const found = indexOf(wallet)
      if (found !== -1) return found
      const added = names.length
      names.push(wallet)
      later.set(wallet, added)
      return added
    },
  }
  return { index, walletOf }
}

/**
 * The last (up to) 10 characters and the length: an address's tail is random hex (40 bits), enough to spread 100,000
 * of them (equal hashes only cost a string comparison).
 */
function hashOf(wallet: string): number {
  const length = wallet.length
  let h = length
  for (let i = length > 10 ? length - 10 : 0; i < length; i++) h = Math.imul(h ^ wallet.charCodeAt(i), 0x01000193)
  h ^= h >>> 15
  h = Math.imul(h, 0x2c1b3c6d)
  return (h ^ (h >>> 13)) >>> 0
}

/** Stable ascending order of 32-bit keys: LSD radix sort, three passes of 11 bits. */
function ascendingOrder(keys: Uint32Array): Uint32Array {
  const n = keys.length
  let order = new Uint32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  let scratch = new Uint32Array(n)
  const counts = new Uint32Array(2048)
  for (let shift = 0; shift < 32; shift += 11) {
    counts.fill(0)
    for (let i = 0; i < n; i++) counts[(keys[i]! >>> shift) & 2047]!++
    let sum = 0
    for (let b = 0; b < 2048; b++) {
      const c = counts[b]!
      counts[b] = sum
      sum += c
    }
    for (let j = 0; j < n; j++) {
      const i = order[j]!
      scratch[counts[(keys[i]! >>> shift) & 2047]!++] = i
    }
    const swap = order
    order = scratch
    scratch = swap
  }
  return order
}

/** Lower-cased wallets by spelling, shared by every book (see lowerWallet). */
let lowered = new Map<string, string>()
const MAX_LOWERED = 200_000

/**
 * The wallet lower-cased, one shared string per wallet: a buyer with orders in 500 waiting projects is in 500 books,
 * and `toLowerCase()` made a new 42-character string for each (100,000 of them, ~6 MB, in the load suite's book).
 * Bounded: past MAX_LOWERED wallets the table starts afresh (the strings are then only not shared).
 */
export function lowerWallet(wallet: string): string {
  let lower = lowered.get(wallet)
  if (lower === undefined) {
    lower = wallet.toLowerCase()
    if (lowered.size >= MAX_LOWERED) lowered = new Map()
    lowered.set(wallet, lower)
  }
  return lower
}
