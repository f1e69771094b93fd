import { parseEventLogs, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { formatDecimal } from '../../src/domain/decimal.ts'
import type { PriceTick } from '../../src/journal/journal-records.ts'
import { effectiveMarketCap } from '../../src/pricing/effective-market-cap.ts'
import { feeAt, type FeeSchedule } from '../../src/pricing/fee-schedule.ts'
import { fraction } from '../../src/pricing/fraction.ts'
import { HARNESS_BLOCK_TIME, startFlowHarness, type FlowHarness } from './flow-harness.ts'
import { submitLaunch } from '../../devnet/launchpads/launch-token.ts'
import { findInitializedPools, POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
import { setDevnetProtocolFee } from '../../devnet/launchpads/set-protocol-fee.ts'
import { v4SwapFeePips } from '../../src/pricing/protocol-fee.ts'

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
  // The rehype hook is doppler-sdk 1.0.30's Base deployment, which divides by 800,000: it takes 1.25x what it announces
  // (src/launchpads/doppler/rehype-deployments.ts), and so does every tick.
  it('a rehype launch (the SDK deployment, fee over 800,000) fills with exact balances, priced with the LP fee and 1.25x the announced hook fee compounded', async () => {
    const { slug, creator } = await h.newProject('rehype', 'doppler')
    const buyer = await h.newBuyer('rehype-buyer', '100')
    await h.order(buyer, slug, '40', null)
    h.startMining()
    const launched = await h.launch(slug, 'doppler', creator, { rehype: true, startFee: 300_000, endFee: 10_000, decaySeconds: 10 })
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    expect(launched.poolKey.hooks).toBe(h.launchpads.doppler.rehypeInitializer)
    const record = (await h.journal.getLaunchBySlug(slug))!
    expect(record.feeSchedule).toMatchObject({ kind: 'linear', startFee: 300_000, endFee: 10_000, poolLpFee: 7_000, hookFeeDenominator: 800_000 })
    const e = (await h.getOrder(buyer, slug))!.execution!
    expect(await h.usdcOf(buyer.wallet)).toBe(60n * USDC)
    expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(BigInt(e.tokensReceived))
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(BigInt(e.feeTokens))
    const decisions = await h.journal.decisionsOf(slug)
    expect(decisions.length).toBeGreaterThan(0)
    const schedule = record.feeSchedule as FeeSchedule & { startTime: number }
    for (const { tick } of decisions) {
      const elapsed = Math.min(Math.max(tick.nextBlockTimestamp - schedule.startTime, 0), 10)
      const hookFee = (300_000 - Math.floor((elapsed * 290_000) / 10)) / 800_000
      expect(tick.lpFeePips).toBe(7_000)
      expect(tick.totalFeeFraction).toBeCloseTo(1 - (1 - 0.007) * (1 - hookFee), 9)
    }
  })

  // A DopplerHookInitializer pool without a plugin announces no schedule: priced at its static LP fee, never quarantined.
  it('a static-fee launch (no plugin, no schedule) fills, every tick priced at the LP fee', async () => {
    const { slug, creator } = await h.newProject('static-fee', 'doppler')
    const buyer = await h.newBuyer('static-fee-buyer', '100')
    await h.order(buyer, slug, '30', null)
    h.startMining()
    const launched = await h.launch(slug, 'doppler', creator, { staticFee: 10_000 })
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    expect(launched.poolKey.fee).toBe(10_000)
    const record = (await h.journal.getLaunchBySlug(slug))!
    expect(record.feeSchedule).toMatchObject({ kind: 'linear', startFee: 10_000, endFee: 10_000, durationSeconds: 0 })
    const e = (await h.getOrder(buyer, slug))!.execution!
    expect(await h.usdcOf(buyer.wallet)).toBe(70n * USDC)
    expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(BigInt(e.tokensReceived))
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(BigInt(e.feeTokens))
    for (const { tick } of await h.journal.decisionsOf(slug)) expect([tick.lpFeePips, tick.totalFeeFraction, tick.swapsAllowed]).toEqual([10_000, 0.01, true])
  })

  // DopplerERC20V1 (src/tokens/DopplerERC20V1.sol): until balanceLimitEnd no holder may exceed maxBalanceLimit; our fee
  // recipient collects from every buy and reaches it first. Gating until the end, never the order's failure.
  it('a balance-limited DopplerERC20V1 launch is gated until the limit ends, then the order fills', async () => {
    const { slug, creator } = await h.newProject('balance-limit', 'doppler')
    const buyer = await h.newBuyer('balance-limit-buyer', '100')
    await h.order(buyer, slug, '20', null)
    // The chain stands still while launching (the launch mines its own block): the limit ends 5 blocks after it.
    const endsAt = Number((await h.client.getBlock({ blockTag: 'latest' })).timestamp) + 6 * HARNESS_BLOCK_TIME
    const launched = await h.launch(slug, 'doppler', creator, { staticFee: 10_000, balanceLimit: { maxBalance: 10n ** 18n, endsAt } })
    h.startMining()
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    const record = (await h.journal.getLaunchBySlug(slug))!
    expect(record.feeSchedule).toMatchObject({ swapsFrom: endsAt })
    const mine = (await h.journal.decisionsOf(slug)).map((d) => ({ tick: d.tick, verdict: d.orders.find((o) => o.keyId === buyer.keyId)?.verdict }))
    // Every decision before the end saw the gate; the buy went into a block at or after the end.
    const submitted = mine.findIndex((d) => d.verdict === 'submitted')
    expect(submitted).toBeGreaterThan(0)
    expect(mine[submitted]!.tick.nextBlockTimestamp).toBeGreaterThanOrEqual(endsAt)
    for (const earlier of mine.slice(0, submitted)) expect([earlier.verdict, earlier.tick.swapsAllowed]).toEqual(['swaps_not_allowed', false])
    // Never a failed attempt: the order went from waiting to filled.
    const events = await h.journal.orderEventsOf(buyer.keyId, slug)
    expect(events.filter((e) => e.reason !== undefined && /revert|BalanceLimit/i.test(String(e.reason)))).toEqual([])
    const e = (await h.getOrder(buyer, slug))!.execution!
    expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(BigInt(e.tokensReceived))
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(BigInt(e.feeTokens))
  })

  // SwapRestrictorDopplerHook: only senders the launch approved may buy, and ours reach the pool through the router.
  it("a swap-restrictor launch is recorded as the project's unsupported launch with the reason; the order is not attempted", async () => {
    const { slug, creator } = await h.newProject('restricted', 'doppler')
    const buyer = await h.newBuyer('restricted-buyer', '100')
    await h.order(buyer, slug, '20', null)
    h.startMining()
    const hash = await submitLaunch({
      chain: h.chain,
      addresses: h.launchpads,
      launchpad: 'doppler',
      creator,
      name: 'restricted token',
      symbol: 'RESTR',
      swapRestrictor: { approved: [creator], maxAmount: 10n ** 24n },
    })
    const receipt = await h.client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    const token = findInitializedPools(receipt.logs, h.chain.addresses.poolManager)[0]!.poolKey
    const asset = token.currency0 === zeroAddress || token.currency0.toLowerCase() === h.chain.addresses.weth.toLowerCase() ? token.currency1 : token.currency0
    const candidate = await h.waitFor('unsupported candidate', async () => h.journal.getCandidate('base', slug, asset))
    await h.stopMining()
    expect(candidate).toMatchObject({ status: 'unsupported', reason: expect.stringContaining('SwapRestrictorDopplerHook') })
    expect(await h.journal.getLaunchBySlug(slug)).toBeUndefined()
    expect((await h.getOrder(buyer, slug))?.status).toBe('active')
    expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)
  })

  // v4 pools start without a protocol fee; the controller may set one later (ProtocolFeeUpdated). Every quote after it
  // counts protocolFee + lpFee - protocolFee * lpFee / 1e6 (v4-core Pool.swap), and the buy pays exactly that.
  it('a protocol fee set after launch is in the launch record and every later tick; the order fills paying it', async () => {
    const { slug, creator } = await h.newProject('protocol-fee', 'doppler')
    // The order waits (a limit no cap meets) until the protocol fee is set, then its limit is lifted.
    const buyer = await h.newBuyer('protocol-fee-buyer', '100')
    await h.order(buyer, slug, '30', '0.000001')
    const launched = await h.launch(slug, 'doppler', creator, { staticFee: 10_000 })
    await h.waitFor('launch record', async () => h.journal.getLaunchBySlug(slug))
    const buyIsZeroForOne = !launched.launch.tokenIsCurrency0
    const updateHash = await setDevnetProtocolFee(h.chain, launched.poolKey, buyIsZeroForOne ? 1_000 : 1_000 << 12)
    const updateBlock = (await h.client.getTransactionReceipt({ hash: updateHash })).blockNumber
    const record = await h.waitFor('protocol fee recorded', async () => {
      const r = await h.journal.getLaunchBySlug(slug)
      return (r?.feeSchedule as { protocolFee?: number } | undefined)?.protocolFee === 1_000 ? r : undefined
    })
    expect(record.feeSchedule).toMatchObject({ startFee: 10_000, protocolFee: 1_000 })
    const [patched] = await h.services.orders.patchOrders(buyer.keyId, [{ slug, maxFdvUsdc: '1000000000' }])
    expect(patched?.ok).toBe(true)
    h.startMining()
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    const swapFee = v4SwapFeePips(1_000, 10_000)
    const decisions = await h.journal.decisionsOf(slug)
    const after = decisions.filter((d) => BigInt(d.tick.blockNumber) >= updateBlock)
    expect(after.length).toBeGreaterThan(0)
    for (const { tick } of after) expect([tick.lpFeePips, tick.totalFeeFraction]).toEqual([10_000, swapFee / 1e6])
    for (const { tick } of decisions.filter((d) => BigInt(d.tick.blockNumber) < updateBlock)) expect(tick.totalFeeFraction).toBe(0.01)
    const e = (await h.getOrder(buyer, slug))!.execution!
    const receipt = await h.client.getTransactionReceipt({ hash: e.txHash as `0x${string}` })
    const swaps = parseEventLogs({ abi: POOL_MANAGER_EVENTS, eventName: 'Swap', logs: receipt.logs }).filter((l) => l.args.id === launched.poolId)
    expect(swaps.map((l) => l.args.fee)).toEqual([swapFee])
    expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(BigInt(e.tokensReceived))
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
