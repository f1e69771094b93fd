import type { Address } from 'viem'
import { PrebuyError } from '../common/errors.ts'

/**
 * Hands out 2D-nonce streams per account so that operations in flight at the same time never share a nonce key: each
 * gets the lowest stream no other in-flight operation of that account holds, and returns it when mined. Reusing low
 * streams keeps the EntryPoint's nonce slots warm (no fresh storage slot per operation); the sequence within a stream
 * is read from the EntryPoint when the operation is built, so a restart needs no local state.
 */
export interface NonceStreams {
  acquire(account: Address, maxStreams: number): number
  release(account: Address, stream: number): void
  /** Whether any operation of the account holds a stream (is being prepared, sent or awaited). */
  busy(account: Address): boolean
}

export function createNonceStreams(): NonceStreams {
  const inFlight = new Map<string, Set<number>>()
  return {
    acquire(account, maxStreams) {
      const key = account.toLowerCase()
      let held = inFlight.get(key)
      if (!held) {
        held = new Set()
        inFlight.set(key, held)
      }
      for (let stream = 0; stream < maxStreams; stream++) {
        if (!held.has(stream)) {
          held.add(stream)
          return stream
        }
      }
      throw new PrebuyError('too_many_operations', 'Too many operations are in flight for this wallet.')
    },
    release(account, stream) {
      const key = account.toLowerCase()
      const held = inFlight.get(key)
      held?.delete(stream)
      if (held?.size === 0) inFlight.delete(key)
    },
    busy: (account) => (inFlight.get(account.toLowerCase())?.size ?? 0) > 0,
  }
}
