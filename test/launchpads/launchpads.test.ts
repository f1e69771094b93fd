import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  decodeEventLog,
  erc20Abi,
  getAddress,
  isAddressEqual,
  maxUint256,
  parseAbi,
  parseEventLogs,
  toFunctionSelector,
  zeroAddress,
  type Address,
  type Hex,
  type Log,
  type PublicClient,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { startDevnet, type Devnet } from '../../devnet/chain/start-devnet.ts'
import type { Launchpad } from '../../src/domain/records.ts'
import { createLaunchpadAdapters, devnetAdapterOptions, type LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import { DEVNET_LAUNCH_DEFAULTS, DEVNET_ZORA_PER_ETH, deployDevnetLaunchpads, devnetLaunchpadsExist } from '../../devnet/launchpads/deploy-devnet-launchpads.ts'
import { auctionHookData } from '../../devnet/launchpads/auction-bid.ts'
import { createExecutorChainReads } from '../../daemon/executor/executor-chain-reads.ts'
import { decodeOwnLaunch, launchToken, predictTokenAddress, submitLaunch } from '../../devnet/launchpads/launch-token.ts'
import { confirmDevnetTx, devnetPublicClient, submitDevnetCall } from '../../devnet/launchpads/send-devnet-tx.ts'
import { DEVNET_TRADER, findPoolSwap, prepareDevnetTrader, swapExactUsdcForToken, type SwapResult } from '../../devnet/launchpads/swap-exact-usdc-for-token.ts'
import type { LaunchpadAdapter, PoolKey } from '../../src/launchpads/launchpad-adapter.ts'
import { loadLaunchContext } from '../../src/launchpads/load-launch-context.ts'
import { poolIdOf } from '../../src/launchpads/pool-id.ts'
import { POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
import { quoteDevBuy } from '../../src/launch-methods/dev-buy/domain/dev-buy-eligibility.ts'
import { CLANKER_TOKEN_CREATED } from '../../src/launchpads/clanker/clanker-abi.ts'
import { clankerLaunchPool } from '../../src/launchpads/clanker/clanker-launch-pool.ts'
import { maxUsableTick } from '../../src/pricing/v4/tick-math.ts'
import { clankerProtocolFeeOf, clankerTotalFeeFraction } from '../../src/pricing/fee-fraction.ts'
import { fraction } from '../../src/pricing/fraction.ts'
import { type ClankerAuctionSchedule, feeAt, type FeeSchedule, scheduleNeedsRefresh } from '../../src/pricing/fee-schedule.ts'
import { clankerAuctionDecayFeeAt } from '../../src/pricing/schedules/clanker-auction.ts'
import { type LinearFeeSchedule as LinearSchedule, linearFeeAt } from '../../src/pricing/schedules/linear.ts'

/** The next block: its timestamp and number (only Clanker's auction gating depends on the number). */
const at = (timestamp: number, number = 0n) => ({ timestamp, number })
/** When a schedule's launch fee reaches its floor. */
const floorOf = (s: FeeSchedule): number =>
  s.kind === 'clanker'
    ? s.startTime + s.secondsToDecay
    : s.kind === 'clanker_auction'
      ? s.decayFrom + s.secondsToDecay
      : s.kind === 'clanker_v5'
        ? s.startTime + s.sniperSeconds
        : s.startTime + s.durationSeconds
import { exactInputSingleRange } from './single-range-swap.ts'
import { BASE_REHYPE_FIXED_HOOK, BASE_REHYPE_SDK_HOOK } from '../../src/launchpads/doppler/rehype-deployments.ts'
import { findInitializedPools } from '../../src/launchpads/v4-events.ts'
import { setDevnetProtocolFee } from '../../devnet/launchpads/set-protocol-fee.ts'
import { ZORA_TREND_COIN_CREATED } from '../../src/launchpads/zora/zora-abi.ts'
import { decodeProtocolFeeUpdated } from '../../src/launchpads/protocol-fee-updated.ts'
import { buyProtocolFee, v4SwapFeePips } from '../../src/pricing/protocol-fee.ts'

/** The pool the launch transaction initialised for `token`. */
const findInitializedPoolsIn = (logs: readonly Log[], token: Address) =>
  findInitializedPools(logs, chain.addresses.poolManager).find((p) => isAddressEqual(p.poolKey.currency0, token) || isAddressEqual(p.poolKey.currency1, token))!

const STATE_VIEW = parseAbi(['function getSlot0(bytes32 poolId) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)'])
const ERC6909 = parseAbi(['function balanceOf(address owner, uint256 id) view returns (uint256)'])
const DYNAMIC_FEE_FLAG = 0x800000

let dataDir: string
let devnet: Devnet
let chain: ChainConfig
let client: PublicClient
let addresses: LaunchpadAddresses
let adapters: Record<Launchpad, LaunchpadAdapter>
let creatorCounter = 0

const nextCreator = (): Address => getAddress(`0xc0ffee${(++creatorCounter).toString(16).padStart(34, '0')}`)

/** The next block's timestamp (manual mining: nothing is mined until we say so). */
async function setNextTimestamp(ts: number): Promise<void> {
  await jsonRpc(chain.rpcUrl, 'evm_setNextBlockTimestamp', [ts])
}

async function latestTimestamp(): Promise<number> {
  return Number((await client.getBlock({ blockTag: 'latest' })).timestamp)
}

interface ObservedSwap extends SwapResult {
  timestamp: number
  blockNumber: bigint
  wethIn: bigint
  sqrtBefore: bigint
}

/** A 10 USDC third-party buy landing in a block with timestamp `ts`, with what the pool saw. */
async function buyAt(ts: number, poolKey: PoolKey, token: Address, poolId: Hex): Promise<ObservedSwap> {
  const [sqrtBefore] = await client.readContract({ address: chain.addresses.stateView, abi: STATE_VIEW, functionName: 'getSlot0', args: [poolId] })
  await setNextTimestamp(ts)
  const result = await swapExactUsdcForToken({ chain, token, usdc: '10', poolKey, prepared: true })
  const receipt = await client.getTransactionReceipt({ hash: result.txHash })
  expect(Number((await client.getBlock({ blockNumber: receipt.blockNumber })).timestamp)).toBe(ts)
  let wethIn = 0n
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== chain.addresses.weth.toLowerCase()) continue
    // WETH's Transfer out of the v3 pool (an ETH-paired pool's route also unwraps: a Withdrawal, skipped).
    const decoded = (() => {
      try {
        return decodeEventLog({ abi: erc20Abi, eventName: 'Transfer', data: log.data, topics: log.topics })
      } catch {
        return undefined
      }
    })()
    if (decoded && decoded.args.from.toLowerCase() === chain.addresses.ethUsdPool.toLowerCase()) wethIn = decoded.args.value
  }
  expect(wethIn).toBeGreaterThan(0n)
  return { ...result, timestamp: ts, blockNumber: receipt.blockNumber, wethIn, sqrtBefore }
}

