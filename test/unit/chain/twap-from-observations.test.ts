import { describe, expect, it } from 'vitest'
import { twapFromObservations, type V3Observation } from '../../../src/chain/read-eth-usd.ts'

const obs = (blockTimestamp: number, tickCumulative: bigint): V3Observation => [blockTimestamp, tickCumulative, 0n, true]

/** The TWAP over a v3 pool's history computed from its observations, as its observe([available, 0]) returns it (Oracle.sol). */
describe('twapFromObservations', () => {
  it('a latest observation at the block time: the mean tick between it and the oldest', () => {
    // From t=1,000 (cumulative 0) to t=1,100 (cumulative 100 × 200): a tick of 200 throughout.
    expect(twapFromObservations({ oldest: obs(1_000, 0n), latest: obs(1_100, 20_000n), tick: 999, time: 1_100 })).toBe(200)
  })

  it('a latest observation older than the block: carried forward by the current tick (Oracle.transform)', () => {
    // 100 s at 200, then 100 s at the current tick -100 since the latest observation: (20,000 - 10,000) / 200 = 50.
    expect(twapFromObservations({ oldest: obs(1_000, 0n), latest: obs(1_100, 20_000n), tick: -100, time: 1_200 })).toBe(50)
  })

  it('rounds toward negative infinity, as OracleLibrary.consult', () => {
    expect(twapFromObservations({ oldest: obs(0, 0n), latest: obs(3, -10n), tick: 0, time: 3 })).toBe(-4)
  })

  it('no time since the oldest observation: no TWAP', () => {
    expect(twapFromObservations({ oldest: obs(1_000, 5n), latest: obs(1_000, 5n), tick: 7, time: 1_000 })).toBeNull()
  })
})
