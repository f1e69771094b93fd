import { zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { formatDecimal } from '../../src/domain/decimal.ts'
import type { PriceTick } from '../../src/journal/journal-records.ts'
import { effectiveMarketCap } from '../../src/pricing/effective-market-cap.ts'
import { feeAt, type FeeSchedule } from '../../src/pricing/fee-schedule.ts'
import { fraction } from '../../src/pricing/fraction.ts'
import { HARNESS_BLOCK_TIME, startFlowHarness, type FlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n
type TickSignal = Extract<FlowHarness['signals'][number], { type: 'tick' }>

describe('open-market execution on a Doppler launch (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  const ticksOf = (slug: string) => h.signals.filter((s): s is TickSignal => s.type === 'tick' && s.tick.slug === slug)

  it('full flow: fills with the 3% fee to the recipient and exact balances', async () => {
    const { slug, creator } = await h.newProject('dopp', 'doppler')
    const a = await h.newBuyer('doppler-a', '300')
    const b = await h.newBuyer('doppler-b', '80')
    await h.order(a, slug, '250', null)
    await h.order(b, slug, '100', null)
    h.startMining()
    const launched = await h.launch(slug, 'doppler', creator)
    await h.waitFor('fills', async () => (await h.getOrder(a, slug))?.status === 'filled' && (await h.getOrder(b, slug))?.status === 'filled')
    await h.stopMining()
    expect(await h.usdcOf(a.wallet)).toBe(50n * USDC)
    expect(await h.usdcOf(b.wallet)).toBe(0n)
    const oa = (await h.getOrder(a, slug))!.execution!
    const ob = (await h.getOrder(b, slug))!.execution!
    expect([oa.spentUsdc, ob.spentUsdc]).toEqual(['250', '80'])
    expect(await h.tokenBalance(launched.token, a.wallet)).toBe(BigInt(oa.tokensReceived))
    expect(await h.tokenBalance(launched.token, b.wallet)).toBe(BigInt(ob.tokensReceived))
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(BigInt(oa.feeTokens) + BigInt(ob.feeTokens))
    for (const e of [oa, ob]) expect(BigInt(e.feeTokens)).toBe(((BigInt(e.tokensReceived) + BigInt(e.feeTokens)) * 3n) / 100n)
    // GET /wallet lists the bought token once indexed.
    const indexed = await h.services.projects.indexedTokens()
    expect(indexed.base.map((t) => t.address)).toContain(launched.token)
  })

  // Bankr's pools since about March 2026 (../shared/facts/launchpads.md, "Doppler ... and Bankr"): the pool's 0.7% LP
  // fee on the input, the rehype hook's decaying fee on the output. Every tick counts both; the buy gets what they leave.
  it('a rehype launch fills with exact balances, priced with the LP fee and the hook fee compounded', async () => {
    const { slug, creator } = await h.newProject('rehype', 'doppler')
    const buyer = await h.newBuyer('rehype-buyer', '100')
    await h.order(buyer, slug, '40', null)
    h.startMining()
    const launched = await h.launch(slug, 'doppler', creator, { rehype: true, startFee: 300_000, endFee: 10_000, decaySeconds: 10 })
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    expect(launched.poolKey.hooks).toBe(h.launchpads.doppler.rehypeInitializer)
    const record = (await h.journal.getLaunchBySlug(slug))!
    expect(record.feeSchedule).toMatchObject({ kind: 'linear', startFee: 300_000, endFee: 10_000, poolLpFee: 7_000 })
    const e = (await h.getOrder(buyer, slug))!.execution!
    expect(await h.usdcOf(buyer.wallet)).toBe(60n * USDC)
    expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(BigInt(e.tokensReceived))
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(BigInt(e.feeTokens))
    const decisions = await h.journal.decisionsOf(slug)
    expect(decisions.length).toBeGreaterThan(0)
    const schedule = record.feeSchedule as FeeSchedule & { startTime: number }
    for (const { tick } of decisions) {
      const elapsed = Math.min(Math.max(tick.nextBlockTimestamp - schedule.startTime, 0), 10)
      const hookFee = (300_000 - Math.floor((elapsed * 290_000) / 10)) / 1e6
      expect(tick.lpFeePips).toBe(7_000)
      expect(tick.totalFeeFraction).toBeCloseTo(1 - (1 - 0.007) * (1 - hookFee), 9)
    }
  })

  // Doppler's numeraire may be native ETH (address 0) as well as WETH: the router unwraps, as for Zora's ETH coins.
  it('a launch with a native-ETH numeraire fills with exact balances', async () => {
    const { slug, creator } = await h.newProject('eth-numeraire', 'doppler')
    const buyer = await h.newBuyer('eth-numeraire-buyer', '100')
    await h.order(buyer, slug, '25', null)
    h.startMining()
    const launched = await h.launch(slug, 'doppler', creator, { paired: 'eth' })
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    expect(launched.poolKey.currency0).toBe(zeroAddress)
    expect(launched.launch.paired).toEqual({ kind: 'eth', address: zeroAddress })
    const e = (await h.getOrder(buyer, slug))!.execution!
    expect(await h.usdcOf(buyer.wallet)).toBe(75n * USDC)
    expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(BigInt(e.tokensReceived))
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(BigInt(e.feeTokens))
    expect(BigInt(e.feeTokens)).toBe(((BigInt(e.tokensReceived) + BigInt(e.feeTokens)) * 3n) / 100n)
    expect(await h.client.getBalance({ address: h.buyRouter })).toBe(0n)
  })

  it('an order whose limit is only met after the fee decays fills in the first block where the cap is within it', async () => {
    const { slug, creator } = await h.newProject('decay', 'doppler')
    const buyer = await h.newBuyer('decay-buyer', '100')
    await h.order(buyer, slug, '20', '1')
    // Launch with the chain standing still, read the pool's FDV, then set a limit between two blocks' caps.
    await h.launch(slug, 'doppler', creator, { startFee: 800_000, endFee: 12_000, decaySeconds: 10 })
    const first = await h.waitFor('launch tick', async () =>
      h.signals.find((s): s is Extract<typeof s, { type: 'tick' }> => s.type === 'tick' && s.tick.slug === slug),
    )
    const schedule = first.launch.feeSchedule as FeeSchedule
    const fdv = BigInt(first.tick.fdvUsdAtoms)
    const launchTime = first.launch.launchedAt / 1000
    const capAt = (t: number) => effectiveMarketCap(fraction(fdv), feeAt(schedule, { timestamp: t, number: 0n }).totalFee)!
    // Target: the block 3 blocks after the launch; the limit sits halfway between its cap and the previous block's.
    const target = launchTime + 3 * HARNESS_BLOCK_TIME
    const limit = (capAt(target) + capAt(target - HARNESS_BLOCK_TIME)) / 2n
    expect(capAt(target)).toBeLessThan(limit)
    expect(capAt(target - HARNESS_BLOCK_TIME)).toBeGreaterThan(limit)
    const [patched] = await h.services.orders.patchOrders(buyer.keyId, [{ slug, maxFdvUsdc: formatDecimal(limit, 6) }])
    expect(patched?.ok).toBe(true)

    // Block by block: after each block, wait until the executor has decided on its tick (and, when it buys, until the
    // bundle waits in the mempool), so "the next block" is exactly the one the decision priced.
    for (let i = 0; i < 10 && (await h.getOrder(buyer, slug))?.status !== 'filled'; i++) {
      await h.mine()
      const head = await h.client.getBlockNumber({ cacheTime: 0 })
      await h.indexer.caughtUp('base', head)
      await h.waitFor('decision', async () => {
        const order = await h.getOrder(buyer, slug)
        if (order?.status === 'filled') return true
        if (order?.status === 'executing') return h.bundlePending()
        return h.executor.busy() === 0
      })
    }
    await h.mine()
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')

    const decisions = await h.journal.decisionsOf(slug)
    const mine = decisions.map((d) => ({ tick: d.tick as PriceTick, verdict: d.orders.find((o) => o.keyId === buyer.keyId)?.verdict }))
    const firstSubmitted = mine.findIndex((d) => d.verdict === 'submitted')
    expect(mine[firstSubmitted]!.tick.nextBlockTimestamp).toBe(target)
    // Quiet ticks with unchanged verdicts are not journaled again: one decision before the buy, then the buy.
    expect(firstSubmitted).toBe(1)
    for (const earlier of mine.slice(0, firstSubmitted)) {
      expect(earlier.verdict === 'limit_below_cap' || earlier.verdict === 'swaps_not_allowed').toBe(true)
      expect(earlier.tick.nextBlockTimestamp).toBeLessThan(target)
    }
    // Mined in that very block: the target timestamp.
    const execution = (await h.getOrder(buyer, slug))!.execution!
    const receipt = await h.client.getTransactionReceipt({ hash: execution.txHash as `0x${string}` })
    const block = await h.client.getBlock({ blockNumber: receipt.blockNumber })
    expect(Number(block.timestamp)).toBe(target)
    expect(await h.usdcOf(buyer.wallet)).toBe(80n * USDC)
  })

  it('a third-party buy that lands first and pushes the price past the limit reverts the buy on-chain; the order stays active', async () => {
    const { slug, creator } = await h.newProject('front', 'doppler')
    const buyer = await h.newBuyer('front-buyer', '100')
    await h.order(buyer, slug, '50', '1')
    await h.prepareThirdParty('20000')
    // A gentle fee decay keeps block ticks coming (the order is re-evaluated every block).
    const launched = await h.launch(slug, 'doppler', creator, { startFee: 20_000, endFee: 10_000, decaySeconds: 60 })
    const tick = await h.waitFor('launch tick', async () => ticksOf(slug)[0])
    // A limit 5% above the cap: eligible now, but not after a large buy moves the price.
    const cap = BigInt(tick.tick.effectiveCapAtoms!)
    await h.services.orders.patchOrders(buyer.keyId, [{ slug, maxFdvUsdc: formatDecimal((cap * 105n) / 100n, 6) }])
    const before = await h.usdcOf(buyer.wallet)
    await h.mine()
    await h.waitFor('executing', async () => (await h.getOrder(buyer, slug))?.status === 'executing')
    // Wait for the bundle to sit in the mempool, then let the front-runner in ahead of it.
    const bundler = h.wallets.bundlerAddress('base').toLowerCase()
    await h.waitFor('bundle in the mempool', async () => {
      const pool = await jsonRpc<{ pending: Record<string, unknown> }>(h.chain.rpcUrl, 'txpool_content')
      return Object.keys(pool.pending).some((from) => from.toLowerCase() === bundler)
    })
    // The front-runner pays a higher tip, so it is sequenced before the bundle in the same block.
    await h.thirdPartyBuy(launched.token, launched.poolKey, '20000', { wait: false, priorityFeeGwei: 500n, prepared: true })
    await h.mine()
    await h.waitFor('settled', async () => (await h.getOrder(buyer, slug))?.status !== 'executing')
    expect((await h.getOrder(buyer, slug))?.status).toBe('active')
    const events = await h.journal.orderEventsOf(buyer.keyId, slug)
    expect(events.at(-1)?.reason).toMatch(/TooLittleReceived|0x/)
    expect(await h.usdcOf(buyer.wallet)).toBe(before)
    expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(0n)
    // Later ticks see the moved price: the cap is above the limit, the order is not attempted again.
    await h.mine(2)
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    await h.waitFor('executor idle', async () => h.executor.busy() === 0)
    const last = (await h.journal.decisionsOf(slug)).at(-1)!
    expect(last.orders.find((o) => o.keyId === buyer.keyId)?.verdict).toBe('limit_below_cap')
    expect(BigInt(last.tick.effectiveCapAtoms!)).toBeGreaterThan((cap * 105n) / 100n)
    expect((await h.getOrder(buyer, slug))?.status).toBe('active')
  })
})
