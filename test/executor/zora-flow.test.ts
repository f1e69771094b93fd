import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEventLogs, zeroAddress } from 'viem'
import { POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
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

  // Creator coins and some content coins pair with ZORA (../shared/facts/launchpads.md, "Zora coins v4"): the router
  // buys USDC -> WETH (v3) -> ETH -> ZORA (the ETH/ZORA pool) -> coin, and the cap counts that pool's 0.3% fee.
  it.each([
    { kind: 'a content coin paired with ZORA', options: { paired: 'zora' as const } },
    { kind: 'a creator coin (CreatorCoinCreated)', options: { creatorCoin: true } },
    // Zora 2.6.0 trend coins: permissionless, one per ticker, ZORA-paired; 0.01% once the launch fee is over.
    { kind: 'a trend coin (TrendCoinCreated)', options: { trendCoin: true } },
  ])('$kind: fills through the ZORA route with exact balances, priced with the route fee', async ({ options }) => {
    const slug = 'creatorCoin' in options ? 'creator' : 'trendCoin' in options ? 'trend' : 'zorapair'
    const { creator } = await h.newProject(slug, 'zora')
    const buyer = await h.newBuyer(`${slug}-buyer`, '20')
    // Small against the coin's ~3,000 USD FDV, so price impact stays under 1% (checked below).
    await h.order(buyer, slug, '5', null)
    h.startMining()
    const launched = await h.launch(slug, 'zora', creator, options)
    const route = h.launchpads.zora.route
    expect(launched.launch.paired).toEqual({ kind: 'zora', address: route.zora, bridge: [route.ethPool] })
    expect([launched.poolKey.currency0, launched.poolKey.currency1]).toContain(route.zora)
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()

    const record = await h.journal.getLaunchBySlug(slug)
    expect(record?.paired.kind).toBe('zora')
    if ('trendCoin' in options) expect(record?.feeSchedule).toMatchObject({ startFee: 990_000, endFee: 10_000, floorFee: 100 })
    const e = (await h.getOrder(buyer, slug))!.execution!
    expect(e.spentUsdc).toBe('5')
    expect(await h.usdcOf(buyer.wallet)).toBe(15n * USDC)
    expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(BigInt(e.tokensReceived))
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(BigInt(e.feeTokens))
    expect(BigInt(e.feeTokens)).toBe(((BigInt(e.tokensReceived) + BigInt(e.feeTokens)) * 3n) / 100n)
    // Nothing left in the router: no ETH, WETH, ZORA or coin.
    expect(await h.client.getBalance({ address: h.buyRouter })).toBe(0n)
    for (const token of [h.chain.addresses.weth, route.zora, launched.token]) expect(await h.tokenBalance(token, h.buyRouter)).toBe(0n)

    // Every tick of the launch counts the ETH/ZORA pool's 0.3% on top of Zora's launch fee (linear 99% -> 1% over 10 s).
    const decisions = await h.journal.decisionsOf(slug)
    expect(decisions.length).toBeGreaterThan(0)
    for (const { tick } of decisions) {
      const elapsed = Math.min(Math.max(tick.nextBlockTimestamp - record!.launchedAt / 1000, 0), 10)
      const launchFee = (990_000 - Math.floor((elapsed * 980_000) / 10)) / 1e6
      expect(tick.totalFeeFraction).toBeCloseTo(1 - (1 - launchFee) * (1 - 0.003), 9)
    }
    // What the buy really paid per token (spend x supply / tokens out) is the FDV through the ZORA price with every
    // fee it met (the coin pool's LP fee as its Swap log reports it, the ETH/ZORA pool's 0.3%), give or take the v3
    // USDC/WETH fee (0.05%) and price impact: the coin/ZORA, ZORA/ETH and ETH/USD prices are all in the FDV.
    const receipt = await h.client.getTransactionReceipt({ hash: e.txHash as `0x${string}` })
    const coinSwap = parseEventLogs({ abi: POOL_MANAGER_EVENTS, logs: receipt.logs, eventName: 'Swap' }).find((l) => l.args.id === launched.poolId)!
    const charged = 1 - (1 - coinSwap.args.fee / 1e6) * (1 - 0.003)
    const gross = BigInt(e.tokensReceived) + BigInt(e.feeTokens)
    const paidCap = Number((5n * USDC * BigInt(record!.totalSupply)) / gross) / 1e6
    const expectedCap = Number(decisions[0]!.tick.fdvUsdAtoms) / 1e6 / (1 - charged)
    expect(paidCap / expectedCap).toBeGreaterThan(0.999)
    expect(paidCap / expectedCap).toBeLessThan(1.01)
  })

  // Most content coins on Base pair with their creator's coin: USDC -> WETH -> ETH -> ZORA -> creator coin -> coin, the
  // creator coin's pool read from the coin itself (getPoolKey, currency), its Zora hook fee (1%) priced with the route.
  it('a content coin paired with a creator coin fills through ZORA and the creator coin, exact balances, every hop priced', async () => {
    const creatorCoin = await h.launch('creator-coin-base', 'zora', (await h.newProject('creator-coin-base', 'zora')).creator, { creatorCoin: true })
    // Past the creator coin's own launch fee (10 s): its pool charges 1%.
    await h.mine(6)
    const { slug, creator } = await h.newProject('coinpair', 'zora')
    const buyer = await h.newBuyer('coinpair-buyer', '20')
    await h.order(buyer, slug, '5', null)
    h.startMining()
    const launched = await h.launch(slug, 'zora', creator, { paired: 'coin', pairedCoin: creatorCoin.token })
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    const route = h.launchpads.zora.route
    expect(launched.launch.paired).toEqual({
      kind: 'coin',
      address: creatorCoin.token,
      bridge: [route.ethPool, creatorCoin.poolKey],
      bridgeFeePips: [3_000, 10_000],
    })
    const e = (await h.getOrder(buyer, slug))!.execution!
    expect(await h.usdcOf(buyer.wallet)).toBe(15n * USDC)
    expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(BigInt(e.tokensReceived))
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(BigInt(e.feeTokens))
    for (const token of [h.chain.addresses.weth, route.zora, creatorCoin.token, launched.token]) expect(await h.tokenBalance(token, h.buyRouter)).toBe(0n)
    const record = (await h.journal.getLaunchBySlug(slug))!
    const decisions = await h.journal.decisionsOf(slug)
    for (const { tick } of decisions) {
      const elapsed = Math.min(Math.max(tick.nextBlockTimestamp - record.launchedAt / 1000, 0), 10)
      const launchFee = (990_000 - Math.floor((elapsed * 980_000) / 10)) / 1e6
      expect(tick.totalFeeFraction).toBeCloseTo(1 - (1 - launchFee) * (1 - 0.003) * (1 - 0.01), 9)
    }
    // What the buy paid per token matches the FDV through ZORA and the creator coin with every fee charged, within the
    // v3 fee and price impact.
    const receipt = await h.client.getTransactionReceipt({ hash: e.txHash as `0x${string}` })
    const swaps = parseEventLogs({ abi: POOL_MANAGER_EVENTS, logs: receipt.logs, eventName: 'Swap' })
    const charged = swaps.find((l) => l.args.id === launched.poolId)!.args.fee / 1e6
    expect(swaps.find((l) => l.args.id === creatorCoin.poolId)!.args.fee).toBe(10_000)
    const kept = (1 - charged) * (1 - 0.003) * (1 - 0.01)
    const gross = BigInt(e.tokensReceived) + BigInt(e.feeTokens)
    const paidCap = Number((5n * USDC * BigInt(record.totalSupply)) / gross) / 1e6
    const expectedCap = Number(decisions[0]!.tick.fdvUsdAtoms) / 1e6 / kept
    expect(paidCap / expectedCap).toBeGreaterThan(0.999)
    expect(paidCap / expectedCap).toBeLessThan(1.01)
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
