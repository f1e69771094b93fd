import { describe, expect, it } from 'vitest'
import { candidateBuckets, createTickQuotes } from '../../../daemon/executor/tick-quotes.ts'
import { silentLogger } from '../../../src/common/logger.ts'
import type { PriceTick } from '../../../src/journal/journal-records.ts'
import { launch, tickAt } from '../../executor/parts/executor-fixture.ts'
import { candidates, countingQuoter } from './quote-ahead-fixture.ts'

// A pool the indexer ticks every block (a gate or a fee still ahead: a gated Clanker v4 pool before its first open block).
const gatedTick = (blockNumber: number, changes: Partial<PriceTick> = {}): PriceTick => ({ ...tickAt(blockNumber, 1_000_000), feeDecaying: true, ...changes })
const signalOf = (tick: PriceTick) => ({ chain: launch.chain, blockNumber: BigInt(tick.blockNumber), nextBlockTimestamp: tick.nextBlockTimestamp })

describe('the quotes of a launched pool asked ahead of its tick, at the block signal (tick-quotes.ts quoteAhead)', () => {
  it('the tick of the next block asks no quote of its own: its quote round was the block signal’s (0 calls after the tick, 2 before)', async () => {
    const { asked, quoter } = countingQuoter()
    const quotes = createTickQuotes({ quoters: { base: quoter }, log: silentLogger })
    await quotes.quotedCaps(gatedTick(10), launch, candidateBuckets(candidates))
    expect(asked).toHaveLength(2)
    const next = gatedTick(11)
    quotes.quoteAhead(signalOf(next), () => true)
    expect(asked).toHaveLength(4)
    expect(asked.slice(2).map((a) => a.at.blockNumber)).toEqual([11n, 11n])
    // The tick, after the indexer's schedule refresh: every quote it needs is in the cache.
    const caps = await quotes.quotedCaps(next, launch, candidateBuckets(candidates))
    expect(caps?.swapsAllowed).toBe(true)
    expect(asked).toHaveLength(4)
  })

  it('a wrong hint (the tick’s paired price or next timestamp differs) asks again with the tick’s own: the same calls as without the hint', async () => {
    for (const changes of [{ pairedUsdAtoms: '3100000000' }, { nextBlockTimestamp: gatedTick(11).nextBlockTimestamp + 1 }]) {
      const { asked, quoter } = countingQuoter()
      const quotes = createTickQuotes({ quoters: { base: quoter }, log: silentLogger })
      await quotes.quotedCaps(gatedTick(10), launch, candidateBuckets(candidates))
      quotes.quoteAhead(signalOf(gatedTick(11)), () => true)
      const tick = gatedTick(11, changes)
      await quotes.quotedCaps(tick, launch, candidateBuckets(candidates))
      expect(asked).toHaveLength(6)
      for (const { at } of asked.slice(4)) {
        expect(at.pairedUsdAtoms).toBe(BigInt(tick.pairedUsdAtoms))
        expect(at.next.timestamp).toBe(tick.nextBlockTimestamp)
      }
    }
  })

  it('asks nothing for a pool not ticked on every block, not ticked on the block before, or no longer ticking', async () => {
    const cases: { last: PriceTick; signal: number; ticking: boolean }[] = [
      { last: tickAt(10, 1_000_000), signal: 11, ticking: true },
      { last: gatedTick(9), signal: 11, ticking: true },
      { last: gatedTick(10), signal: 11, ticking: false },
    ]
    for (const { last, signal, ticking } of cases) {
      const { asked, quoter } = countingQuoter()
      const quotes = createTickQuotes({ quoters: { base: quoter }, log: silentLogger })
      await quotes.quotedCaps(last, launch, candidateBuckets(candidates))
      quotes.quoteAhead(signalOf(gatedTick(signal)), () => ticking)
      expect(asked).toHaveLength(2)
    }
  })
})