/** Checks a real swap against the schedule: the LP fee the pool charged, the protocol fee, and the exact tokens out. */
async function expectSwapPaysSchedule(swap: ObservedSwap, schedule: FeeSchedule, poolKey: PoolKey, launchpad: Launchpad): Promise<void> {
  const quote = feeAt(schedule, at(swap.timestamp, swap.blockNumber))
  expect(swap.poolSwap.fee).toBe(quote.lpFee)
  // The paired asset (WETH, or native ETH: address 0, always currency0) is what the pool takes in.
  const wethIs0 = poolKey.currency0.toLowerCase() === chain.addresses.weth.toLowerCase() || poolKey.currency0 === zeroAddress
  const poolInput = -(wethIs0 ? swap.poolSwap.amount0 : swap.poolSwap.amount1)
  const protocolFee = launchpad === 'clanker' ? clankerProtocolFeeOf(swap.wethIn, quote.lpFee) : 0n
  expect(poolInput).toBe(swap.wethIn - protocolFee)
  const expectedOut = exactInputSingleRange({
    sqrtPriceX96: swap.sqrtBefore,
    liquidity: swap.poolSwap.liquidity,
    amountIn: poolInput,
    feePips: quote.lpFee,
    zeroForOne: wethIs0,
  })
  expect(swap.tokensOut).toBe(expectedOut)
  // The effective fee fraction: tokens received vs a zero-fee swap of the whole input (tiny price impact at 10 USDC).
  const zeroFeeOut = exactInputSingleRange({
    sqrtPriceX96: swap.sqrtBefore,
    liquidity: swap.poolSwap.liquidity,
    amountIn: swap.wethIn,
    feePips: 0,
    zeroForOne: wethIs0,
  })
  const effective = 1 - Number((swap.tokensOut * 10n ** 12n) / zeroFeeOut) / 1e12
  expect(Math.abs(effective - quote.totalFraction)).toBeLessThan(2e-3)
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'prebuy-launchpads-'))
  devnet = await startDevnet({ dataDir, blockTime: 'manual' })
  chain = devnet.chains.base
  client = devnetPublicClient(chain)
  addresses = await deployDevnetLaunchpads(chain, devnet.deployer.account)
  adapters = createLaunchpadAdapters(devnetAdapterOptions(chain.addresses, addresses))
  await prepareDevnetTrader(chain, DEVNET_TRADER, '1000000')
})

