import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Address, erc20Abi, type Hex, maxUint256, parseAbi, parseEventLogs, toFunctionSelector } from 'viem'
import { createTickQuotes, type QuoteDisagreement } from '../../daemon/executor/tick-quotes.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { auctionHookData } from '../../devnet/launchpads/auction-bid.ts'
import type { ClankerDevnetMevModule } from '../../devnet/launchpads/launch-token.ts'
import { confirmDevnetTx, submitDevnetCall } from '../../devnet/launchpads/send-devnet-tx.ts'
import { findPoolSwap, prepareDevnetTrader, swapExactUsdcForToken } from '../../devnet/launchpads/swap-exact-usdc-for-token.ts'
import { silentLogger } from '../../src/common/logger.ts'
import type { LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'
import { type BuyQuote, createBuyQuoter } from '../../src/launchpads/quote-buy.ts'
import { readV40Module } from '../../src/launchpads/clanker/read-v40-module.ts'
import { clankerTotalFeeFraction } from '../../src/pricing/fee-fraction.ts'
import { feeAt } from '../../src/pricing/fee-schedule.ts'
import { DEFAULT_QUOTE_TOLERANCE_BPS, PROBE_SPEND_ATOMS } from '../../src/pricing/quote/compare-quote.ts'
import { blockDecided } from './block-decided.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n
const LP_FEE = 10_000

/**
 * Clanker v4.0's MEV modules on the devnet (DevnetClankerMevBlockDelay, DevnetClankerSniperAuctionV0: copies of
 * clanker-devco/v4-contracts b004c2e src/mev-modules/ClankerMevBlockDelay.sol and ClankerSniperAuctionV0.sol), driven
 * block by block: each block is processed (ticked, decided by an idle executor) before the next is mined, so what is
 * asserted about blocks never depends on timing. The launch used to be quarantined forever (no feeConfig); now it is
 * gated exactly while the module refuses plain swaps, priced at the LP fee (the modules charge no fee), and bought in
 * the first open block.
 */
describe('Clanker v4.0 MEV modules: gated, then filled in the first open block (real devnet, wallets, store)', () => {
  let h: FlowHarness
  const disagreements: QuoteDisagreement[] = []
  beforeAll(async () => {
    h = await startFlowHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  const quotes = () =>
    createTickQuotes({
      quoters: { base: createBuyQuoter({ client: h.client, v4Quoter: h.chain.addresses.v4Quoter, multicall3: h.chain.addresses.multicall3 }) },
      log: silentLogger,
      onDisagreement: (d) => disagreements.push(d),
    })

  /** Waits until `block` was processed by the indexer and (unless told otherwise) decided by an idle executor. */
  const decided = (block: bigint, options?: { idle: boolean }) => blockDecided(h, block, options)

  async function setUp(name: string, mevModule: ClankerDevnetMevModule) {
    const { slug, creator } = await h.newProject(name, 'clanker')
    const buyer = await h.newBuyer(`${name}-buyer`, '100')
    await h.order(buyer, slug, '40', null)
    return { slug, creator, buyer, mevModule }
  }

  /** The tick of `block` (the launch tick for the launch block). */
  const tickOf = async (slug: string, block: bigint): Promise<PriceTick> =>
    h.waitFor(`the tick of block ${block}`, async () => (await h.journal.ticksOf(slug)).find((t) => BigInt(t.blockNumber) === block && t.reason !== 'swap'))

  /** Formula and quote of the real swap (V4Quoter, next block's number and time) on one tick: they must agree. */
  async function formulaAgreesWithQuote(slug: string, block: bigint): Promise<{ tick: PriceTick; probe: BuyQuote }> {
    const launch = (await h.journal.getLaunchBySlug(slug)) as LaunchRecord
    const tick = await tickOf(slug, block)
    const comparison = await quotes().compare(tick, launch)
    expect(comparison, `block ${block}: ${JSON.stringify(comparison)}`).toMatchObject({ kind: 'agree' })
    if (tick.swapsAllowed) expect(Math.abs((comparison as { deviationBps: number }).deviationBps)).toBeLessThanOrEqual(DEFAULT_QUOTE_TOLERANCE_BPS)
    const probe = await createBuyQuoter({ client: h.client, v4Quoter: h.chain.addresses.v4Quoter, multicall3: h.chain.addresses.multicall3 }).quoteBuy(
      launch,
      PROBE_SPEND_ATOMS,
      {
        blockNumber: BigInt(tick.blockNumber),
        next: { number: BigInt(tick.blockNumber) + 1n, timestamp: tick.nextBlockTimestamp },
        pairedUsdAtoms: BigInt(tick.pairedUsdAtoms),
      },
    )
    return { tick, probe }
  }

  /** After the fill: one attempt, no failure, bought in `block`, at the LP fee alone (the module took nothing). */
  async function filledIn(buyer: Buyer, slug: string, block: bigint) {
    const filled = await h.waitFor('the fill', async () => {
      const o = await h.getOrder(buyer, slug)
      return o?.status === 'filled' ? o : undefined
    })
    const receipt = await h.client.getTransactionReceipt({ hash: filled.execution!.txHash as Hex })
    expect(receipt.blockNumber).toBe(block)
    expect(findPoolSwap(receipt.logs, h.chain.addresses.poolManager)?.fee).toBe(LP_FEE)
    expect(await h.usdcOf(buyer.wallet)).toBe(60n * USDC)
    const events = await h.journal.orderEventsOf(buyer.keyId, slug)
    expect(events.map((e) => `${e.from}->${e.to}`)).toEqual(['active->executing', 'executing->filled'])
    const planned = (await h.journal.decisionsOf(slug)).filter((d) => d.orders.some((o) => o.verdict === 'submitted'))
    expect(planned.map((d) => d.tick.blockNumber)).toEqual([String(block - 1n)])
    expect(planned[0]!.tick.lpFeePips).toBe(LP_FEE)
    for (const t of (await h.journal.ticksOf(slug)).filter((t) => BigInt(t.blockNumber) < block - 1n))
      expect(t.swapsAllowed, `tick of ${t.blockNumber}`).toBe(false)
  }

  it('ClankerMevBlockDelay (2 blocks): the launch is recorded, not quarantined; nothing is sent for launch + 1; the order fills in launch + 2, the first unlocked block', async () => {
    const { slug, creator, buyer } = await setUp('blockdelay', 'block_delay')
    const launched = await h.launch(slug, 'clanker', creator, { mevModule: 'block_delay' })
    const n = launched.blockNumber
    expect(launched.launch.feeSources.mevModule).toBe(h.launchpads.clanker.mevBlockDelay)
    await decided(n)
    const record = (await h.journal.getLaunchBySlug(slug))!
    expect(record.feeSchedule).toMatchObject({
      kind: 'clanker_auction',
      module: 'block_delay',
      nextAuctionBlock: String(n + 1n),
      startingFee: 0,
      lpFee: LP_FEE,
    })
    expect((await h.journal.candidates('base')).filter((c) => c.slug === slug)).toEqual([])

    // The launch tick prices launch + 1, still locked: formula and quote agree that no swap passes (the quote reverts
    // with the module's PoolLocked, through the hook).
    const gated = await formulaAgreesWithQuote(slug, n)
    expect(gated.tick.swapsAllowed).toBe(false)
    expect(gated.probe).toMatchObject({ kind: 'reverted' })
    expect((gated.probe as { reason: string }).reason).toContain(toFunctionSelector('PoolLocked()'))
    expect(await h.bundlePending()).toBe(false)

    await h.mine()
    // The tick of launch + 1 prices launch + 2 = poolUnlockTime: open, at the LP fee and the hook's protocol fee only.
    await decided(n + 1n, { idle: false })
    const open = await formulaAgreesWithQuote(slug, n + 1n)
    const lpOnly = clankerTotalFeeFraction(LP_FEE)
    expect(open.tick).toMatchObject({ swapsAllowed: true, lpFeePips: LP_FEE })
    expect(open.tick.totalFeeFraction).toBeCloseTo(Number(lpOnly.numerator) / Number(lpOnly.denominator), 12)
    expect(open.probe.kind).toBe('quoted')
    await h.waitFor('the bundle for launch + 2', () => h.bundlePending())
    await h.mine()
    await filledIn(buyer, slug, n + 2n)
    expect(disagreements.filter((d) => d.slug === slug)).toEqual([])

    // A module answering none of the known getters (here: an address without code) is never quarantined: it is gated
    // until the hook stops calling it, 120 s after the pool's creation (MAX_MEV_MODULE_DELAY), then priced at the LP fee.
    const created = Number((await h.client.getBlock({ blockNumber: n })).timestamp)
    const unknown = await readV40Module(h.client, { poolId: launched.poolId, launchedAt: created, hook: launched.poolKey.hooks, lpFee: LP_FEE }, creator)
    expect(unknown).toMatchObject({ kind: 'clanker_auction', module: 'unknown', nextAuctionBlock: null, swapsFrom: created + 120, moduleEndsAt: created + 120 })
    expect(feeAt(unknown, { number: n + 1000n, timestamp: created + 119 }).swapsAllowed).toBe(false)
    expect(feeAt(unknown, { number: n + 1001n, timestamp: created + 120 })).toMatchObject({ swapsAllowed: true, lpFee: LP_FEE, sniperFee: 0 })
  })

  it('ClankerSniperAuctionV0 unbid: launch + 1 and the auction block (launch + 2) are gated; the order fills in launch + 3', async () => {
    const { slug, creator, buyer } = await setUp('auctionv0', 'sniper_auction_v0')
    const launched = await h.launch(slug, 'clanker', creator, { mevModule: 'sniper_auction_v0' })
    const n = launched.blockNumber
    expect(launched.launch.feeSources.mevModule).toBe(h.launchpads.clanker.mevAuctionV0)
    await decided(n)
    expect((await h.journal.getLaunchBySlug(slug))!.feeSchedule).toMatchObject({
      kind: 'clanker_auction',
      module: 'sniper_auction_v0',
      nextAuctionBlock: String(n + 2n),
      lpFee: LP_FEE,
    })
    const beforeAuction = await formulaAgreesWithQuote(slug, n)
    expect((beforeAuction.probe as { reason: string }).reason).toContain(toFunctionSelector('NotAuctionBlock()'))
    await h.mine()
    await decided(n + 1n)
    // The tick of launch + 1 prices the auction block: only a bid swaps there (a plain swap's empty data fails the
    // module's decode), so both refuse.
    const auctionBlock = await formulaAgreesWithQuote(slug, n + 1n)
    expect(auctionBlock.tick.swapsAllowed).toBe(false)
    expect(auctionBlock.probe.kind).toBe('reverted')
    expect(await h.bundlePending()).toBe(false)
    await h.mine()
    await decided(n + 2n, { idle: false })
    const open = await formulaAgreesWithQuote(slug, n + 2n)
    expect(open.tick).toMatchObject({ swapsAllowed: true, lpFeePips: LP_FEE })
    await h.waitFor('the bundle for launch + 3', () => h.bundlePending())
    await h.mine()
    await filledIn(buyer, slug, n + 3n)
  })

  it('ClankerSniperAuctionV0 with a winning bid in launch + 2: the gate moves to launch + 4 (read again), nothing is sent into it, the order fills in launch + 5 at the LP fee', async () => {
    const { slug, creator, buyer } = await setUp('auctionv0bid', 'sniper_auction_v0')
    const bidder: Address = '0xb1dde00000000000000000000000000000000b1f'
    const mevModule = h.launchpads.clanker.mevAuctionV0
    const weth = h.chain.addresses.weth
    h.startMining(50)
    await prepareDevnetTrader(h.chain, bidder, '100')
    await jsonRpc(h.chain.rpcUrl, 'eth_sendTransaction', [{ from: bidder, to: weth, value: '0x2386f26fc10000', data: toFunctionSelector('deposit()') }])
    await confirmDevnetTx(
      h.chain,
      await submitDevnetCall(h.chain, bidder, { address: weth, abi: erc20Abi, functionName: 'approve', args: [mevModule, maxUint256] }),
    )
    await h.stopMining()

    const launched = await h.launch(slug, 'clanker', creator, { mevModule: 'sniper_auction_v0' })
    const n = launched.blockNumber
    await decided(n)
    await h.mine()
    await decided(n + 1n)
    // The bid: its payee in the hook data (the devnet hook passes PoolSwapData's module data, as ClankerHookV2), a gas
    // price above the round's peg; it pays (gasprice - gasPeg) * paymentPerGasUnit WETH.
    const bid = await swapExactUsdcForToken({
      chain: h.chain,
      token: launched.token,
      trader: bidder,
      usdc: '10',
      poolKey: launched.poolKey,
      prepared: true,
      submitOnly: true,
      gas: 2_000_000n,
      hookData: auctionHookData(bidder),
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
    expect(won[0]!.args.paymentAmount).toBeGreaterThan(0n)
    // The bid's swap paid no sniper fee: V0 has none.
    expect(findPoolSwap(bidReceipt.logs, h.chain.addresses.poolManager)?.fee).toBe(LP_FEE)
    await decided(n + 2n)
    expect((await h.journal.getLaunchBySlug(slug))!.feeSchedule).toMatchObject({ module: 'sniper_auction_v0', nextAuctionBlock: String(n + 4n) })
    // (Block n + 2's tick is the bid's swap tick, not compared: other swaps may follow in a block.) The tick of n + 3
    // prices the new auction block: both refuse; the tick of n + 4 prices n + 5, open: both agree on the LP fee.
    await h.mine()
    await decided(n + 3n)
    expect((await formulaAgreesWithQuote(slug, n + 3n)).tick.swapsAllowed).toBe(false)
    expect(await h.bundlePending()).toBe(false)
    await h.mine()
    await decided(n + 4n, { idle: false })
    expect((await formulaAgreesWithQuote(slug, n + 4n)).tick).toMatchObject({ swapsAllowed: true, lpFeePips: LP_FEE })
    await h.waitFor('the bundle for launch + 5', () => h.bundlePending())
    await h.mine()
    await filledIn(buyer, slug, n + 5n)
  })
})
