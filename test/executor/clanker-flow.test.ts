import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEventLogs } from 'viem'
import { buyRouterAbi } from '../../daemon/executor/buy-router-abi.ts'
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
})

function order(o: { execution?: { spentUsdc: string; txHash: string } } | undefined) {
  if (!o?.execution) throw new Error('order has no execution')
  return o.execution
}