afterAll(async () => {
  await devnet?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('devnet launchpads', () => {
  it('are deployed with hooks at addresses carrying their permission bits', async () => {
    expect(await devnetLaunchpadsExist(chain, addresses)).toBe(true)
    expect(Number(BigInt(addresses.clanker.hook) & 0x3fffn)).toBe(0x88) // beforeSwap | beforeSwapReturnsDelta
    expect(Number(BigInt(addresses.doppler.hook) & 0x3fffn)).toBe(0x80)
    expect(Number(BigInt(addresses.zora.hook) & 0x3fffn)).toBe(0x80)
    // Clanker's dynamic-fee hook has the static one's permissions; Doppler's DopplerHookInitializer the real one's:
    // beforeInitialize | afterAddLiquidity | afterRemoveLiquidity | afterSwap | afterSwapReturnsDelta.
    expect(Number(BigInt(addresses.clanker.dynamicHook) & 0x3fffn)).toBe(0x88)
    expect(Number(BigInt(addresses.doppler.rehypeInitializer) & 0x3fffn)).toBe(0x2544)
  })

  const cases: Array<{ launchpad: Launchpad; side: 'currency0' | 'currency1'; fees: { startFee: number; endFee: number; decaySeconds: number } | null }> = [
    { launchpad: 'clanker', side: 'currency0', fees: null },
    { launchpad: 'clanker', side: 'currency1', fees: { startFee: 500_000, endFee: 50_000, decaySeconds: 20 } },
    { launchpad: 'doppler', side: 'currency0', fees: { startFee: 900_000, endFee: 12_000, decaySeconds: 12 } },
    { launchpad: 'doppler', side: 'currency1', fees: null },
    // Zora coins pair with native ETH (address 0 sorts first) and the launch fee is fixed: one case.
    { launchpad: 'zora', side: 'currency1', fees: null },
  ]

  it.each(cases)(
    '$launchpad (token as $side): launch decoded from the real log, schedule loaded, real swaps pay it until the floor',
    async ({ launchpad, side, fees }) => {
      const creator = nextCreator()
      const t0 = (await latestTimestamp()) + 100
      await setNextTimestamp(t0)
      const launched = await launchToken({ chain, addresses, launchpad, creator, name: `${launchpad} coin`, symbol: 'LC', tokenSide: side, ...(fees ?? {}) })

      // The indexer's path: the raw log from getLogs, its transaction's context, the adapter.
      const adapter = adapters[launchpad]
      const logs = await client.getLogs({
        address: adapter.launchEvent.address,
        events: adapter.launchEvent.events,
        fromBlock: launched.blockNumber,
        toBlock: launched.blockNumber,
      })
      expect(logs).toHaveLength(1)
      const decoded = await adapter.decodeLaunch(logs[0]!, await loadLaunchContext(client, logs[0]!))
      expect(decoded?.kind).toBe('launch')
      const launch = decoded?.kind === 'launch' ? decoded.candidate : undefined
      expect(launch).toEqual(launched.launch)
      expect(launch!.token).toBe(launched.token)
      // Sent by the creator: the deployer the project is registered with.
      expect(launch!.deployer).toBe(getAddress(creator))
      expect(launch!.launchedAt).toBe(t0)
      expect(launch!.tokenIsCurrency0).toBe(side === 'currency0')
      const hook = launchpad === 'clanker' ? addresses.clanker.hook : launchpad === 'doppler' ? addresses.doppler.hook : addresses.zora.hook
      const paired = launchpad === 'zora' ? zeroAddress : chain.addresses.weth
      const [currency0, currency1] = side === 'currency0' ? [launched.token, paired] : [paired, launched.token]
      expect(launch!.poolKey).toEqual({
        currency0: getAddress(currency0),
        currency1: getAddress(currency1),
        fee: DYNAMIC_FEE_FLAG,
        tickSpacing: launchpad === 'doppler' ? 60 : 200,
        hooks: hook,
      })
      if (launchpad === 'clanker') expect(launch!.name).toBe('clanker coin')

      const schedule = await adapter.loadFeeSchedule(client, launch!)
      const expected = fees ?? DEVNET_LAUNCH_DEFAULTS[launchpad]
      if (launchpad === 'clanker') {
        // SniperAuctionV2, as on Base: auctions from launch + 2; unbid, the decay counts from the launch.
        expect(schedule).toEqual({
          kind: 'clanker_auction',
          startingFee: expected.startFee,
          endingFee: expected.endFee,
          secondsToDecay: expected.decaySeconds,
          lpFee: 10_000,
          nextAuctionBlock: (launched.blockNumber + 2n).toString(),
          decayFrom: t0,
          moduleEndsAt: t0 + 120,
        })
        // The first auction block passes unbid (two blocks in the launch's second): plain swaps are allowed after it.
        for (const _ of [1, 2]) {
          await setNextTimestamp(t0)
          await jsonRpc(chain.rpcUrl, 'evm_mine')
        }
      } else {
        expect(schedule).toEqual({
          kind: 'linear',
          startTime: t0,
          startFee: expected.startFee,
          endFee: expected.endFee,
          durationSeconds: expected.decaySeconds,
        })
      }

      // Two swaps while the fee decays, one past the floor.
      const early = await buyAt(t0 + 1, launch!.poolKey, launch!.token, launch!.poolId)
      await expectSwapPaysSchedule(early, schedule, launch!.poolKey, launchpad)
      expect(feeAt(schedule, at(t0 + 1, early.blockNumber)).sniperFee).toBeGreaterThan(0)
      const mid = await buyAt(t0 + Math.floor(expected.decaySeconds / 2), launch!.poolKey, launch!.token, launch!.poolId)
      await expectSwapPaysSchedule(mid, schedule, launch!.poolKey, launchpad)
      expect(mid.poolSwap.fee).toBeLessThan(early.poolSwap.fee)
      const late = await buyAt(floorOf(schedule) + 3, launch!.poolKey, launch!.token, launch!.poolId)
      await expectSwapPaysSchedule(late, schedule, launch!.poolKey, launchpad)
      expect(late.poolSwap.fee).toBe(launchpad === 'clanker' ? 10_000 : expected.endFee)
      expect(feeAt(schedule, at(late.timestamp, late.blockNumber)).sniperFee).toBe(0)

      const held = await client.readContract({ address: launch!.token, abi: erc20Abi, functionName: 'balanceOf', args: [DEVNET_TRADER] })
      expect(held).toBe(early.tokensOut + mid.tokensOut + late.tokensOut)
    },
  )

  it('clanker: the hook keeps 20% of the LP fee as protocol fee claims', async () => {
    const launched = await launchToken({ chain, addresses, launchpad: 'clanker', creator: nextCreator(), name: 'fee', symbol: 'FEE' })
    // Past the first auction block (launch + 2), unbid: plain swaps are allowed.
    await jsonRpc(chain.rpcUrl, 'evm_mine')
    await jsonRpc(chain.rpcUrl, 'evm_mine')
    const id = BigInt(chain.addresses.weth)
    const before = await client.readContract({
      address: chain.addresses.poolManager,
      abi: ERC6909,
      functionName: 'balanceOf',
      args: [addresses.clanker.hook, id],
    })
    const swap = await buyAt((await latestTimestamp()) + 2, launched.poolKey, launched.token, launched.poolId)
    const after = await client.readContract({
      address: chain.addresses.poolManager,
      abi: ERC6909,
      functionName: 'balanceOf',
      args: [addresses.clanker.hook, id],
    })
    expect(after - before).toBe(clankerProtocolFeeOf(swap.wethIn, swap.poolSwap.fee))
    expect(after - before).toBeGreaterThan(0n)
  })

  it("clanker: the dynamic-fee hook as on Base (no pairedFee; the fee grows with the swap's own tick move up to maxLpFee): priced at its maximum, never below what a swap pays", async () => {
    const launched = await launchToken({ chain, addresses, launchpad: 'clanker', creator: nextCreator(), name: 'dyn', symbol: 'DYN', dynamicFee: true })
    expect(launched.poolKey.hooks).toBe(addresses.clanker.dynamicHook)
    const hookAbi = parseAbi([
      'function pairedFee(bytes32) view returns (uint24)',
      'struct C { uint24 baseFee; uint24 maxLpFee; uint256 referenceTickFilterPeriod; uint256 resetPeriod; int24 resetTickFilter; uint256 feeControlNumerator; uint24 decayFilterBps; }',
      'function poolConfigVars(bytes32) view returns (C)',
    ])
    await expect(
      client.readContract({ address: addresses.clanker.dynamicHook, abi: hookAbi, functionName: 'pairedFee', args: [launched.poolId] }),
    ).rejects.toThrow()
    const config = await client.readContract({ address: addresses.clanker.dynamicHook, abi: hookAbi, functionName: 'poolConfigVars', args: [launched.poolId] })
    // clanker-sdk's Dynamic3.
    expect([config.baseFee, config.maxLpFee, config.feeControlNumerator]).toEqual([10_000, 30_000, 250_000_000n])
    const schedule = await adapters.clanker.loadFeeSchedule(client, launched.launch)
    expect(schedule).toMatchObject({ lpFee: 30_000 })

    // Past the auction blocks and the MEV module's life (120 s): only the dynamic LP fee is left.
    await jsonRpc(chain.rpcUrl, 'evm_mine')
    await jsonRpc(chain.rpcUrl, 'evm_mine')
    const t = (await latestTimestamp()) + 200
    const small = await buyAt(t, launched.poolKey, launched.token, launched.poolId)
    // A big buy moves the tick far from the reference (reset 30 s after the last swap): a higher fee, capped.
    await setNextTimestamp(t + 40)
    const big = await swapExactUsdcForToken({ chain, token: launched.token, usdc: '20000', poolKey: launched.poolKey, prepared: false })
    expect(small.poolSwap.fee).toBeGreaterThanOrEqual(10_000)
    expect(big.poolSwap.fee).toBeGreaterThan(small.poolSwap.fee)
    for (const swap of [small.poolSwap, big.poolSwap]) expect(swap.fee).toBeLessThanOrEqual(30_000)
    // As the real hooks, the fee is written to the pool (updateDynamicLPFee), not overridden per swap: StateView reports it.
    const [, , , lpFeeNow] = await client.readContract({
      address: chain.addresses.stateView,
      abi: STATE_VIEW,
      functionName: 'getSlot0',
      args: [launched.poolId],
    })
    expect(lpFeeNow).toBe(big.poolSwap.fee)
    expect(feeAt(schedule as FeeSchedule, { number: 0n, timestamp: t + 40 })).toMatchObject({ sniperFee: 0, lpFee: 30_000 })
  })

  it('clanker: SniperAuctionV2 as on Base: plain swaps revert up to and in the auction block, a bid wins the round at the starting fee and moves the next, the decay counts from the last won round', async () => {
    const salt = `0x${'ab'.repeat(32)}` as Hex
    const options = { chain, addresses, launchpad: 'clanker' as const, creator: nextCreator(), name: 'snipe', symbol: 'SNP', salt }
    const token = await predictTokenAddress(options, salt)
    const weth = chain.addresses.weth
    const poolKey: PoolKey = {
      currency0: token.toLowerCase() < weth.toLowerCase() ? token : weth,
      currency1: token.toLowerCase() < weth.toLowerCase() ? weth : token,
      fee: DYNAMIC_FEE_FLAG,
      tickSpacing: 200,
      hooks: addresses.clanker.hook,
    }
    // A bidder (its own account: anvil drops a same-sender transaction ordered before its predecessor) pays the module
    // in WETH: it holds some and approves the module before the launch.
    const bidder: Address = '0xb1dde00000000000000000000000000000000b1d'
    const mevModule = addresses.clanker.mevModule
    await prepareDevnetTrader(chain, bidder, '100')
    await jsonRpc(chain.rpcUrl, 'eth_sendTransaction', [{ from: bidder, to: weth, value: '0x2386f26fc10000', data: toFunctionSelector('deposit()') }])
    await confirmDevnetTx(
      chain,
      await submitDevnetCall(chain, bidder, { address: weth, abi: erc20Abi, functionName: 'approve', args: [mevModule, maxUint256] }),
    )

    const t0 = (await latestTimestamp()) + 50
    await setNextTimestamp(t0)
    const launchReceipt = await confirmDevnetTx(chain, await submitLaunch(options))
    const n = launchReceipt.blockNumber
    const launchLog = launchReceipt.logs.find((l) => l.address.toLowerCase() === addresses.clanker.factory.toLowerCase())!
    const decoded = await adapters.clanker.decodeLaunch(launchLog, await loadLaunchContext(client, launchLog))
    const launch = decoded?.kind === 'launch' ? decoded.candidate : undefined
    expect(launch!.feeSources).toEqual({ hook: addresses.clanker.hook, mevModule })
    const schedule = await adapters.clanker.loadFeeSchedule(client, launch!)
    expect(schedule).toMatchObject({ kind: 'clanker_auction', nextAuctionBlock: String(n + 2n), decayFrom: t0, moduleEndsAt: t0 + 120 })
    expect(feeAt(schedule, at(t0, n + 1n)).swapsAllowed).toBe(false)
    expect(feeAt(schedule, at(t0 + 1, n + 2n)).swapsAllowed).toBe(false)
    expect(feeAt(schedule, at(t0 + 1, n + 3n)).swapsAllowed).toBe(true)

    const plainSwap = (fees?: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }) =>
      swapExactUsdcForToken({ chain, token, usdc: '10', poolKey, prepared: true, submitOnly: true, gas: 2_000_000n, ...(fees ? { fees } : {}) })
    const revertedWith = async (hash: Hex, error: string) => {
      const trace = await jsonRpc<{ output?: string }>(chain.rpcUrl, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])
      return (trace.output ?? '').includes(toFunctionSelector(error).slice(2))
    }
    // Launch + 1, in the launch's second (a sniper landing with the deployment): NotAuctionBlock.
    await setNextTimestamp(t0)
    const snipe = await plainSwap()
    expect((await confirmDevnetTx(chain, snipe.txHash, { allowRevert: true })).status).toBe('reverted')
    expect(await revertedWith(snipe.txHash, 'NotAuctionBlock()')).toBe(true)

    // Launch + 2, the auction block: a plain swap reverts (no payer in its hook data; its higher tip orders it first); a
    // bid naming its payer, with a gas price above the round's peg, wins the round and swaps at the starting fee.
    const bidData = auctionHookData(bidder)
    await setNextTimestamp(t0 + 1)
    const plainInAuction = await plainSwap({ maxFeePerGas: 300_000_000_000n, maxPriorityFeePerGas: 100_000_000_000n })
    const bid = await swapExactUsdcForToken({
      chain,
      token,
      trader: bidder,
      usdc: '10',
      poolKey,
      prepared: true,
      submitOnly: true,
      gas: 2_000_000n,
      hookData: bidData,
      fees: { maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 50_000_000_000n },
    })
    const plainReceipt = await confirmDevnetTx(chain, plainInAuction.txHash, { allowRevert: true })
    expect(plainReceipt.blockNumber).toBe(n + 2n)
    expect(plainReceipt.status).toBe('reverted')
    expect(await revertedWith(plainInAuction.txHash, 'NotAuctionBlock()')).toBe(false)
    // The executor names such a silent revert gating from the module's state before the block (settle-buys.ts): the
    // auction block and the one before it are gated; a contract without the module's getter gates nothing.
    const reads = createExecutorChainReads({ chains: { base: chain } as never, clients: { base: client } as never, buyRouters: {} as never, stage: () => {} })
    expect(await reads.auctionBlock('base', mevModule, launch!.poolId, n + 1n)).toBe(true)
    expect(await reads.auctionBlock('base', mevModule, launch!.poolId, n + 2n)).toBe(true)
    expect(await reads.auctionBlock('base', addresses.clanker.hook, launch!.poolId, n + 2n)).toBe(false)
    // Mined with it (confirming it again would mine another block).
    const bidReceipt = await client.getTransactionReceipt({ hash: bid.txHash })
    expect(bidReceipt.status).toBe('success')
    expect(bidReceipt.blockNumber).toBe(n + 2n)
    expect(findPoolSwap(bidReceipt.logs, chain.addresses.poolManager)?.fee).toBe(DEVNET_LAUNCH_DEFAULTS.clanker.startFee)
    const won = parseEventLogs({
      abi: parseAbi(['event AuctionWon(bytes32 indexed poolId, address indexed payee, uint256 paymentAmount, uint256 round)']),
      logs: bidReceipt.logs.filter((l) => l.address.toLowerCase() === mevModule.toLowerCase()),
    })
    expect(won).toHaveLength(1)
    expect(won[0]!.args).toMatchObject({ poolId: launch!.poolId, payee: getAddress(bidder), round: 1n })
    expect(won[0]!.args.paymentAmount).toBeGreaterThan(0n)

    // The schedule read again as of that block: the next auction is 2 blocks on; unbid, the decay counts from the won round.
    const refresh = adapters.clanker.refreshFeeSchedule!
    const recorded = { poolId: launch!.poolId, feeSources: launch!.feeSources, feeSchedule: schedule }
    const afterWin = await refresh(client, recorded, { number: n + 2n, timestamp: BigInt(t0 + 1) })
    expect(afterWin).toEqual({ ...schedule, nextAuctionBlock: String(n + 4n), decayFrom: t0 + 1 })
    expect(feeAt(afterWin, at(t0 + 2, n + 3n)).swapsAllowed).toBe(false)
    expect(scheduleNeedsRefresh(afterWin, at(t0 + 2, n + 3n))).toBe(true)
    await setNextTimestamp(t0 + 2)
    const between = await plainSwap()
    expect((await confirmDevnetTx(chain, between.txHash, { allowRevert: true })).status).toBe('reverted')
    expect(await revertedWith(between.txHash, 'NotAuctionBlock()')).toBe(true)

    // Launch + 4 passes unbid; launch + 5 buys at the fee decayed from the won round's time.
    await setNextTimestamp(t0 + 3)
    await jsonRpc(chain.rpcUrl, 'evm_mine')
    const unbid = await refresh(client, { ...recorded, feeSchedule: afterWin }, { number: n + 4n, timestamp: BigInt(t0 + 3) })
    expect(unbid).toEqual(afterWin)
    expect(scheduleNeedsRefresh(unbid, at(t0 + 4, n + 5n))).toBe(true)
    expect(scheduleNeedsRefresh(unbid, at(t0 + 5, n + 6n))).toBe(false)
    const open = await buyAt(t0 + 4, poolKey, token, launch!.poolId)
    expect(open.blockNumber).toBe(n + 5n)
    await expectSwapPaysSchedule(open, unbid, poolKey, 'clanker')
    expect(open.poolSwap.fee).toBe(clankerAuctionDecayFeeAt(unbid as ClankerAuctionSchedule, t0 + 4))
    expect(open.poolSwap.fee).toBeGreaterThan(clankerAuctionDecayFeeAt(schedule as ClankerAuctionSchedule, t0 + 4))
    // The won round moved the gating to n + 4; the block after it is open.
    expect(await reads.auctionBlock('base', mevModule, launch!.poolId, n + 4n)).toBe(true)
    expect(await reads.auctionBlock('base', mevModule, launch!.poolId, n + 5n)).toBe(false)
  })

  it('Doppler as on Base: Create names the asset as poolOrHook, NoOp governance, a five-field schedule getter; a Dutch-auction Create is unsupported', async () => {
    const creator = nextCreator()
    const launched = await launchToken({ chain, addresses, launchpad: 'doppler', creator, name: 'multicurve', symbol: 'MC' })
    const receipt = await client.getTransactionReceipt({ hash: launched.txHash })
    const createLog = receipt.logs.find((l) => l.address.toLowerCase() === addresses.doppler.airlock.toLowerCase())!
    const create = decodeEventLog({ abi: adapters.doppler.launchEvent.events, data: createLog.data, topics: createLog.topics })
    expect((create.args as { poolOrHook: Address }).poolOrHook).toBe(launched.token)
    // NoOp governance: the asset data names nobody, so the launch claims no creator; the sender is the deployer.
    const assetData = await client.readContract({
      address: addresses.doppler.airlock,
      abi: parseAbi(['function getAssetData(address) view returns (address, address, address, address, address, address, address, uint256, uint256, address)']),
      functionName: 'getAssetData',
      args: [launched.token],
    })
    expect([assetData[1], assetData[2], assetData[5]]).toEqual([
      '0x000000000000000000000000000000000000dEaD',
      '0x000000000000000000000000000000000000dEaD',
      launched.token,
    ])
    expect(launched.launch.claimedCreators).toEqual([])
    expect(launched.launch.deployer).toBe(getAddress(creator))
    // The getter (five values) gives the schedule the launch log announced.
    const { scheduleFromLogs, ...withoutLog } = launched.launch
    expect(scheduleFromLogs).toBeDefined()
    expect(await adapters.doppler.loadFeeSchedule(client, withoutLog)).toEqual(scheduleFromLogs)
    // The Dutch-auction initializer returns its hook as poolOrHook: recognised as Doppler's, not bought.
    // Create's data: asset, initializer, poolOrHook (32-byte words); the last word becomes the hook.
    const dutch = { ...createLog, data: `${createLog.data.slice(0, -40)}${addresses.doppler.hook.slice(2).toLowerCase()}` as Hex }
    expect(dutch.data).not.toBe(createLog.data)
    const decoded = await adapters.doppler.decodeLaunch(dutch, await loadLaunchContext(client, createLog))
    expect(decoded).toMatchObject({ kind: 'unsupported', launch: { token: launched.token }, reason: expect.stringContaining('Dutch-auction') })
  })

  it('Zora as on Base: a content coin pairs with native ETH or ZORA (CoinCreatedV4), a creator coin with ZORA (CreatorCoinCreated); without a ZORA route they are unsupported', async () => {
    const route = addresses.zora.route
    // The devnet's ZORA market: ETH/ZORA, 0.3%, priced at DEVNET_ZORA_PER_ETH.
    const slot0 = await client.readContract({
      address: chain.addresses.stateView,
      abi: parseAbi(['function getSlot0(bytes32) view returns (uint160, int24, uint24, uint24)']),
      functionName: 'getSlot0',
      args: [poolIdOf(route.ethPool)],
    })
    expect(Number(slot0[0]) ** 2 / 2 ** 192).toBeCloseTo(Number(DEVNET_ZORA_PER_ETH), -2)
    for (const [options, eventName] of [
      [{ paired: 'zora' as const }, 'CoinCreatedV4'],
      [{ creatorCoin: true }, 'CreatorCoinCreated'],
    ] as const) {
      const creator = nextCreator()
      const launched = await launchToken({ chain, addresses, launchpad: 'zora', creator, name: eventName, symbol: 'ZC', ...options })
      expect(launched.launch.paired).toEqual({ kind: 'zora', address: route.zora, bridge: [route.ethPool] })
      expect(launched.launch.deployer).toBe(getAddress(creator))
      expect(launched.launch.claimedCreators).toEqual([getAddress(creator)])
      const receipt = await client.getTransactionReceipt({ hash: launched.txHash })
      const log = receipt.logs.find((l) => isAddressEqual(l.address, addresses.zora.factory))!
      expect(decodeEventLog({ abi: adapters.zora.launchEvent.events, data: log.data, topics: log.topics }).eventName).toBe(eventName)
      // A daemon with no ZORA route (Base without launches.zoraEthPool) sees the launch and says why it cannot buy it.
      const withoutRoute = createLaunchpadAdapters({ ...devnetAdapterOptions(chain.addresses, addresses), zora: { factory: addresses.zora.factory } }).zora
      expect(await withoutRoute.decodeLaunch(log, await loadLaunchContext(client, log))).toMatchObject({
        kind: 'unsupported',
        launch: { token: launched.token },
        reason: expect.stringContaining('no ZORA route is configured'),
      })
    }
    // A coin whose currency is no Zora coin (it answers neither getPoolKey nor currency: here the stablecoin, patched
    // into a real log's first data word) has no route: unsupported, with the reason.
    const ethCoin = await launchToken({ chain, addresses, launchpad: 'zora', creator: nextCreator(), name: 'plain', symbol: 'PL' })
    const ethReceipt = await client.getTransactionReceipt({ hash: ethCoin.txHash })
    const ethLog = ethReceipt.logs.find((l) => isAddressEqual(l.address, addresses.zora.factory))!
    const patched = { ...ethLog, data: `0x${chain.addresses.stablecoin.slice(2).toLowerCase().padStart(64, '0')}${ethLog.data.slice(66)}` as Hex }
    expect(await adapters.zora.decodeLaunch(patched, await loadLaunchContext(client, ethLog))).toMatchObject({
      kind: 'unsupported',
      reason: expect.stringContaining('neither ETH, ZORA nor a ZORA-paired coin'),
    })
    // The factory refuses any other currency, as the real one's pool configuration does.
    const error = await launchToken({ chain, addresses, launchpad: 'zora', creator: nextCreator(), name: 'w', symbol: 'W', paired: 'weth' }).catch(
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ code: 'invalid_launch_pair' })
  })

  // Two rehype deployments at their Base addresses (src/launchpads/doppler/rehype-deployments.ts): doppler-sdk 1.0.30's
  // divides by 800,000 (1.25x the announced fee), the July 2026 one by 1e6.
  it.each([
    ['sdk', 800_000],
    ['fixed', 1_000_000],
  ] as const)(
    "Doppler rehype as on Base (%s deployment, fee over %i): the schedule comes from the Doppler hook (not the pool's hook) and is taken from the output, on top of the pool's LP fee",
    async (deployment, denominator) => {
      const creator = nextCreator()
      const launched = await launchToken({
        chain,
        addresses,
        launchpad: 'doppler',
        creator,
        name: 'rehype',
        symbol: 'RH',
        rehype: true,
        rehypeDeployment: deployment,
        startFee: 500_000,
        endFee: 10_000,
        decaySeconds: 20,
      })
      const plugin = deployment === 'sdk' ? addresses.doppler.rehypeHook : addresses.doppler.rehypeHookFixed
      expect(plugin).toBe(deployment === 'sdk' ? BASE_REHYPE_SDK_HOOK : BASE_REHYPE_FIXED_HOOK)
      const receipt = await client.getTransactionReceipt({ hash: launched.txHash })
      const createLog = receipt.logs.find((l) => isAddressEqual(l.address, addresses.doppler.airlock))!
      const create = decodeEventLog({ abi: adapters.doppler.launchEvent.events, data: createLog.data, topics: createLog.topics }).args as {
        initializer: Address
        poolOrHook: Address
      }
      expect([create.initializer, create.poolOrHook]).toEqual([addresses.doppler.rehypeInitializer, launched.token])
      expect(launched.poolKey.hooks).toBe(addresses.doppler.rehypeInitializer)
      expect(launched.poolKey.fee).toBe(DYNAMIC_FEE_FLAG)
      const announced = parseEventLogs({
        abi: parseAbi(['event FeeScheduleSet(bytes32 indexed poolId, uint32 startingTime, uint24 startFee, uint24 endFee, uint32 durationSeconds)']),
        logs: receipt.logs,
      })
      expect(announced.map((l) => getAddress(l.address))).toEqual([plugin])
      expect(launched.launch.feeSources).toEqual({ hook: addresses.doppler.rehypeInitializer, dopplerHook: plugin })
      // The initializer's own ModifyLiquidity for the launch's liquidity, as the real one's afterAddLiquidity emits.
      const modified = parseEventLogs({
        abi: parseAbi([
          'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
          'struct ModifyLiquidityParams { int24 tickLower; int24 tickUpper; int256 liquidityDelta; bytes32 salt; }',
          'event ModifyLiquidity(PoolKey key, ModifyLiquidityParams params)',
        ]),
        logs: receipt.logs,
      })
      expect(modified.map((l) => getAddress(l.address))).toEqual([addresses.doppler.rehypeInitializer])
      const schedule = (await adapters.doppler.loadFeeSchedule(client, launched.launch)) as LinearSchedule
      expect(schedule).toMatchObject({ kind: 'linear', startFee: 500_000, endFee: 10_000, durationSeconds: 20, poolLpFee: 7_000 })
      expect(schedule.hookFeeDenominator ?? 1_000_000).toBe(denominator)
      // Without the launch logs the adapter reads the rehype getter (five fields) and gets the same schedule.
      const { scheduleFromLogs: _announced, ...withoutLog } = launched.launch
      expect(await adapters.doppler.loadFeeSchedule(client, withoutLog)).toEqual(schedule)

      // Swaps during and after the decay: the pool charges 0.7% on the input, the hook takes fee/denominator of the output.
      for (const offset of [5, 30]) {
        const ts = schedule.startTime + offset
        const before = await client.readContract({ address: launched.token, abi: erc20Abi, functionName: 'balanceOf', args: [DEVNET_TRADER] })
        const swap = await buyAt(ts, launched.poolKey, launched.token, launched.poolId)
        const received = (await client.readContract({ address: launched.token, abi: erc20Abi, functionName: 'balanceOf', args: [DEVNET_TRADER] })) - before
        expect(swap.poolSwap.fee).toBe(7_000)
        // The initializer reports every swap with its own Swap event, as the real one.
        const swapReceipt = await client.getTransactionReceipt({ hash: swap.txHash })
        expect(swapReceipt.logs.filter((l) => isAddressEqual(l.address, addresses.doppler.rehypeInitializer))).toHaveLength(1)
        const gross = launched.launch.tokenIsCurrency0 ? swap.poolSwap.amount0 : swap.poolSwap.amount1
        const quote = feeAt(schedule, { number: swap.blockNumber, timestamp: ts })
        expect(quote).toMatchObject({ lpFee: 7_000, sniperFee: offset < 20 ? linearFeeAt(schedule, ts) : 0 })
        expect(received).toBe(gross - (gross * BigInt(linearFeeAt(schedule, ts))) / BigInt(denominator))
        expect(quote.totalFraction).toBeCloseTo(1 - (1 - 0.007) * (1 - linearFeeAt(schedule, ts) / denominator), 12)
        // The formula is the swap: the tokens kept over a zero-fee swap of the same input (10 USDC: tiny impact).
        const zeroFeeOut = exactInputSingleRange({
          sqrtPriceX96: swap.sqrtBefore,
          liquidity: swap.poolSwap.liquidity,
          amountIn: swap.wethIn,
          feePips: 0,
          zeroForOne: !launched.launch.tokenIsCurrency0,
        })
        expect(1 - Number((received * 10n ** 12n) / zeroFeeOut) / 1e12).toBeCloseTo(quote.totalFraction, 3)
      }
    },
  )

  // DopplerHookInitializer without a plugin (src/initializers/DopplerHookInitializer.sol: the key's fee is the static
  // LP fee; nothing announces a schedule): priced at its LP fee, never quarantined.
  it('Doppler static-fee pool as on Base: no schedule announced, the key carries the LP fee, a swap pays exactly it', async () => {
    const launched = await launchToken({ chain, addresses, launchpad: 'doppler', creator: nextCreator(), name: 'static', symbol: 'ST', staticFee: 10_000 })
    expect(launched.poolKey).toMatchObject({ hooks: addresses.doppler.rehypeInitializer, fee: 10_000 })
    const receipt = await client.getTransactionReceipt({ hash: launched.txHash })
    const announced = parseEventLogs({
      abi: parseAbi(['event FeeScheduleSet(bytes32 indexed poolId, uint32 startingTime, uint24 startFee, uint24 endFee, uint32 durationSeconds)']),
      logs: receipt.logs,
    })
    expect(announced).toEqual([])
    expect(launched.launch.feeSources).toEqual({ hook: addresses.doppler.rehypeInitializer })
    const schedule = await adapters.doppler.loadFeeSchedule(client, launched.launch)
    expect(schedule).toEqual({ kind: 'linear', startTime: launched.launch.launchedAt, startFee: 10_000, endFee: 10_000, durationSeconds: 0 })
    const swap = await buyAt((await latestTimestamp()) + 1, launched.poolKey, launched.token, launched.poolId)
    await expectSwapPaysSchedule(swap, schedule, launched.poolKey, 'doppler')
    expect(feeAt(schedule, at(swap.timestamp))).toMatchObject({ lpFee: 10_000, sniperFee: 0, totalFraction: 0.01, swapsAllowed: true })
  })

  // SwapRestrictorDopplerHook (src/dopplerHooks/SwapRestrictorDopplerHook.sol): a buy passes only when the swap's
  // sender, the PoolManager's caller (the router), has an allowance from the launch.
  it('Doppler swap-restrictor pool: unsupported with the reason; a buy through the router reverts unless the router itself was approved', async () => {
    const hash = await submitLaunch({
      chain,
      addresses,
      launchpad: 'doppler',
      creator: nextCreator(),
      name: 'restricted',
      symbol: 'RS',
      swapRestrictor: { approved: [nextCreator()], maxAmount: 10n ** 24n },
    })
    const receipt = await confirmDevnetTx(chain, hash)
    const decoded = await decodeOwnLaunch(chain, addresses, 'doppler', receipt)
    expect(decoded).toMatchObject({ kind: 'unsupported', reason: expect.stringContaining('SwapRestrictorDopplerHook') })
    if (decoded.kind !== 'unsupported') throw new Error('expected an unsupported launch')
    expect(decoded.reason).toContain('InsufficientAmountLeft')
    const token = decoded.launch.token
    const pool = findInitializedPoolsIn(receipt.logs, token)
    await expect(swapExactUsdcForToken({ chain, token, usdc: '10', poolKey: pool.poolKey, prepared: true })).rejects.toThrow()
    // Approving the router the buy goes through (the swap's sender) lets it in: the imitation checks the real sender.
    const router = chain.addresses.universalRouter
    const approvedHash = await submitLaunch({
      chain,
      addresses,
      launchpad: 'doppler',
      creator: nextCreator(),
      name: 'restricted2',
      symbol: 'RS2',
      swapRestrictor: { approved: [router], maxAmount: 10n ** 30n },
    })
    const approvedReceipt = await confirmDevnetTx(chain, approvedHash)
    const approved = await decodeOwnLaunch(chain, addresses, 'doppler', approvedReceipt)
    if (approved.kind !== 'unsupported') throw new Error('expected an unsupported launch')
    const approvedPool = findInitializedPoolsIn(approvedReceipt.logs, approved.launch.token)
    const bought = await swapExactUsdcForToken({ chain, token: approved.launch.token, usdc: '10', poolKey: approvedPool.poolKey, prepared: true })
    expect(bought.tokensOut).toBeGreaterThan(0n)
  })

  // DopplerERC20V1 (src/tokens/DopplerERC20V1.sol): no holder outside the exclusions above maxBalanceLimit until
  // balanceLimitEnd; the launch is gated until then.
  // v4-core Pool.swap: swapFee = protocolFee + lpFee - protocolFee * lpFee / 1e6 once the controller sets a protocol fee
  // (ProtocolFees.setProtocolFee; pools start at 0). The Swap event reports the swap fee; the quote includes it.
  it('the v4 protocol fee: a pool whose controller set one charges protocolFee + lpFee - product/1e6, and the quote with the slot0 fee says so', async () => {
    const launched = await launchToken({ chain, addresses, launchpad: 'doppler', creator: nextCreator(), name: 'protocol', symbol: 'PF', staticFee: 10_000 })
    const buyIsZeroForOne = !launched.launch.tokenIsCurrency0
    // 1,000 pips on buys, 300 on sells, packed as slot0 holds them (oneForZero << 12 | zeroForOne).
    const packed = buyIsZeroForOne ? (300 << 12) | 1_000 : (1_000 << 12) | 300
    const updated = await client.getTransactionReceipt({ hash: await setDevnetProtocolFee(chain, launched.poolKey, packed) })
    expect(updated.logs.map(decodeProtocolFeeUpdated)).toEqual([{ poolId: launched.poolId, protocolFee: packed }])
    const [, , slot0ProtocolFee] = await client.readContract({
      address: chain.addresses.stateView,
      abi: STATE_VIEW,
      functionName: 'getSlot0',
      args: [launched.poolId],
    })
    expect(slot0ProtocolFee).toBe(packed)
    const schedule = {
      ...(await adapters.doppler.loadFeeSchedule(client, launched.launch)),
      protocolFee: buyProtocolFee(packed, launched.launch.tokenIsCurrency0),
    }
    expect(schedule.protocolFee).toBe(1_000)
    const swap = await buyAt((await latestTimestamp()) + 1, launched.poolKey, launched.token, launched.poolId)
    const swapFee = v4SwapFeePips(1_000, 10_000)
    expect(swap.poolSwap.fee).toBe(swapFee)
    const poolInput = -(buyIsZeroForOne ? swap.poolSwap.amount0 : swap.poolSwap.amount1)
    expect(swap.tokensOut).toBe(
      exactInputSingleRange({
        sqrtPriceX96: swap.sqrtBefore,
        liquidity: swap.poolSwap.liquidity,
        amountIn: poolInput,
        feePips: swapFee,
        zeroForOne: buyIsZeroForOne,
      }),
    )
    const quote = feeAt(schedule, at(swap.timestamp))
    expect(quote.lpFee).toBe(10_000)
    expect(quote.totalFraction).toBeCloseTo(swapFee / 1e6, 12)
    const zeroFeeOut = exactInputSingleRange({
      sqrtPriceX96: swap.sqrtBefore,
      liquidity: swap.poolSwap.liquidity,
      amountIn: swap.wethIn,
      feePips: 0,
      zeroForOne: buyIsZeroForOne,
    })
    expect(1 - Number((swap.tokensOut * 10n ** 12n) / zeroFeeOut) / 1e12).toBeCloseTo(quote.totalFraction, 3)
  })

  it('Doppler DopplerERC20V1 asset: gated until its balance limit ends; a buy over the limit reverts before, passes after', async () => {
    const endsAt = (await latestTimestamp()) + 100
    const launched = await launchToken({
      chain,
      addresses,
      launchpad: 'doppler',
      creator: nextCreator(),
      name: 'limited',
      symbol: 'LIM',
      staticFee: 10_000,
      balanceLimit: { maxBalance: 10n ** 18n, endsAt },
    })
    const limits = parseAbi([
      'function isBalanceLimitActive() view returns (bool)',
      'function balanceLimitEnd() view returns (uint48)',
      'function maxBalanceLimit() view returns (uint256)',
    ])
    expect(await client.readContract({ address: launched.token, abi: limits, functionName: 'balanceLimitEnd' })).toBe(endsAt)
    const schedule = await adapters.doppler.loadFeeSchedule(client, launched.launch)
    expect(schedule).toMatchObject({ kind: 'linear', startFee: 10_000, swapsFrom: endsAt })
    expect(feeAt(schedule, at(endsAt - 1)).swapsAllowed).toBe(false)
    expect(feeAt(schedule, at(endsAt)).swapsAllowed).toBe(true)
    // 10 USDC buys far more than 1 token: reverts before the end (BalanceLimitExceeded), passes at the end.
    await setNextTimestamp(endsAt - 50)
    await expect(swapExactUsdcForToken({ chain, token: launched.token, usdc: '10', poolKey: launched.poolKey, prepared: true })).rejects.toThrow()
    const swap = await buyAt(endsAt, launched.poolKey, launched.token, launched.poolId)
    expect(swap.tokensOut).toBeGreaterThan(10n ** 18n)
    expect(await client.readContract({ address: launched.token, abi: limits, functionName: 'isBalanceLimitActive' })).toBe(false)
  })

  // Zora 2.6.0 trend coins (ZoraFactoryImpl._createAndInitializeTrendCoin, ZoraV4CoinHook._calculateLaunchFee):
  // permissionless, one per ticker, ZORA-paired; the launch fee decays toward 1% and then charges 0.01%.
  it('Zora trend coin as on Base: TrendCoinCreated decoded (caller the deployer, the ticker its name), priced at the hook fee, 0.01% after the launch fee', async () => {
    const sender = nextCreator()
    const launched = await launchToken({ chain, addresses, launchpad: 'zora', creator: sender, name: 'unused', symbol: 'TRND', trendCoin: true })
    const receipt = await client.getTransactionReceipt({ hash: launched.txHash })
    const [created] = parseEventLogs({ abi: [ZORA_TREND_COIN_CREATED], logs: receipt.logs })
    expect(created).toMatchObject({ address: addresses.zora.factory.toLowerCase(), args: { caller: getAddress(sender), symbol: 'TRND', coin: launched.token } })
    expect(launched.launch).toMatchObject({ deployer: getAddress(sender), symbol: 'TRND', name: 'TRND', claimedCreators: [], paired: { kind: 'zora' } })
    // A second trend coin of the same ticker cannot exist: its address is the ticker's.
    await expect(launchToken({ chain, addresses, launchpad: 'zora', creator: nextCreator(), name: 'again', symbol: 'TRND', trendCoin: true })).rejects.toThrow()
    const schedule = (await adapters.zora.loadFeeSchedule(client, launched.launch)) as LinearSchedule
    expect(schedule).toMatchObject({ startFee: 990_000, endFee: 10_000, durationSeconds: 10, floorFee: 100 })
    const hookFee = parseAbi(['function feeAt(bytes32 poolId, uint256 timestamp) view returns (uint24)'])
    for (const offset of [0, 1, 5, 9, 10, 11, 100]) {
      const ts = schedule.startTime + offset
      const charged = await client.readContract({ address: addresses.zora.hook, abi: hookFee, functionName: 'feeAt', args: [launched.poolId, BigInt(ts)] })
      expect(linearFeeAt(schedule, ts)).toBe(charged)
      expect(feeAt(schedule, at(ts)).lpFee).toBe(charged)
    }
    expect(feeAt(schedule, at(schedule.startTime + 10))).toMatchObject({ lpFee: 100, sniperFee: 0, totalFraction: 0.0001 })
  })

  it('adapters ignore logs that are not their launches', async () => {
    const launched = await launchToken({ chain, addresses, launchpad: 'zora', creator: nextCreator(), name: 'z', symbol: 'Z' })
    const receipt = await client.getTransactionReceipt({ hash: launched.txHash })
    const zoraLog = receipt.logs.find((l) => l.address.toLowerCase() === addresses.zora.factory.toLowerCase())!
    const ctx = await loadLaunchContext(client, zoraLog)
    expect(await adapters.clanker.decodeLaunch(zoraLog, ctx)).toBeNull()
    expect(await adapters.doppler.decodeLaunch(zoraLog, ctx)).toBeNull()
    const transferLog = receipt.logs.find((l) => l.address.toLowerCase() === launched.token.toLowerCase())!
    expect(await adapters.zora.decodeLaunch(transferLog, ctx)).toBeNull()
  })

  it('the third-party buy finds the pool by itself and enforces a minimum out on-chain', async () => {
    const launched = await launchToken({ chain, addresses, launchpad: 'doppler', creator: nextCreator(), name: 'min', symbol: 'MIN' })
    await setNextTimestamp((await latestTimestamp()) + 30)
    const ok = await swapExactUsdcForToken({ chain, token: launched.token, usdc: '5', prepared: true })
    expect(ok.tokensOut).toBeGreaterThan(0n)
    // Asking for more than the pool can give (the buyer's limit) makes the whole buy revert and spend nothing.
    const before = await client.readContract({ address: chain.addresses.stablecoin, abi: erc20Abi, functionName: 'balanceOf', args: [DEVNET_TRADER] })
    const tooMuch = await swapExactUsdcForToken({
      chain,
      token: launched.token,
      usdc: '5',
      prepared: true,
      minTokensOut: ok.tokensOut * 2n,
      submitOnly: true,
      gas: 2_000_000n,
    })
    expect((await confirmDevnetTx(chain, tooMuch.txHash, { allowRevert: true })).status).toBe('reverted')
    const after = await client.readContract({ address: chain.addresses.stablecoin, abi: erc20Abi, functionName: 'balanceOf', args: [DEVNET_TRADER] })
    expect(after).toBe(before)
  })

  it('deploys with automine paused for its pipelined transactions (anvil can strand one of a burst), automine on again after', async () => {
    await devnet.setBlockTime('auto')
    try {
      const deployer = devnet.accounts[8]!.account
      const startBlock = await client.getBlockNumber()
      const third = await deployDevnetLaunchpads(chain, deployer)
      expect(await devnetLaunchpadsExist(chain, third)).toBe(true)
      // Every one of the deployer's transactions (dozens) in one or two blocks mined by hand, not a block each.
      const landed: bigint[] = []
      for (let n = startBlock + 1n; n <= (await client.getBlockNumber()); n++) {
        const block = await client.getBlock({ blockNumber: n, includeTransactions: true })
        if (block.transactions.some((tx) => tx.from.toLowerCase() === deployer.address.toLowerCase())) landed.push(n)
      }
      expect(landed.length).toBeGreaterThan(0)
      expect(landed.length).toBeLessThanOrEqual(2)
      expect(await jsonRpc<boolean>(chain.rpcUrl, 'anvil_getAutomine')).toBe(true)
    } finally {
      await devnet.setBlockTime('manual')
    }
  })

  it('deploys in one or two blocks even with interval mining (all transactions pipelined)', async () => {
    // 10 s blocks: sending the whole pipelined set takes well under a second on an idle machine but over one second at a
    // load of ~30 (observed with 1 s blocks: three blocks). What is claimed is that no transaction waits for another's
    // block, so the interval only has to be long against the sending time, not short.
    await devnet.setBlockTime(10)
    try {
      const deployer = devnet.accounts[7]!.account.address.toLowerCase()
      const startBlock = await client.getBlockNumber()
      const second = await deployDevnetLaunchpads(chain, devnet.accounts[7]!.account)
      const endBlock = await client.getBlockNumber()
      expect(await devnetLaunchpadsExist(chain, second)).toBe(true)
      // A second set: new hooks and modules; the factories are constructed again at their Base addresses.
      expect(second.clanker.hook).not.toBe(addresses.clanker.hook)
      expect(second.clanker.factory).toBe(addresses.clanker.factory)
      // The blocks the deployer's transactions landed in (not the wall-clock blocks the whole call took: mining the hook
      // salts first takes seconds of CPU on a busy machine, while interval mining goes on).
      const landed: bigint[] = []
      for (let n = startBlock + 1n; n <= endBlock; n++) {
        const block = await client.getBlock({ blockNumber: n, includeTransactions: true })
        if (block.transactions.some((tx) => tx.from.toLowerCase() === deployer)) landed.push(n)
      }
      expect(landed.length).toBeGreaterThan(0)
      expect(landed[landed.length - 1]! - landed[0]!).toBeLessThanOrEqual(1n)
    } finally {
      await devnet.setBlockTime('manual')
    }
  })
})

