import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../src/chain/anvil/json-rpc.ts'
import { formatDecimal } from '../../src/domain/decimal.ts'
import { HARNESS_BLOCK_TIME, startFlowHarness, type FlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n
type TickSignal = Extract<FlowHarness['signals'][number], { type: 'tick' }>

describe('open-market execution on a Zora launch (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  const ticksOf = (slug: string) => h.signals.filter((s): s is TickSignal => s.type === 'tick' && s.tick.slug === slug)

  it('full flow: fills with the 3% fee to the recipient and exact balances', async () => {
    const { slug, creator } = await h.newProject('zora', 'zora')
    const a = await h.newBuyer('zora-a', '1000')
    await h.order(a, slug, '333.333333', null)
    h.startMining()
    const launched = await h.launch(slug, 'zora', creator)
    await h.waitFor('fill', async () => (await h.getOrder(a, slug))?.status === 'filled')
    await h.stopMining()
    const e = (await h.getOrder(a, slug))!.execution!
    expect(e.spentUsdc).toBe('333.333333')
    expect(await h.usdcOf(a.wallet)).toBe(1000n * USDC - 333_333_333n)
    expect(await h.tokenBalance(launched.token, a.wallet)).toBe(BigInt(e.tokensReceived))
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(BigInt(e.feeTokens))
    expect(BigInt(e.feeTokens)).toBe(((BigInt(e.tokensReceived) + BigInt(e.feeTokens)) * 3n) / 100n)
  })

  it('a third-party buy that lands first and pushes the price past the limit reverts the buy on-chain; the order stays active', async () => {
    const { slug, creator } = await h.newProject('front', 'zora')
    const buyer = await h.newBuyer('front-buyer', '100')
    await h.order(buyer, slug, '50', '1')
    await h.prepareThirdParty('20000')
    // A gentle fee decay keeps block ticks coming (the order is re-evaluated every block).
    const launched = await h.launch(slug, 'zora', creator, { startFee: 20_000, endFee: 10_000, decaySeconds: 60 })
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

  it('an order past launchedAt + expiresInMs expires: no more attempts, funds stay', async () => {
    const { slug, creator } = await h.newProject('expiry', 'zora')
    const buyer = await h.newBuyer('expiry-buyer', '100')
    // Expires 3 blocks after launch; its limit is never met.
    await h.order(buyer, slug, '50', '1', 3 * HARNESS_BLOCK_TIME * 1000)
    await h.launch(slug, 'zora', creator)
    h.startMining()
    await h.waitFor('expired', async () => (await h.getOrder(buyer, slug))?.status === 'expired')
    await h.stopMining()
    const launch = await h.journal.getLaunchBySlug(slug)
    const decisions = await h.journal.decisionsOf(slug)
    const expiredAt = decisions.find((d) => d.orders.some((o) => o.keyId === buyer.keyId && o.verdict === 'expired'))!
    expect(expiredAt.tick.nextBlockTimestamp * 1000).toBeGreaterThanOrEqual(launch!.launchedAt + 3 * HARNESS_BLOCK_TIME * 1000)
    for (const d of decisions.filter((d) => d.tick.nextBlockTimestamp < expiredAt.tick.nextBlockTimestamp)) {
      expect(d.orders.find((o) => o.keyId === buyer.keyId)?.verdict).not.toBe('expired')
    }
    expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)
    const events = await h.journal.orderEventsOf(buyer.keyId, slug)
    expect(events.map((e) => `${e.from}->${e.to}`)).toEqual(['active->expired'])
    // Nothing more happens to it.
    const count = (await h.journal.decisionsOf(slug)).filter((d) => d.orders.some((o) => o.keyId === buyer.keyId)).length
    await h.mine(2)
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    await h.executor.idle()
    expect((await h.journal.decisionsOf(slug)).filter((d) => d.orders.some((o) => o.keyId === buyer.keyId)).length).toBe(count)
  })
})
