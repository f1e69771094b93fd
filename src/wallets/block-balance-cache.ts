import type { Address } from 'viem'
import type { ChainHeads } from '../chain/chain-heads.ts'
import type { ChainKey } from '../chain/chain-keys.ts'
import { PrebuyError } from '../common/errors.ts'
import { withDeadline } from '../common/with-deadline.ts'
import type { ChainBalanceReader } from './read-balances.ts'

/** Entries kept before the cache starts over (a bound, not an eviction policy: a dropped entry is read again). */
const MAX_ENTRIES = 100_000

/**
 * Values read at the chain's head, kept until the head moves: what a wallet held at block N does not change while N
 * is the head, so every request in that block shares one read. Why: a page polled by many users (wallet views,
 * funding) otherwise costs a multicall per request, and the provider's rate limit is shared with launch buys.
 * A failed read is not kept.
 */
export interface BlockCache<T> {
  get(key: string, block: bigint, read: () => Promise<T>): Promise<T>
  /** Whether `key` holds a value read at `block` (or being read). */
  has(key: string, block: bigint): boolean
  readonly size: number
}

export function createBlockCache<T>(): BlockCache<T> {
  const entries = new Map<string, { block: bigint; value: Promise<T> }>()
  return {
    get(key, block, read) {
      const entry = entries.get(key)
      if (entry && entry.block === block) return entry.value
      const value = read()
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key)
      })
      if (entries.size >= MAX_ENTRIES) entries.clear()
      entries.set(key, { block, value })
      return value
    },
    has: (key, block) => entries.get(key)?.block === block,
    get size() {
      return entries.size
    },
  }
}

/** The chain's head for a cache key, with the balance reads' deadline: a node that does not answer is a clear 503. */
export async function headForCache(heads: ChainHeads, chain: ChainKey, deadlineMs: number): Promise<bigint> {
  try {
    return await withDeadline(heads.head(chain), deadlineMs, () => new Error(`no answer from ${chain} in time`))
  } catch (error) {
    throw new PrebuyError('chain_unavailable', `Balances on ${chain} could not be read.`, { cause: error, details: { retryAfterSeconds: 5 } })
  }
}

/** A balance reader answering each (wallet, token list) once per block of the chain's head. */
export function cachePerBlock(chain: ChainKey, reader: ChainBalanceReader, heads: ChainHeads, deadlineMs: number): ChainBalanceReader {
  const cache = createBlockCache<Awaited<ReturnType<ChainBalanceReader['balances']>>>()
  return {
    knownTokens: () => reader.knownTokens(),
    async balances(wallet: Address, indexed) {
      const block = await headForCache(heads, chain, deadlineMs)
      const key = `${wallet.toLowerCase()}|${indexed.map((token) => token.address.toLowerCase()).join(',')}`
      return cache.get(key, block, () => reader.balances(wallet, indexed))
    },
  }
}