describe('dev-buy pricing against the devnet Clanker DevBuy extension', () => {
  // The service's dev buy is priced before the deployment from the positions it will place; the buy the extension makes
  // inside the deployment must get exactly what quoteDevBuy said, to the wei, and leave the pool at the same price.
  it('quoteDevBuy over the launch pool equals the tokens and the price of the dev buy made inside the deployment', async () => {
    const devBuyWei = 3n * 10n ** 17n
    const launched = await launchToken({ chain, addresses, launchpad: 'clanker', creator: nextCreator(), name: 'quoted', symbol: 'QTD', devBuyWei })
    const receipt = await client.getTransactionReceipt({ hash: launched.txHash })
    const poolEvents = parseEventLogs({
      abi: [
        ...POOL_MANAGER_EVENTS,
        ...parseAbi([
          'event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
        ]),
      ],
      logs: receipt.logs.filter((l) => isAddressEqual(l.address, chain.addresses.poolManager)),
    }).filter((l) => l.args.id === launched.poolId)
    const init = poolEvents.find((l) => l.eventName === 'Initialize')!.args as { sqrtPriceX96: bigint; tick: number; tickSpacing: number }
    const positions = poolEvents.flatMap((l) =>
      l.eventName === 'ModifyLiquidity' ? [{ tickLower: l.args.tickLower, tickUpper: l.args.tickUpper, liquidity: l.args.liquidityDelta as bigint }] : [],
    )
    const swap = poolEvents.find((l) => l.eventName === 'Swap')!.args as { sqrtPriceX96: bigint; fee: number }
    const [devBuy] = parseEventLogs({
      abi: parseAbi(['event EthDevBuy(address indexed token, address indexed user, uint256 ethAmount, uint256 tokenAmount)']),
      logs: receipt.logs,
    })
    expect(positions.length).toBeGreaterThan(0)
    // The pool the service computes from the deployment's config (before deploying) is the pool the chain got.
    const created = parseEventLogs({ abi: [CLANKER_TOKEN_CREATED], logs: receipt.logs })[0]!.args
    const tokenIsCurrency0 = isAddressEqual(launched.poolKey.currency0, launched.token)
    const totalSupply = await client.readContract({ address: launched.token, abi: erc20Abi, functionName: 'totalSupply' })
    const computed = clankerLaunchPool({
      tickIfToken0IsClanker: created.startingTick,
      tickSpacing: init.tickSpacing,
      // The devnet factory's locker config: one position from the start to the last usable tick, the whole supply.
      positions: [{ tickLower: created.startingTick, tickUpper: maxUsableTick(init.tickSpacing), bps: 10_000 }],
      poolSupply: totalSupply - created.extensionsSupply,
      tokenIsCurrency0,
    })
    expect(computed).toEqual({ sqrtPriceX96: init.sqrtPriceX96, tick: init.tick, tickSpacing: init.tickSpacing, positions })

    const quote = quoteDevBuy(
      {
        pool: computed,
        tokenIsCurrency0,
        lpFeePips: swap.fee,
        hookInputFee: (paired) => clankerProtocolFeeOf(paired, swap.fee),
        totalFee: clankerTotalFeeFraction(swap.fee),
        totalSupply,
        // Priced in wei here: the paired asset is the input, at 1 "stablecoin atom" per wei.
        stableToPaired: (wei) => wei,
        pairedUsd: fraction(1n),
      },
      devBuyWei,
    )!
    expect(swap.fee).toBe(10_000) // the LP fee: MEV modules start after extensions run
    expect(quote.tokensOut).toBe(devBuy!.args.tokenAmount)
    expect(quote.sqrtPriceX96After).toBe(swap.sqrtPriceX96)
  })
})

