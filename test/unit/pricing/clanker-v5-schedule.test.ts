import { RawContractError } from 'viem'
import { describe, expect, it } from 'vitest'
import { measureClankerV5Schedule } from '../../../src/launchpads/clanker-v5/read-clanker-v5-fees.ts'
import { effectiveMarketCap } from '../../../src/pricing/effective-market-cap.ts'
import { feeAt, scheduleSettled } from '../../../src/pricing/fee-schedule.ts'
import { type ClankerV5FeeSchedule, clankerV5FeeAt } from '../../../src/pricing/schedules/clanker-v5.ts'
import { referenceFeeSchedule } from '../../../src/launchpads/reference-launch.ts'
import { feelessAmountOut, feePipsFromQuote, type PoolPoint, probeAmount } from '../../../src/launchpads/clanker-v5/fee-from-quote.ts'
import { getSqrtPriceAtTick } from '../../../src/pricing/v4/tick-math.ts'

/** Pools like the devnet's v5 launches (1B tokens from tick -184,200, either side) and fees across the documented range. */
const tokenIs1: PoolPoint = { sqrtPriceX96: getSqrtPriceAtTick(184_200), liquidity: 3n * 10n ** 21n }
const tokenIs0: PoolPoint = { sqrtPriceX96: getSqrtPriceAtTick(-184_200), liquidity: 3n * 10n ** 21n }

const feeFromQuoteCases = [10_000, 100_000, 520_000, 990_000].flatMap((pips) => [
  { pips, zeroForOne: true, direction: 'pair token is currency0', pool: tokenIs1 },
  { pips, zeroForOne: false, direction: 'pair token is currency1', pool: tokenIs0 },
])

const T0 = 1_800_000_000
const sniper: ClankerV5FeeSchedule = { kind: 'clanker_v5', startTime: T0, buyTax: 50_000, sniperStartFee: 990_000, sniperSeconds: 20 }
const next = (timestamp: number) => ({ timestamp, number: 0n })

describe('Clanker v5 fee schedule (tax, sniper fee 99% -> tax over 20 s, linear)', () => {
  it('starts at 99%, falls linearly per second to the tax at 20 s, then stays at the tax', () => {
    expect(clankerV5FeeAt(sniper, T0 - 5)).toBe(990_000)
    expect(clankerV5FeeAt(sniper, T0)).toBe(990_000)
    expect(clankerV5FeeAt(sniper, T0 + 1)).toBe(990_000 - 47_000)
    expect(clankerV5FeeAt(sniper, T0 + 10)).toBe(520_000)
    expect(clankerV5FeeAt(sniper, T0 + 19)).toBe(990_000 - Math.floor((940_000 * 19) / 20))
    expect(clankerV5FeeAt(sniper, T0 + 20)).toBe(50_000)
    expect(clankerV5FeeAt(sniper, T0 + 3_600)).toBe(50_000)
  })

  it('prices the total fee as the hook fee alone (no LP fee); the sniper fee is reported while above the tax', () => {
    expect(feeAt(sniper, next(T0 + 10))).toMatchObject({ lpFee: 0, sniperFee: 520_000, totalFraction: 0.52, swapsAllowed: true })
    expect(feeAt(sniper, next(T0 + 20))).toMatchObject({ lpFee: 0, sniperFee: 0, totalFraction: 0.05 })
    // The checks of the facts file: 200k FDV with a 50% fee is a 400k cap; with the 5% tax, 200k / 0.95.
    const half: ClankerV5FeeSchedule = { ...sniper, buyTax: 10_000, sniperStartFee: 990_000 }
    const t = T0 + Math.round((20 * (990_000 - 500_000)) / (990_000 - 10_000))
    expect(clankerV5FeeAt(half, t)).toBe(500_000)
    expect(effectiveMarketCap(200_000n, feeAt(half, next(t)).totalFee)).toBe(400_000n)
    expect(effectiveMarketCap(200_000n * 95n, feeAt(sniper, next(T0 + 30)).totalFee)).toBe(200_000n * 100n)
  })

  it('without a sniper fee: the tax from the start, settled at once; with one, settled at 20 s', () => {
    const calm: ClankerV5FeeSchedule = { ...sniper, sniperStartFee: null }
    expect(clankerV5FeeAt(calm, T0)).toBe(50_000)
    expect(feeAt(calm, next(T0)).sniperFee).toBe(0)
    expect(scheduleSettled(calm, next(T0))).toBe(true)
    expect(scheduleSettled(sniper, next(T0 + 19))).toBe(false)
    expect(scheduleSettled(sniper, next(T0 + 20))).toBe(true)
  })

  it('an LP fee on the pool key compounds with the tax', () => {
    const withLp: ClankerV5FeeSchedule = { ...sniper, sniperStartFee: null, poolLpFee: 10_000 }
    expect(feeAt(withLp, next(T0)).totalFraction).toBeCloseTo(1 - 0.95 * 0.99, 12)
    expect(feeAt(withLp, next(T0)).lpFee).toBe(10_000)
  })

  it("the simulator's reference launch: sniper fee on, the 10% maximum tax", () => {
    expect(referenceFeeSchedule('clanker_v5', { number: 5n, timestamp: T0 })).toEqual({
      kind: 'clanker_v5',
      startTime: T0,
      buyTax: 100_000,
      sniperStartFee: 990_000,
      sniperSeconds: 20,
    })
  })
})

