import type { ChainKey } from './chain-keys.ts'

/**
 * Each chain's newest block number, shared by everything that needs "the head now" (the readiness probe, the API's
 * balance cache), so one tick costs one head fetch, not one per reader. The indexer's sync reads the head every
 * round anyway and `observe`s it here; a reader asking within `maxAgeMs` of that is answered without a request.
 * Without a fresh observation (no indexer on the chain, or the sync stalled: exactly when the readiness probe must
 * see the real head) it reads the head itself, one request shared by concurrent callers.
 */
export interface ChainHeads {
  head(chain: ChainKey): Promise<bigint>
  observe(chain: ChainKey, head: bigint): void
}

export function createChainHeads(options: { read: (chain: ChainKey) => Promise<bigint>; maxAgeMs: number; now?: () => number }): ChainHeads {
  const now = options.now ?? Date.now
  const known = new Map<ChainKey, { head: bigint; at: number }>()
  const reading = new Map<ChainKey, Promise<bigint>>()
  // A lower head is news too (a reorg to a shorter chain, a node that lost blocks): the newest observation wins.
  const observe = (chain: ChainKey, head: bigint) => void known.set(chain, { head, at: now() })
  return {
    observe,
    head(chain) {
      const current = known.get(chain)
      if (current && now() - current.at <= options.maxAgeMs) return Promise.resolve(current.head)
      let pending = reading.get(chain)
      if (!pending) {
        pending = options.read(chain).then(
          (head) => {
            reading.delete(chain)
            observe(chain, head)
            return head
          },
          (error: unknown) => {
            reading.delete(chain)
            throw error
          },
        )
        reading.set(chain, pending)
      }
      return pending
    },
  }
}
