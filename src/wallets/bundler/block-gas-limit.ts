import type { PublicClient } from 'viem'

export interface BlockGasLimit {
  /** The chain's block gas limit, from a cache at most a minute old (refreshed in the background when older). */
  get(): Promise<bigint>
}

/** How long a block gas limit read is used as is. */
const GAS_LIMIT_TTL_MS = 60_000

export function createBlockGasLimit(client: Pick<PublicClient, 'getBlock'>): BlockGasLimit {
  // The block gas limit changes rarely: read it at most once a minute instead of once per bundle, and a stale value is
  // used while it is refreshed in the background (a launch after a quiet minute must not wait for that read).
  let gasLimitCache: { value: bigint; at: number } | undefined
  let gasLimitRead: Promise<bigint> | undefined
  const readGasLimit = (): Promise<bigint> => {
    gasLimitRead ??= client
      .getBlock()
      .then((block) => {
        gasLimitCache = { value: block.gasLimit, at: Date.now() }
        return block.gasLimit
      })
      .finally(() => (gasLimitRead = undefined))
    return gasLimitRead
  }
  return {
    async get() {
      if (!gasLimitCache) return readGasLimit()
      if (Date.now() - gasLimitCache.at > GAS_LIMIT_TTL_MS) readGasLimit().catch(() => undefined)
      return gasLimitCache.value
    },
  }
}