describe('the fee a quoted swap paid (fee-from-quote)', () => {
  it.each(feeFromQuoteCases)('recovers a hook fee of $pips pips on the input ($direction)', ({ pips, zeroForOne, pool }) => {
    const amountIn = probeAmount(pool, zeroForOne)
    expect(amountIn).toBeGreaterThan(0n)
    // What a hook taking `pips` of the input (floored) before a feeless swap pays out.
    const out = feelessAmountOut(pool, zeroForOne, amountIn - (amountIn * BigInt(pips)) / 1_000_000n)
    expect(feePipsFromQuote(pool, zeroForOne, amountIn, out)).toBe(pips)
    // One token fewer than that: the fee is rounded up, never underestimated.
    expect(feePipsFromQuote(pool, zeroForOne, amountIn, out - 1n)).toBeGreaterThanOrEqual(pips)
  })

  it('no liquidity in range: nothing to probe with', () => {
    expect(probeAmount({ sqrtPriceX96: 2n ** 96n, liquidity: 0n }, true)).toBe(0n)
  })

  it('a quote paying what a feeless pool pays is a zero fee', () => {
    const pool = { sqrtPriceX96: 2n ** 96n / 100n, liquidity: 10n ** 24n }
    const amountIn = probeAmount(pool, false)
    expect(feePipsFromQuote(pool, false, amountIn, feelessAmountOut(pool, false, amountIn))).toBe(0)
  })
})

describe('the schedule measured from quotes (measureClankerV5Schedule)', () => {
  const linearQuote = (tax: number) => async (t: number) => clankerV5FeeAt({ ...sniper, buyTax: tax }, t)
  const refusedBefore = (from: number, quote: (t: number) => Promise<number>) => async (t: number) => {
    if (t < from) throw new RawContractError({ data: '0x' })
    return quote(t)
  }

  it('quotes at the launch second and at +20 s: the sniper start and the tax; swaps from the launch', async () => {
    expect(await measureClankerV5Schedule(T0, linearQuote(30_000))).toEqual({
      kind: 'clanker_v5',
      startTime: T0,
      buyTax: 30_000,
      sniperStartFee: 990_000,
      sniperSeconds: 20,
    })
    expect(await measureClankerV5Schedule(T0, async () => 20_000)).toEqual({
      kind: 'clanker_v5',
      startTime: T0,
      buyTax: 20_000,
      sniperStartFee: null,
      sniperSeconds: 20,
    })
  })

  it('a hook that refuses swaps in the launch second: swaps from the first second that quotes, the sniper fee from the documented 99%', async () => {
    const schedule = await measureClankerV5Schedule(T0, refusedBefore(T0 + 1, linearQuote(30_000)))
    expect(schedule).toEqual({ kind: 'clanker_v5', startTime: T0, buyTax: 30_000, sniperStartFee: 990_000, sniperSeconds: 20, swapsFrom: T0 + 1 })
    expect(feeAt(schedule, next(T0)).swapsAllowed).toBe(false)
    expect(scheduleSettled(schedule, next(T0))).toBe(false)
    expect(feeAt(schedule, next(T0 + 1))).toMatchObject({ swapsAllowed: true, sniperFee: 990_000 - 48_000 })
  })

  it('a hook that still refuses after the gated seconds, or a failed RPC: the error, for the indexer to quarantine and retry', async () => {
    await expect(measureClankerV5Schedule(T0, refusedBefore(T0 + 5, linearQuote(30_000)))).rejects.toThrow(RawContractError)
    await expect(
      measureClankerV5Schedule(T0, async () => {
        throw new Error('connection reset')
      }),
    ).rejects.toThrow('connection reset')
  })
})