describe('launchToken input checks', () => {
  it.each([
    ['clanker', { startFee: 800_001 }],
    ['doppler', { startFee: 900_001 }],
    ['zora', { startFee: 1_000_001 }],
    ['zora', { startFee: 10_000, endFee: 20_000 }],
    // A valid schedule, but Zora's launch fee is fixed by its hook.
    ['zora', { startFee: 500_000 }],
    ['doppler', { decaySeconds: 0 }],
    ['clanker', { startFee: 1.5 }],
  ] as const)('%s refuses %o with a typed error before sending anything', async (launchpad, fees) => {
    const error = await launchToken({ chain, addresses, launchpad, creator: nextCreator(), name: 'x', symbol: 'X', ...fees }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'PrebuyError', kind: 'bad_request', code: 'invalid_launch_fee' })
  })

  it.each([
    ['clanker', { paired: 'eth' }],
    ['clanker', { paired: 'zora' }],
    ['doppler', { paired: 'zora' }],
    ['zora', { paired: 'weth' }],
    ['clanker', { creatorCoin: true }],
    ['zora', { creatorCoin: true, paired: 'eth' }],
  ] as const)('%s refuses %o (a pair or coin kind it does not launch) before sending anything', async (launchpad, options) => {
    const error = await launchToken({ chain, addresses, launchpad, creator: nextCreator(), name: 'x', symbol: 'X', ...options }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'PrebuyError', kind: 'bad_request', code: 'invalid_launch_pair' })
  })

  it.each([
    ['doppler', 1n],
    ['zora', 1n],
    ['clanker', 0n],
  ] as const)('%s refuses a dev buy of %s wei (Clanker only, positive) before sending anything', async (launchpad, devBuyWei) => {
    const error = await launchToken({ chain, addresses, launchpad, creator: nextCreator(), name: 'x', symbol: 'X', devBuyWei }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'PrebuyError', kind: 'bad_request', code: 'invalid_dev_buy' })
  })
})
