import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zeroAddress } from 'viem'
import { HARNESS_BLOCK_TIME, startFlowHarness, type FlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n

describe('open-market execution on a Zora launch (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  it('full flow: fills with the 3% fee to the recipient and exact balances', async () => {
    const { slug, creator } = await h.newProject('zora', 'zora')
    const a = await h.newBuyer('zora-a', '1000')
    await h.order(a, slug, '333.333333', null)
    h.startMining()
    const launched = await h.launch(slug, 'zora', creator)
    // Zora coins are paired with native ETH (currency0 = address 0), as on Base; the buy routes USDC -> WETH -> ETH -> coin.
    expect(launched.poolKey.currency0).toBe(zeroAddress)
    await h.waitFor('fill', async () => (await h.getOrder(a, slug))?.status === 'filled')
    await h.stopMining()
    const e = (await h.getOrder(a, slug))!.execution!
    expect(e.spentUsdc).toBe('333.333333')
    expect(await h.usdcOf(a.wallet)).toBe(1000n * USDC - 333_333_333n)
    expect(await h.tokenBalance(launched.token, a.wallet)).toBe(BigInt(e.tokensReceived))
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(BigInt(e.feeTokens))
    expect(BigInt(e.feeTokens)).toBe(((BigInt(e.tokensReceived) + BigInt(e.feeTokens)) * 3n) / 100n)
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
