import { isAddressEqual, type Address, type Hash, type LocalAccount } from 'viem'
import { PrebuyError } from '../../common/errors.ts'
import type { NonceManager, NonceSource } from './nonce-manager.ts'
import { createNonceManager } from './nonce-manager.ts'

/** One sender account of a chain: its signer and its own nonce stream. */
export interface SenderLane {
  index: number
  signer: LocalAccount
  nonces: NonceManager
}

/**
 * The sender accounts of one chain (wallet.senderAccounts). One launch's transactions go out from several accounts at
 * once, each with its own nonces, so no single nonce lock serialises the hot path: with one account the launch's
 * handleOps waited for each other's eth_sendRawTransaction round trips (issue 23 item 3 measured 1.07 s for nine).
 * Account 0 is the bundler EOA: contracts that name one operator (the buy router's deployer, the OTC settlement's
 * operator) keep being called from it (`primary`).
 */
export interface SenderPool {
  readonly lanes: readonly SenderLane[]
  /** Account 0, the bundler EOA. */
  readonly primary: SenderLane
  /** The lane of an address of the pool (a transaction's `from`); throws for an address not in the pool. */
  of(address: Address): SenderLane
  /**
   * The freest lane for one transaction, counted as in flight from now: the one with the fewest transactions sent and
   * not yet known mined (ties: the one used least recently). Synchronous, so transactions taken in order get lanes in
   * order. With `lane`, that lane is taken whatever its load.
   */
  take(lane?: SenderLane): SenderLane
  /** A transaction of the lane went out (`hash`): in flight until `settled`, or for at most IN_FLIGHT_MS. */
  sent(lane: SenderLane, hash: Hash): void
  /** A taken lane sent nothing after all (the send failed). */
  release(lane: SenderLane): void
  /** The transaction is mined (or given up on): its lane is free of it. */
  settled(hash: Hash): void
  /** Transactions in flight per lane, by lane index (daemon status, tests). */
  inFlight(): number[]
}

/**
 * How long a sent transaction counts against its lane without news of its receipt: a wait that ended without one
 * (timeout, a crash of the waiter) must not keep an account out of rotation for ever.
 */
export const IN_FLIGHT_MS = 30_000

/** The most sender accounts per chain config accepts: each needs ETH, and beyond a block's worth of bundles none helps. */
export const MAX_SENDER_ACCOUNTS = 32

export function createSenderPool(signers: readonly LocalAccount[], source: NonceSource, now: () => number = Date.now): SenderPool {
  if (signers.length === 0) throw new PrebuyError('internal_error', 'A chain needs at least one sender account.')
  const lanes: SenderLane[] = signers.map((signer, index) => ({ index, signer, nonces: createNonceManager(signer.address, source) }))
  // Per lane: transactions taken (sending) and sent (hash → when), and when it was last taken.
  const taking = lanes.map(() => 0)
  const flying = lanes.map(() => new Map<Hash, number>())
  const lastTaken = lanes.map(() => -1)
  let takes = 0
  const owner = new Map<Hash, number>()

  const load = (index: number): number => {
    const cutoff = now() - IN_FLIGHT_MS
    const map = flying[index]!
    for (const [hash, at] of map) {
      if (at < cutoff) {
        map.delete(hash)
        owner.delete(hash)
      }
    }
    return taking[index]! + map.size
  }

  return {
    lanes,
    primary: lanes[0]!,
    of(address) {
      const lane = lanes.find((candidate) => isAddressEqual(candidate.signer.address, address))
      if (!lane) throw new PrebuyError('internal_error', `${address} is not one of this chain's sender accounts.`)
      return lane
    },
    take(lane) {
      if (lane) {
        taking[lane.index]!++
        lastTaken[lane.index] = takes++
        return lane
      }
      let best = 0
      let bestLoad = load(0)
      for (let index = 1; index < lanes.length; index++) {
        const current = load(index)
        if (current < bestLoad || (current === bestLoad && lastTaken[index]! < lastTaken[best]!)) {
          best = index
          bestLoad = current
        }
      }
      taking[best]!++
      lastTaken[best] = takes++
      return lanes[best]!
    },
    sent(lane, hash) {
      taking[lane.index] = Math.max(0, taking[lane.index]! - 1)
      flying[lane.index]!.set(hash, now())
      owner.set(hash, lane.index)
    },
    release(lane) {
      taking[lane.index] = Math.max(0, taking[lane.index]! - 1)
    },
    settled(hash) {
      const index = owner.get(hash)
      if (index === undefined) return
      owner.delete(hash)
      flying[index]!.delete(hash)
    },
    inFlight: () => lanes.map((lane) => load(lane.index)),
  }
}
