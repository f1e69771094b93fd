import type { Address } from 'viem'

export interface NonceSource {
  /** The account's transaction count including pending transactions. */
  pendingNonce(address: Address): Promise<number>
}

/**
 * Serialised nonces for one EOA on one chain. `use` runs its callback under a lock with the next nonce, so nonces are
 * handed out and sent in order even when many bundles are submitted at once; the local counter advances only when the
 * callback succeeds. Any failure (or `resync`) drops the counter so the next user re-reads it from the chain: a nonce
 * "too low" after a replacement, or a gap after a failed send, heals itself on the next transaction.
 */
export interface NonceManager {
  use<T>(send: (nonce: number) => Promise<T>): Promise<T>
  resync(): void
  /**
   * The chain's pending nonce as just read: lower than the local counter means transactions we sent are gone (a reorg
   * dropped their block, the pool evicted them), so the counter is dropped and re-read at the next send.
   */
  observe(pendingNonce: number): void
}

export function createNonceManager(address: Address, source: NonceSource): NonceManager {
  let next: number | undefined
  let queue: Promise<unknown> = Promise.resolve()
  return {
    use<T>(send: (nonce: number) => Promise<T>): Promise<T> {
      const run = async (): Promise<T> => {
        if (next === undefined) next = await source.pendingNonce(address)
        const nonce = next
        try {
          const result = await send(nonce)
          next = nonce + 1
          return result
        } catch (error) {
          next = undefined
          throw error
        }
      }
      const result = queue.then(run, run)
      queue = result.catch(() => undefined)
      return result
    },
    resync() {
      next = undefined
    },
    observe(pendingNonce) {
      // A send in progress may not be counted yet: re-reading under the lock then is merely one extra request.
      if (next !== undefined && pendingNonce < next) next = undefined
    },
  }
}
