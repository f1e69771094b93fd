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
  /** A mark to take just before reading the chain's pending nonce for `observe`. */
  mark(): number
  /**
   * The chain's pending nonce, read after `mark()`: lower than the local counter means transactions we sent are gone
   * (a reorg dropped their block, the pool evicted them), so the counter is dropped and re-read at the next send.
   * Ignored when a send was in progress or completed since the mark: the read may predate that transaction, and a
   * counter re-read from a lagging node could reuse its nonce (and replace it).
   */
  observe(pendingNonce: number, mark: number): void
}

export function createNonceManager(address: Address, source: NonceSource): NonceManager {
  let next: number | undefined
  let queue: Promise<unknown> = Promise.resolve()
  // Sends started: a mark taken before a read tells whether any send overlapped it.
  let started = 0
  let inFlight = 0
  return {
    use<T>(send: (nonce: number) => Promise<T>): Promise<T> {
      const run = async (): Promise<T> => {
        if (next === undefined) next = await source.pendingNonce(address)
        const nonce = next
        started++
        inFlight++
        try {
          const result = await send(nonce)
          next = nonce + 1
          return result
        } catch (error) {
          next = undefined
          throw error
        } finally {
          inFlight--
        }
      }
      const result = queue.then(run, run)
      queue = result.catch(() => undefined)
      return result
    },
    resync() {
      next = undefined
    },
    mark: () => (inFlight > 0 ? -1 : started),
    observe(pendingNonce, mark) {
      if (mark < 0 || mark !== started || inFlight > 0) return
      // Unknown counter (an account not used yet, or after a failed send): a quiet read is what `use` would read now,
      // taken here so the next send does not wait a round trip for it (issue 23 item 3: a sender's first send of a
      // launch read its nonce right before eth_sendRawTransaction although the check had just read it).
      if (next === undefined) next = pendingNonce
      else if (pendingNonce < next) next = undefined
    },
  }
}
