import type { Address, Hash, LocalAccount } from 'viem'
import { describe, expect, it } from 'vitest'
import { createSenderPool, IN_FLIGHT_MS } from '../../../../src/wallets/bundler/sender-pool.ts'

const account = (n: number) => ({ address: `0x${n.toString(16).padStart(40, '0')}` as Address }) as LocalAccount
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hash

describe('sender pool', () => {
  it('spreads transactions taken together over every account, in order, and frees an account once its transaction settles', () => {
    const pool = createSenderPool([account(1), account(2), account(3)], { pendingNonce: async () => 0 })
    // Three taken at once (a launch's bundles): one per account, the bundler EOA first.
    const lanes = [pool.take(), pool.take(), pool.take()]
    expect(lanes.map((lane) => lane.index)).toEqual([0, 1, 2])
    for (const [i, lane] of lanes.entries()) pool.sent(lane, hash(i))
    // A fourth waits behind the least recently used account; once account 1's transaction is mined, it is the freest.
    pool.settled(hash(1))
    expect(pool.take().index).toBe(1)
    expect(pool.inFlight()).toEqual([1, 1, 1])
  })

  it('counts a failed send as nothing in flight, and a transaction never settled only for IN_FLIGHT_MS', () => {
    let now = 0
    const pool = createSenderPool([account(1), account(2)], { pendingNonce: async () => 0 }, () => now)
    const first = pool.take()
    pool.release(first)
    expect(pool.inFlight()).toEqual([0, 0])
    pool.sent(pool.take(), hash(7))
    expect(pool.inFlight()).toEqual([0, 1])
    now += IN_FLIGHT_MS + 1
    expect(pool.inFlight()).toEqual([0, 0])
  })

  it('gives each account its own nonce stream and finds an account by address', async () => {
    const chain = new Map<string, number>([
      [account(1).address, 10],
      [account(2).address, 50],
    ])
    const pool = createSenderPool([account(1), account(2)], { pendingNonce: async (address) => chain.get(address)! })
    const [a, b] = [pool.take(), pool.take()]
    // Neither waits for the other: both sends are in progress at once.
    let inside = 0
    let most = 0
    const use = (lane: typeof a) =>
      lane.nonces.use(async (nonce) => {
        inside++
        most = Math.max(most, inside)
        await new Promise((r) => setTimeout(r, 5))
        inside--
        return nonce
      })
    expect(await Promise.all([use(a), use(b), use(a)])).toEqual([10, 50, 11])
    expect(most).toBe(2)
    expect(pool.of(account(2).address)).toBe(b)
    expect(pool.primary).toBe(a)
    expect(() => pool.of(account(9).address)).toThrow('not one of')
  })

  it('takes a named account whatever its load (a call that must come from the bundler EOA)', () => {
    const pool = createSenderPool([account(1), account(2)], { pendingNonce: async () => 0 })
    pool.sent(pool.take(), hash(1))
    expect(pool.take(pool.primary).index).toBe(0)
  })
})
