import { parseAbi, parseEventLogs, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatDecimal } from '../../src/domain/decimal.ts'
import type { PriceTick } from '../../src/journal/journal-records.ts'
import { BASE_CLANKER_V5_HOOK } from '../../src/launchpads/base-addresses.ts'
import { POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
import { effectiveMarketCap } from '../../src/pricing/effective-market-cap.ts'
import { feeAt, type FeeSchedule } from '../../src/pricing/fee-schedule.ts'
import { fraction } from '../../src/pricing/fraction.ts'
import { type ClankerV5FeeSchedule, clankerV5FeeAt } from '../../src/pricing/schedules/clanker-v5.ts'
import { HARNESS_BLOCK_TIME, startFlowHarness, type FlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n
const ERC6909 = parseAbi(['function balanceOf(address owner, uint256 id) view returns (uint256)'])
type TickSignal = Extract<FlowHarness['signals'][number], { type: 'tick' }>

/**
 * Clanker v5 end to end: the devnet's v5 factory and hook at their Base addresses, the launch found by the PoolManager's
 * Initialize naming the hook, its fee measured by quoting the swap, the order filled by the real executor and wallets.
 * Devnet defaults (DEVNET_LAUNCH_DEFAULTS.clanker_v5): native ETH pair, 10% buy tax, sniper fee on (99% -> 10% over 20 s).
 */
describe('open-market execution on a Clanker v5 launch (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  const ticksOf = (slug: string) => h.signals.filter((s): s is TickSignal => s.type === 'tick' && s.tick.slug === slug)
  const hookClaims = () =>
    h.client.readContract({ address: h.chain.addresses.poolManager, abi: ERC6909, functionName: 'balanceOf', args: [BASE_CLANKER_V5_HOOK, 0n] })

  it('full flow: fills with the 3% fee to the recipient and exact balances; the hook took the fee of the block the buy landed in', async () => {
    const { slug, creator } = await h.newProject('five', 'clanker_v5')
    const buyer = await h.newBuyer('five-a', '100')
    await h.order(buyer, slug, '40', null)
    const claimsBefore = await hookClaims()
    h.startMining()
    const launched = await h.launch(slug, 'clanker_v5', creator)
    expect(launched.poolKey.currency0).toBe(zeroAddress)
    expect(launched.poolKey.hooks).toBe(BASE_CLANKER_V5_HOOK)
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()

    const record = (await h.journal.getLaunchBySlug(slug))!
    expect(record.launchpad).toBe('clanker_v5')
    expect(record.totalSupply).toBe((10n ** 27n).toString())
    const schedule = record.feeSchedule as ClankerV5FeeSchedule
    expect(schedule).toEqual({ kind: 'clanker_v5', startTime: record.launchedAt / 1000, buyTax: 100_000, sniperStartFee: 990_000, sniperSeconds: 20 })
    const e = (await h.getOrder(buyer, slug))!.execution!
    expect(e.spentUsdc).toBe('40')
    expect(await h.usdcOf(buyer.wallet)).toBe(60n * USDC)
    expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(BigInt(e.tokensReceived))
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(BigInt(e.feeTokens))
    expect(BigInt(e.feeTokens)).toBe(((BigInt(e.tokensReceived) + BigInt(e.feeTokens)) * 3n) / 100n)
    expect(await h.client.getBalance({ address: h.buyRouter })).toBe(0n)

    // The hook kept, as ETH claims, exactly the fee of the buy's block on what the buy brought; the pool swapped the rest.
    const receipt = await h.client.getTransactionReceipt({ hash: e.txHash as `0x${string}` })
    const block = await h.client.getBlock({ blockNumber: receipt.blockNumber })
    const swap = parseEventLogs({ abi: POOL_MANAGER_EVENTS, logs: receipt.logs, eventName: 'Swap' }).find((l) => l.args.id === launched.poolId)!
    expect(swap.args.fee).toBe(0)
    const taken = (await hookClaims()) - claimsBefore
    const poolIn = -swap.args.amount0
    const fee = clankerV5FeeAt(schedule, Number(block.timestamp))
    expect(taken).toBe(((poolIn + taken) * BigInt(fee)) / 1_000_000n)
    // Every tick priced the hook's fee at its next block's time.
    for (const { tick } of await h.journal.decisionsOf(slug)) {
      expect(tick.totalFeeFraction).toBeCloseTo(clankerV5FeeAt(schedule, tick.nextBlockTimestamp) / 1e6, 12)
    }
  })

  it('an order whose limit is only met as the sniper fee falls fills in the first block where the effective cap (tax and sniper fee) is within it', async () => {
    const { slug, creator } = await h.newProject('fivedecay', 'clanker_v5')
    const buyer = await h.newBuyer('fivedecay-buyer', '100')
    await h.order(buyer, slug, '20', '1')
    // Launch with the chain standing still, read the pool's FDV, then set a limit between two blocks' caps.
    const claimsBefore = await hookClaims()
    await h.launch(slug, 'clanker_v5', creator, { endFee: 50_000 })
    const first = await h.waitFor('launch tick', async () => ticksOf(slug)[0])
    const schedule = first.launch.feeSchedule as FeeSchedule
    expect(schedule).toMatchObject({ kind: 'clanker_v5', buyTax: 50_000, sniperStartFee: 990_000 })
    const fdv = BigInt(first.tick.fdvUsdAtoms)
    const launchTime = first.launch.launchedAt / 1000
    const capAt = (t: number) => effectiveMarketCap(fraction(fdv), feeAt(schedule, { timestamp: t, number: 0n }).totalFee)!
    // Target: the block 4 blocks after the launch (8 s, the sniper fee at 61.4%); the limit halfway to the block before.
    const target = launchTime + 4 * HARNESS_BLOCK_TIME
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
    for (const earlier of mine.slice(0, firstSubmitted)) {
      expect(earlier.verdict).toBe('limit_below_cap')
      expect(earlier.tick.nextBlockTimestamp).toBeLessThan(target)
    }
    // The submitted tick's cap is the formula's at the target (from the exact FDV; the tick's FDV figure is rounded to
    // the micro-USD), within the limit.
    const submittedCap = BigInt(mine[firstSubmitted]!.tick.effectiveCapAtoms!)
    expect(submittedCap - capAt(target)).toBeGreaterThanOrEqual(-1n)
    expect(submittedCap - capAt(target)).toBeLessThanOrEqual(1n)
    expect(submittedCap).toBeLessThanOrEqual(limit)
    // Mined in that very block, paying the sniper fee of that second (61.4%) on its input.
    const execution = (await h.getOrder(buyer, slug))!.execution!
    const receipt = await h.client.getTransactionReceipt({ hash: execution.txHash as `0x${string}` })
    const block = await h.client.getBlock({ blockNumber: receipt.blockNumber })
    expect(Number(block.timestamp)).toBe(target)
    const fee = clankerV5FeeAt(schedule as ClankerV5FeeSchedule, target)
    expect(fee).toBe(990_000 - Math.floor(((990_000 - 50_000) * 8) / 20))
    const swap = parseEventLogs({ abi: POOL_MANAGER_EVENTS, logs: receipt.logs, eventName: 'Swap' }).find((l) => l.args.id === first.launch.poolId)!
    const taken = (await hookClaims()) - claimsBefore
    expect(taken).toBe(((-swap.args.amount0 + taken) * BigInt(fee)) / 1_000_000n)
    // What the buy really paid per token (spend x supply / tokens out) is that effective cap, give or take the v3
    // USDC/WETH fee (0.05%) and price impact: never above the limit.
    const gross = BigInt(execution.tokensReceived) + BigInt(execution.feeTokens)
    const paidCap = (20n * USDC * BigInt(first.launch.totalSupply)) / gross
    expect(Number(paidCap) / Number(capAt(target))).toBeGreaterThan(0.999)
    expect(paidCap).toBeLessThanOrEqual(limit)
    expect(await h.usdcOf(buyer.wallet)).toBe(80n * USDC)
  })
})
