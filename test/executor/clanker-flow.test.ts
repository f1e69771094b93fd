import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Address, erc20Abi, maxUint256, parseAbi, parseEventLogs, toFunctionSelector } from 'viem'
import { buyRouterAbi } from '../../daemon/executor/buy-router-abi.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { confirmDevnetTx, submitDevnetCall } from '../../devnet/launchpads/send-devnet-tx.ts'
import { auctionHookData } from '../../devnet/launchpads/auction-bid.ts'
import { findPoolSwap, prepareDevnetTrader, swapExactUsdcForToken } from '../../devnet/launchpads/swap-exact-usdc-for-token.ts'
import { CLANKER_TOKEN_CREATED } from '../../src/launchpads/clanker/clanker-abi.ts'
import { POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
import type { ClankerAuctionSchedule } from '../../src/pricing/fee-schedule.ts'
import { clankerAuctionDecayFeeAt } from '../../src/pricing/schedules/clanker-auction.ts'
import { blockDecided } from './block-decided.ts'
import { startFlowHarness, type FlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n

describe('open-market execution on a Clanker launch (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  it('fills eligible orders in priority order with the 3% fee, partial balance, and no attempt from an empty wallet', async () => {
    const { slug, creator } = await h.newProject('clank', 'clanker')
    const whale = await h.newBuyer('whale', '1000')
    const partial = await h.newBuyer('partial', '40')
    const empty = await h.newBuyer('empty', '0')
    const second = await h.newBuyer('second', '500')
    await h.order(whale, slug, '100', null)
    await h.order(partial, slug, '100', '1000000000000')
    await h.order(empty, slug, '100', null)
    await h.order(second, slug, '60', null)

    h.startMining()
    const launched = await h.launch(slug, 'clanker', creator)
    await h.waitFor('fills', async () => {
      const states = await Promise.all([whale, partial, second].map((b) => h.getOrder(b, slug)))
      return states.every((o) => o?.status === 'filled')
    })
    await h.stopMining()

    const project = await h.services.projects.getProject(slug)
    expect(project?.launch?.tokenAddress).toBe(launched.token)
    const launch = await h.journal.getLaunchBySlug(slug)
    expect(launch?.poolId).toBe(launched.poolId)

    // Exact balances: spend left the wallets, tokens arrived net of the 3% fee, the fee went to the recipient.
    expect(await h.usdcOf(whale.wallet)).toBe(900n * USDC)
    expect(await h.usdcOf(partial.wallet)).toBe(0n)
    expect(await h.usdcOf(second.wallet)).toBe(440n * USDC)
    let fees = 0n
    for (const buyer of [whale, partial, second]) {
      const order = (await h.getOrder(buyer, slug))!
      const received = BigInt(order.execution!.tokensReceived)
      const fee = BigInt(order.execution!.feeTokens)
      expect(received).toBeGreaterThan(0n)
      expect(fee).toBe(((received + fee) * 300n) / 10_000n)
      expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(received)
      fees += fee
    }
    expect(order(await h.getOrder(partial, slug)).spentUsdc).toBe('40')
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(fees)

    // The empty wallet was never attempted and stays active.
    const emptyOrder = await h.getOrder(empty, slug)
    expect(emptyOrder?.status).toBe('active')
    const decisions = await h.journal.decisionsOf(slug)
    const emptyVerdicts = decisions.flatMap((d) => d.orders.filter((o) => o.keyId === empty.keyId).map((o) => o.verdict))
    expect(emptyVerdicts.length).toBeGreaterThan(0)
    expect(new Set(emptyVerdicts)).toEqual(new Set(decisions[0]!.tick.swapsAllowed ? ['no_balance'] : ['swaps_not_allowed', 'no_balance']))

    // Priority: larger spend first, equal spend: no limit before a limit; the bundle kept that order on-chain.
    const submitted = decisions.find((d) => d.orders.some((o) => o.verdict === 'submitted'))!
    const ranked = submitted.orders
      .filter((o) => o.verdict === 'submitted')
      .sort((a, b) => a.rank! - b.rank!)
      .map((o) => o.keyId)
    expect(ranked).toEqual([whale.keyId, partial.keyId, second.keyId])
    const txHash = order(await h.getOrder(whale, slug)).txHash as `0x${string}`
    const receipt = await h.client.getTransactionReceipt({ hash: txHash })
    const buyers = parseEventLogs({ abi: buyRouterAbi, logs: receipt.logs, eventName: 'PrebuyBuy' }).map((l) => (l.args as { buyer: string }).buyer)
    expect(buyers).toEqual([whale.wallet, partial.wallet, second.wallet])

    // SniperAuctionV2 gating: the ticks of the launch block and of the block before the first auction (launch + 1, + 2)
    // allow no swap, nothing was planned into them, and the bundle landed in an open block (launch + 3 or later).
    const launchBlock = launched.blockNumber
    const gatedTicks = decisions.filter((d) => BigInt(d.tick.blockNumber) < launchBlock + 2n)
    expect(gatedTicks.length).toBeGreaterThan(0)
    for (const d of gatedTicks) {
      expect(d.tick.swapsAllowed).toBe(false)
      expect(d.orders.filter((o) => o.verdict === 'submitted')).toEqual([])
    }
    for (const d of decisions.filter((d) => d.orders.some((o) => o.verdict === 'submitted'))) expect(d.tick.swapsAllowed).toBe(true)
    expect(receipt.blockNumber).toBeGreaterThanOrEqual(launchBlock + 3n)
    expect(launch?.feeSchedule).toMatchObject({ kind: 'clanker_auction', nextAuctionBlock: String(launchBlock + 2n) })

    // Transitions are journaled: active -> executing -> filled (no reverted attempt into a gated block).
    const events = await h.journal.orderEventsOf(whale.keyId, slug)
    expect(events.map((e) => `${e.from}->${e.to}`)).toEqual(['active->executing', 'executing->filled'])
  })

  // A DevBuy extension swaps inside the deployment, before TokenCreated (../shared/facts/launchpads.md, "Clanker v4.1
  // on Base"): the launch is priced at the pool after it, and it paid the LP fee, not the sniper fee.
  it('a launch with a dev buy is priced after the dev buy; its orders fill with no failure', async () => {
    const { slug, creator } = await h.newProject('devbuy', 'clanker')
    const buyer = await h.newBuyer('devbuy-buyer', '100')
    await h.order(buyer, slug, '50', null)
    h.startMining()
    // 1 ETH into a ~10 ETH FDV pool: the price moves a lot.
    const devBuyWei = 10n ** 18n
    const launched = await h.launch(slug, 'clanker', creator, { devBuyWei })
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()

    const receipt = await h.client.getTransactionReceipt({ hash: launched.txHash })
    const swaps = parseEventLogs({ abi: POOL_MANAGER_EVENTS, logs: receipt.logs, eventName: 'Swap' }).filter((l) => l.args.id === launched.poolId)
    expect(swaps).toHaveLength(1)
    const created = parseEventLogs({ abi: [CLANKER_TOKEN_CREATED], logs: receipt.logs })[0]!
    expect(swaps[0]!.logIndex).toBeLessThan(created.logIndex)
    expect(swaps[0]!.args.fee).toBe(10_000)
    const devBuyExtension = h.launchpads.clanker.devBuy
    expect(created.args.extensions).toEqual([devBuyExtension])
    const [devBuy] = parseEventLogs({
      abi: parseAbi(['event EthDevBuy(address indexed token, address indexed user, uint256 ethAmount, uint256 tokenAmount)']),
      logs: receipt.logs,
    })
    expect(devBuy!.address.toLowerCase()).toBe(devBuyExtension.toLowerCase())
    expect(devBuy!.args).toMatchObject({ token: launched.token, user: creator, ethAmount: devBuyWei })
    expect(await h.tokenBalance(launched.token, creator)).toBe(devBuy!.args.tokenAmount)

    // Every tick, the launch's first included, prices the pool after the dev buy, never the initial price.
    const initialize = parseEventLogs({ abi: POOL_MANAGER_EVENTS, logs: receipt.logs, eventName: 'Initialize' }).find((l) => l.args.id === launched.poolId)!
    expect(initialize.args.sqrtPriceX96).not.toBe(swaps[0]!.args.sqrtPriceX96)
    const ticks = (await h.journal.decisionsOf(slug)).map((d) => d.tick)
    expect(ticks[0]?.reason).toBe('launch')
    expect(ticks[0]!.sqrtPriceX96).toBe(swaps[0]!.args.sqrtPriceX96.toString())
    const events = await h.journal.orderEventsOf(buyer.keyId, slug)
    expect(events.map((e) => e.to)).not.toContain('failed')
    expect(await h.usdcOf(buyer.wallet)).toBe(50n * USDC)
  })

  it("a launch on the dynamic-fee hook is priced at the hook's maximum LP fee: its buys never meet a fee above the price, no order fails", async () => {
    const { slug, creator } = await h.newProject('dynamic', 'clanker')
    const buyers = [await h.newBuyer('dyn-a', '100'), await h.newBuyer('dyn-b', '100')]
    for (const buyer of buyers) await h.order(buyer, slug, '80', null)
    h.startMining()
    const launched = await h.launch(slug, 'clanker', creator, { dynamicFee: true })
    await h.waitFor('fills', async () => (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).every((o) => o?.status === 'filled'))
    await h.stopMining()
    expect(launched.poolKey.hooks).toBe(h.launchpads.clanker.dynamicHook)
    const record = await h.journal.getLaunchBySlug(slug)
    expect(record?.feeSchedule).toMatchObject({ lpFee: 30_000 })
    for (const buyer of buyers) {
      const events = await h.journal.orderEventsOf(buyer.keyId, slug)
      expect(events.map((e) => e.to)).not.toContain('failed')
      const receipt = await h.client.getTransactionReceipt({ hash: order(await h.getOrder(buyer, slug)).txHash as `0x${string}` })
      const swap = parseEventLogs({ abi: POOL_MANAGER_EVENTS, logs: receipt.logs, eventName: 'Swap' }).find((l) => l.args.id === launched.poolId)!
      // The LP fee charged (the MEV fee replaces it while higher): never above what the ticks priced.
      // The tick that decided the buy priced the block it was meant for; a later block's fee has only decayed further.
      const decided = (await h.journal.decisionsOf(slug)).find((d) => d.orders.some((o) => o.keyId === buyer.keyId && o.verdict === 'submitted'))!
      expect(decided.tick.lpFeePips).toBeGreaterThanOrEqual(30_000)
      expect(swap.args.fee).toBeLessThanOrEqual(decided.tick.lpFeePips)
      expect(swap.args.fee).toBeGreaterThanOrEqual(10_000)
    }
  })

  it('a third party wins the first auction round: nothing is sent into the blocks the win gates, the fills pay the fee decayed from the won round, no order fails', async () => {
    const { slug, creator } = await h.newProject('bidwar', 'clanker')
    const big = await h.newBuyer('bid-big', '300')
    const small = await h.newBuyer('bid-small', '300')
    await h.order(big, slug, '100', null)
    await h.order(small, slug, '50', null)
    // A bidder pays SniperAuctionV2 in WETH: it holds some and approved the module before the launch (as in
    // test/launchpads/launchpads.test.ts, where the module's gating itself is checked swap by swap).
    const bidder: Address = '0xb1dde00000000000000000000000000000000b1e'
    const mevModule = h.launchpads.clanker.mevModule
    const weth = h.chain.addresses.weth
    h.startMining(50)
    await prepareDevnetTrader(h.chain, bidder, '100')
    await jsonRpc(h.chain.rpcUrl, 'eth_sendTransaction', [{ from: bidder, to: weth, value: '0x2386f26fc10000', data: toFunctionSelector('deposit()') }])
    await confirmDevnetTx(
      h.chain,
      await submitDevnetCall(h.chain, bidder, { address: weth, abi: erc20Abi, functionName: 'approve', args: [mevModule, maxUint256] }),
    )
    await h.stopMining()

    // Block by block, each one processed (its tick priced, then decided by an idle executor) before the next is mined.
    // (A quiet tick's decision is journaled only when a verdict changes, so the indexer's signal is what is waited for.)
    const decided = (block: bigint, options?: { idle: boolean }) => blockDecided(h, block, options)
    const timestampOf = async (block: bigint) => Number((await h.client.getBlock({ blockNumber: block })).timestamp)
    const launched = await h.launch(slug, 'clanker', creator)
    const n = launched.blockNumber
    await decided(n)
    await h.mine()
    await decided(n + 1n)

    // Launch + 2, the first auction block: the bid (its payer in the hook data, a gas price above the peg) wins it.
    const bidData = auctionHookData(bidder)
    const bid = await swapExactUsdcForToken({
      chain: h.chain,
      token: launched.token,
      trader: bidder,
      usdc: '10',
      poolKey: launched.poolKey,
      prepared: true,
      submitOnly: true,
      gas: 2_000_000n,
      hookData: bidData,
      fees: { maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 50_000_000_000n },
    })
    await h.mine()
    const bidReceipt = await h.client.getTransactionReceipt({ hash: bid.txHash })
    expect(bidReceipt).toMatchObject({ status: 'success', blockNumber: n + 2n })
    const won = parseEventLogs({
      abi: parseAbi(['event AuctionWon(bytes32 indexed poolId, address indexed payee, uint256 paymentAmount, uint256 round)']),
      logs: bidReceipt.logs.filter((l) => l.address.toLowerCase() === mevModule.toLowerCase()),
    })
    expect(won.map((w) => w.args.round)).toEqual([1n])
    await decided(n + 2n)

    // The indexer read the module again: the next auction is 2 blocks on and the decay counts from the won round.
    const recorded = (await h.journal.getLaunchBySlug(slug))!.feeSchedule as ClankerAuctionSchedule
    expect(recorded).toMatchObject({ kind: 'clanker_auction', nextAuctionBlock: String(n + 4n), decayFrom: await timestampOf(n + 2n) })
    // Launch + 3 and + 4 are gated now (a plain swap reverts with NotAuctionBlock): nothing is sent for them.
    await h.mine()
    await decided(n + 3n)
    await h.mine()
    // (Not idle after it: an executor with a bundle in flight is idle only once a block mines it.)
    await decided(n + 4n, { idle: false })
    // The tick of n + 4 prices a swap in n + 5, which is open: the bundle goes out for it.
    await h.waitFor('the bundle for launch + 5', () => h.bundlePending())
    h.startMining()
    await h.waitFor('fills', async () => (await Promise.all([big, small].map((b) => h.getOrder(b, slug)))).every((o) => o?.status === 'filled'))
    await h.stopMining()

    const decisions = await h.journal.decisionsOf(slug)
    for (const d of decisions.filter((d) => BigInt(d.tick.blockNumber) < n + 4n)) {
      expect(d.tick.swapsAllowed, `tick of block ${d.tick.blockNumber}`).toBe(false)
      expect(d.orders.filter((o) => o.verdict === 'submitted')).toEqual([])
    }
    const fill = (await h.getOrder(big, slug))!.execution!
    const receipt = await h.client.getTransactionReceipt({ hash: fill.txHash as `0x${string}` })
    expect(receipt.blockNumber).toBe(n + 5n)
    // The pool charged the fee decayed from the won round, as the executor priced it; unbid, it would be lower.
    const t5 = await timestampOf(n + 5n)
    const paid = findPoolSwap(receipt.logs, h.chain.addresses.poolManager)?.fee
    expect(paid).toBe(clankerAuctionDecayFeeAt(recorded, t5))
    expect(paid).toBeGreaterThan(clankerAuctionDecayFeeAt({ ...recorded, decayFrom: await timestampOf(n) }, t5))
    const planned = decisions.filter((d) => d.orders.some((o) => o.verdict === 'submitted'))
    expect(planned.map((d) => d.tick.blockNumber)).toEqual([String(n + 4n)])
    expect(planned[0]!.tick.lpFeePips).toBe(paid)
    for (const t of (await h.journal.ticksOf(slug)).filter((t) => BigInt(t.blockNumber) < n + 4n))
      expect(t.swapsAllowed, `tick of ${t.blockNumber}`).toBe(false)
    for (const buyer of [big, small]) {
      const events = await h.journal.orderEventsOf(buyer.keyId, slug)
      expect(events.map((e) => `${e.from}->${e.to}`)).toEqual(['active->executing', 'executing->filled'])
    }
  })
})

function order(o: { execution?: { spentUsdc: string; txHash: string } } | undefined) {
  if (!o?.execution) throw new Error('order has no execution')
  return o.execution
}
