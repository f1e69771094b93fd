import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTickDecider, type SubmittedBuy } from '../../../daemon/executor/decide-tick.ts'
import { createBuySettler } from '../../../daemon/executor/settle-buys.ts'
import { createTickQuotes, type QuoteDisagreement } from '../../../daemon/executor/tick-quotes.ts'
import { silentLogger } from '../../../src/common/logger.ts'
import { replayTick } from '../../../src/domain/execution/replay-tick.ts'
import type { BuyQuoter } from '../../../src/launchpads/quote-buy.ts'
import { capFromQuote } from '../../../src/pricing/quote/quoted-caps.ts'
import type { UserOperationResult } from '../../../src/wallets/wallet-service.ts'
import { bucketsRecordingQuotes, type ExecutorFixture, keyIdOf, launch, SLUG, startExecutorFixture, tickAt, txHash, walletOf } from './executor-fixture.ts'

const USDC = 1_000_000n
const SUPPLY = BigInt(launch.totalSupply)

/**
 * The executor's quote path and price-revert backoff with a scripted quoter (the real V4Quoter path is
 * test/pricing/quote-vs-formula.test.ts): the plan is decided on quoted caps, recorded for replay, and an order whose
 * buys revert for price at the same price backs off.
 */
describe('quotes and backoff in the executor (decide-tick.ts, settle-buys.ts, tick-quotes.ts)', () => {
  let f: ExecutorFixture
  beforeEach(async () => {
    f = await startExecutorFixture()
  })
  afterEach(() => f.close())

  /** A quoter whose real swap pays `capUsd(spend)` as its effective cap, counting its calls. */
  function scriptedQuoter(capUsd: (spendAtoms: bigint) => number | 'revert') {
    const calls: Array<{ spend: bigint; block: bigint; next: bigint }> = []
    const quoter: BuyQuoter = {
      async quoteBuy(_launch, spendAtoms, at) {
        calls.push({ spend: spendAtoms, block: at.blockNumber, next: at.next.number })
        const cap = capUsd(spendAtoms)
        if (cap === 'revert') return { kind: 'reverted', spendAtoms, pairedIn: 1n, reason: 'swap reverted' }
        return { kind: 'quoted', spendAtoms, pairedIn: 1n, tokensOut: (spendAtoms * SUPPLY) / (BigInt(cap) * USDC) }
      },
    }
    return { quoter, calls }
  }

  it('decides on the quoted cap of each buy’s spend bucket, one quote per bucket per block, and records the quotes for replay', async () => {
    // The formula says 1,000; the real swap costs 1,500 for small buys and 3,000 for large ones.
    const { quoter, calls } = scriptedQuoter((spend) => (spend <= 100n * USDC ? 1_500 : 3_000))
    f.ctx.quotes = createTickQuotes({ quoters: { base: quoter }, log: silentLogger })
    await f.addOrder(1, 50, 2_000) // small, limit above 1,500: buys
    await f.addOrder(2, 500, 2_000) // large, limit below 3,000: waits
    await f.addOrder(3, 40, 1_200) // small, limit below 1,500 (above the formula's 1,000): waits
    for (const i of [1, 2, 3]) f.chain.balanceOf.set(walletOf(i), 1_000n * USDC)
    const handed: SubmittedBuy[] = []
    const decider = createTickDecider(f.ctx)
    await decider.decide(tickAt(11, 1_000), launch, (buys) => handed.push(...buys))
    expect(handed.map((b) => b.entry.keyId)).toEqual([keyIdOf(1)])
    const [decision] = await f.journal.decisionsOf(SLUG)
    const verdicts = Object.fromEntries(decision!.orders.map((o) => [o.keyId, [o.verdict, o.rank]]))
    expect(verdicts).toEqual({ [keyIdOf(1)]: ['submitted', 0], [keyIdOf(2)]: ['limit_below_cap', undefined], [keyIdOf(3)]: ['limit_below_cap', undefined] })
    // Two buckets (64 and 512 USDC, as powers of two of atoms) quoted once each at block 11 for block 12, plus the probe.
    const buckets = calls.filter((c) => c.spend !== USDC)
    expect(buckets.map((c) => [c.spend, c.block, c.next])).toEqual([
      [2n ** 26n, 11n, 12n],
      [2n ** 29n, 11n, 12n],
    ])
    expect(decision!.inputs?.quote).toEqual({
      swapsAllowed: true,
      buckets: [
        [String(2n ** 26n), String(capFromQuote(2n ** 26n, (2n ** 26n * SUPPLY) / (1_500n * USDC), SUPPLY))],
        [String(2n ** 29n), String(capFromQuote(2n ** 29n, (2n ** 29n * SUPPLY) / (3_000n * USDC), SUPPLY))],
      ],
    })
    // Replay decides the same from the recorded quotes.
    expect(replayTick(decision!, launch).differences).toEqual([])
    // A second tick of the same block reuses the quotes.
    await decider.decide({ ...tickAt(11, 1_000), reason: 'swap', logIndex: 3 }, launch, () => undefined)
    expect(calls.filter((c) => c.spend !== USDC)).toHaveLength(2)
  })

  it('a tick that changed no candidate quotes the buckets of the tick before (not computed again); a balance that moved brings its own bucket', async () => {
    const { quoter, calls } = scriptedQuoter(() => 1_500)
    const { quotes, given } = bucketsRecordingQuotes(quoter)
    f.ctx.quotes = quotes
    await f.addOrder(1, 50, 1_000) // limit below the quoted 1,500: every tick is quiet
    await f.addOrder(2, 500, 1_000)
    for (const i of [1, 2]) f.chain.balanceOf.set(walletOf(i), 1_000n * USDC)
    const decider = createTickDecider(f.ctx)
    await decider.decide(tickAt(11, 1_000), launch, () => undefined)
    await decider.decide(tickAt(12, 1_000), launch, () => undefined)
    // The same list handed again: the second tick did not walk the candidates for it.
    expect(given[0]).toEqual([2n ** 26n, 2n ** 29n])
    expect(given[1]).toBe(given[0])
    // Wallet 1 now holds 10 USDC: its spend is 10, a bucket of its own (2^24 atoms), quoted at block 13.
    f.chain.balanceOf.set(walletOf(1), 10n * USDC)
    await decider.decide(tickAt(13, 1_000), launch, () => undefined)
    expect(given[2]).toEqual([2n ** 24n, 2n ** 29n])
    expect(calls.filter((c) => c.block === 13n && c.spend !== USDC).map((c) => c.spend)).toEqual([2n ** 24n, 2n ** 29n])
  })

  it('a tick the schedule gates stays gated when the quote succeeds (a quote sees the pool, not a token balance limit)', async () => {
    const { quoter } = scriptedQuoter(() => 500)
    f.ctx.quotes = createTickQuotes({ quoters: { base: quoter }, log: silentLogger })
    await f.addOrder(1, 50, 2_000)
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    const handed: SubmittedBuy[] = []
    const decider = createTickDecider(f.ctx)
    await decider.decide(tickAt(11, 500, { swapsAllowed: false }), launch, (buys) => handed.push(...buys))
    expect(handed).toEqual([])
    // A quiet tick's record is written behind it (record-quiet-tick.ts).
    await decider.quietWritten?.()
    const [decision] = await f.journal.decisionsOf(SLUG)
    expect(decision!.orders.map((o) => o.verdict)).toEqual(['swaps_not_allowed'])
  })

  it('every bucket reverting: swaps are not allowed; a formula/quote disagreement is reported; an unanswered quote falls back to the formula', async () => {
    const disagreements: QuoteDisagreement[] = []
    let mode: 'revert' | 'throw' = 'revert'
    const { quoter } = scriptedQuoter(() => 'revert')
    const failing: BuyQuoter = { quoteBuy: (l, s, a) => (mode === 'throw' ? Promise.reject(new Error('node down')) : quoter.quoteBuy(l, s, a)) }
    f.ctx.quotes = createTickQuotes({ quoters: { base: failing }, log: silentLogger, onDisagreement: (d) => disagreements.push(d) })
    await f.addOrder(1, 50, 2_000)
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    const decider = createTickDecider(f.ctx)
    const handed: SubmittedBuy[] = []
    await decider.decide(tickAt(11, 1_000), launch, (buys) => handed.push(...buys))
    expect(handed).toEqual([])
    await decider.quietWritten?.()
    expect((await f.journal.decisionsOf(SLUG))[0]?.orders[0]?.verdict).toBe('swaps_not_allowed')
    await f.ctx.quotes.compare(tickAt(11, 1_000), launch)
    expect(disagreements).toMatchObject([{ launchpad: 'clanker', slug: SLUG, comparison: { kind: 'swaps_differ', formulaAllows: true, quoteAllows: false } }])
    // The node stops answering: the next block is decided on the formula (the order buys, its minimum out holds it).
    mode = 'throw'
    await decider.decide(tickAt(12, 1_000), launch, (buys) => handed.push(...buys))
    expect(handed.map((b) => b.entry.keyId)).toEqual([keyIdOf(1)])
  })

  it('an order whose buys revert for price twice at the same price backs off (verdict backing_off, journaled, said in its event), then tries again', async () => {
    await f.addOrder(1, 50, 2_000)
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    const decider = createTickDecider(f.ctx)
    const settler = createBuySettler(f.ctx)
    const priceRevert = (buy: SubmittedBuy): UserOperationResult => ({
      status: 'reverted',
      id: `${buy.entry.keyId}!${SLUG}`,
      userOpHash: txHash(700),
      txHash: txHash(701),
      blockNumber: BigInt(buy.entry.fromBlock) + 1n,
      revert: { name: 'TooLittleReceived', args: [], message: 'TooLittleReceived(90, 100)' },
    })
    const attempt = async (block: number): Promise<SubmittedBuy[]> => {
      const handed: SubmittedBuy[] = []
      await decider.decide(tickAt(block, 1_000), launch, (buys) => handed.push(...buys))
      if (handed.length > 0) await settler.settle(await settler.fromResults(handed, handed.map(priceRevert)))
      return handed
    }
    expect(await attempt(11)).toHaveLength(1)
    expect(await attempt(12)).toHaveLength(1)
    // Second revert at the same price (cap 1,000 both times): waits 2 blocks, landing from block 15 on.
    const events = await f.journal.orderEventsOf(keyIdOf(1), SLUG)
    expect(events.at(-1)?.reason).toBe('TooLittleReceived(90, 100); backing off until block 15 (2 price reverts at this price)')
    expect(await attempt(13)).toHaveLength(0)
    await decider.quietWritten?.()
    const last = (await f.journal.decisionsOf(SLUG)).at(-1)!
    expect(last.orders[0]?.verdict).toBe('backing_off')
    expect(last.inputs?.heldBack).toEqual([keyIdOf(1)])
    expect(replayTick(last, launch).differences).toEqual([])
    // A different price does not wait.
    const handed: SubmittedBuy[] = []
    await decider.decide(tickAt(13, 900), launch, (buys) => handed.push(...buys))
    expect(handed).toHaveLength(1)
  })
})
