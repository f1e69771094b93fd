import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Address, decodeEventLog, erc20Abi, getAddress, parseAbi, type PublicClient, zeroAddress } from 'viem'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { startDevnet, type Devnet } from '../../devnet/chain/start-devnet.ts'
import { DEVNET_LAUNCH_DEFAULTS, deployDevnetLaunchpads } from '../../devnet/launchpads/deploy-devnet-launchpads.ts'
import { loadLaunchpadArtifact } from '../../devnet/launchpads/devnet-artifacts.ts'
import { launchToken } from '../../devnet/launchpads/launch-token.ts'
import { devnetPublicClient } from '../../devnet/launchpads/send-devnet-tx.ts'
import { DEVNET_TRADER, prepareDevnetTrader, swapExactUsdcForToken, type SwapResult } from '../../devnet/launchpads/swap-exact-usdc-for-token.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import type { Launchpad } from '../../src/domain/records.ts'
import { BASE_CLANKER_V5_FACTORY, BASE_CLANKER_V5_HOOK } from '../../src/launchpads/base-addresses.ts'
import { quoteBuyFeePips, readPoolPoint } from '../../src/launchpads/clanker-v5/read-clanker-v5-fees.ts'
import { createLaunchpadAdapters, devnetAdapterOptions, type LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import type { LaunchCandidate, LaunchpadAdapter, PoolKey } from '../../src/launchpads/launchpad-adapter.ts'
import { loadLaunchContext } from '../../src/launchpads/load-launch-context.ts'
import { feeAt } from '../../src/pricing/fee-schedule.ts'
import { type ClankerV5FeeSchedule, clankerV5FeeAt } from '../../src/pricing/schedules/clanker-v5.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import { exactInputSingleRange } from './single-range-swap.ts'

const STATE_VIEW = parseAbi(['function getSlot0(bytes32 poolId) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)'])
const ERC6909 = parseAbi(['function balanceOf(address owner, uint256 id) view returns (uint256)'])

let dataDir: string
let devnet: Devnet
let chain: ChainConfig
let client: PublicClient
let addresses: LaunchpadAddresses
let adapters: Record<Launchpad, LaunchpadAdapter>
let creatorCounter = 0

const nextCreator = (): Address => getAddress(`0xc1a5e5${(++creatorCounter).toString(16).padStart(34, '0')}`)
const setNextTimestamp = (ts: number) => jsonRpc(chain.rpcUrl, 'evm_setNextBlockTimestamp', [ts])
const latestTimestamp = async () => Number((await client.getBlock({ blockTag: 'latest' })).timestamp)

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'prebuy-clanker-v5-'))
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

interface ObservedBuy extends SwapResult {
  timestamp: number
  /** WETH (or ETH) that went into the v4 pool route: what the hook taxes. */
  pairIn: bigint
  sqrtBefore: bigint
}

/** A 10 USDC third-party buy landing in a block with timestamp `ts`. */
async function buyAt(ts: number, launch: LaunchCandidate): Promise<ObservedBuy> {
  const [sqrtBefore] = await client.readContract({ address: chain.addresses.stateView, abi: STATE_VIEW, functionName: 'getSlot0', args: [launch.poolId] })
  await setNextTimestamp(ts)
  const result = await swapExactUsdcForToken({ chain, token: launch.token, usdc: '10', poolKey: launch.poolKey, prepared: true })
  const receipt = await client.getTransactionReceipt({ hash: result.txHash })
  let pairIn = 0n
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== chain.addresses.weth.toLowerCase()) continue
    try {
      const t = decodeEventLog({ abi: erc20Abi, eventName: 'Transfer', data: log.data, topics: log.topics })
      if (t.args.from.toLowerCase() === chain.addresses.ethUsdPool.toLowerCase()) pairIn = t.args.value
    } catch {
      // a Withdrawal (the ETH route unwraps)
    }
  }
  expect(pairIn).toBeGreaterThan(0n)
  return { ...result, timestamp: ts, pairIn, sqrtBefore }
}

/** The launch as the indexer decodes it: the PoolManager's Initialize logs of the block, the adapter's filter, its decode. */
async function decodeFromChain(blockNumber: bigint) {
  const adapter = adapters.clanker_v5
  const logs = await client.getLogs({ address: adapter.launchEvent.address, events: adapter.launchEvent.events, fromBlock: blockNumber, toBlock: blockNumber })
  const ours = logs.filter((l) => adapter.isLaunchLog?.(l) ?? true)
  expect(ours).toHaveLength(1)
  return adapter.decodeLaunch(ours[0]!, await loadLaunchContext(client, ours[0]!))
}

describe('Clanker v5 on the devnet (factory and hook at their Base addresses)', () => {
  it('places the factory and the hook at their Base addresses; the hook implements the permissions its address encodes', async () => {
    expect(addresses.clankerV5).toEqual({ factory: BASE_CLANKER_V5_FACTORY, hook: BASE_CLANKER_V5_HOOK })
    // 0x2ACC: beforeInitialize | beforeAddLiquidity | beforeRemoveLiquidity | beforeSwap | afterSwap |
    // beforeSwapReturnDelta | afterSwapReturnDelta.
    expect(Number(BigInt(BASE_CLANKER_V5_HOOK) & 0x3fffn)).toBe(0x2acc)
    const permissions = await client.readContract({
      address: BASE_CLANKER_V5_HOOK,
      abi: loadLaunchpadArtifact('DevnetClankerV5Hook').abi,
      functionName: 'getHookPermissions',
    })
    expect(permissions).toMatchObject({
      beforeInitialize: true,
      afterInitialize: false,
      beforeAddLiquidity: true,
      afterAddLiquidity: false,
      beforeRemoveLiquidity: true,
      afterRemoveLiquidity: false,
      beforeSwap: true,
      afterSwap: true,
      beforeDonate: false,
      afterDonate: false,
      beforeSwapReturnDelta: true,
      afterSwapReturnDelta: true,
      afterAddLiquidityReturnDelta: false,
      afterRemoveLiquidityReturnDelta: false,
    })
  })

  const cases = [
    { paired: 'eth' as const, side: 'currency1' as const, tax: 100_000 },
    { paired: 'weth' as const, side: 'currency0' as const, tax: 30_000 },
    { paired: 'weth' as const, side: 'currency1' as const, tax: 10_000 },
  ]

  it.each(cases)(
    'paired with $paired (token as $side, tax $tax): detected by its hook, deployer from the transaction, fee measured by quote; real buys pay tax and sniper fee exactly; quote = formula every second',
    async ({ paired, side, tax }) => {
      const creator = nextCreator()
      const t0 = (await latestTimestamp()) + 100
      await setNextTimestamp(t0)
      const launched = await launchToken({
        chain,
        addresses,
        launchpad: 'clanker_v5',
        creator,
        name: 'Five',
        symbol: 'FIVE',
        paired,
        tokenSide: side,
        startFee: 990_000,
        endFee: tax,
        decaySeconds: 20,
      })
      const decoded = await decodeFromChain(launched.blockNumber)
      expect(decoded?.kind).toBe('launch')
      const launch = decoded?.kind === 'launch' ? decoded.candidate : undefined
      expect(launch).toEqual(launched.launch)
      expect(launch!.launchpad).toBe('clanker_v5')
      expect(launch!.deployer).toBe(creator)
      expect(launch!.launchedAt).toBe(t0)
      const pairAddress = paired === 'eth' ? zeroAddress : chain.addresses.weth
      expect(launch!.paired).toEqual({ kind: paired, address: getAddress(pairAddress) })
      const [currency0, currency1] = side === 'currency0' ? [launched.token, pairAddress] : [pairAddress, launched.token]
      expect(launch!.poolKey).toEqual({
        currency0: getAddress(currency0),
        currency1: getAddress(currency1),
        fee: 0,
        tickSpacing: 200,
        hooks: BASE_CLANKER_V5_HOOK,
      })
      expect(await client.readContract({ address: launch!.token, abi: erc20Abi, functionName: 'totalSupply' })).toBe(10n ** 27n)

      const schedule = (await adapters.clanker_v5.loadFeeSchedule(client, launch!)) as ClankerV5FeeSchedule
      expect(schedule).toEqual({ kind: 'clanker_v5', startTime: t0, buyTax: tax, sniperStartFee: 990_000, sniperSeconds: 20 })

      // Pricing: the real swap quoted through the real hook at each second of the sniper window and after, against the
      // formula (linear 99% -> tax over 20 s). They agree to the pip on the devnet; a disagreement on Base is what the
      // quote exists to catch.
      const pool = await readPoolPoint(client, chain.addresses.poolManager, launch!.poolId, launch!.blockNumber, !launch!.tokenIsCurrency0)
      for (const s of [0, 1, 5, 10, 19, 20, 30]) {
        const quoted = await quoteBuyFeePips(client, chain.addresses.v4Quoter, launch!, pool, t0 + s)
        expect(quoted, `second ${s}`).toBe(clankerV5FeeAt(schedule, t0 + s))
      }
      expect(clankerV5FeeAt(schedule, t0 + 10)).toBe(990_000 - Math.floor(((990_000 - tax) * 10) / 20))

      // Real buys: the hook takes the fee of that second from the input (claims of the pair token), the pool swaps the
      // rest with no LP fee, and the buyer gets exactly that.
      const pairId = BigInt(pairAddress)
      for (const s of [1, 10, 25]) {
        const claimsBefore = await client.readContract({
          address: chain.addresses.poolManager,
          abi: ERC6909,
          functionName: 'balanceOf',
          args: [BASE_CLANKER_V5_HOOK, pairId],
        })
        const buy = await buyAt(t0 + s, launch!)
        const quote = feeAt(schedule, { timestamp: t0 + s, number: 0n })
        expect(buy.poolSwap.fee).toBe(0)
        expect(quote.lpFee).toBe(0)
        const taken = (buy.pairIn * BigInt(clankerV5FeeAt(schedule, t0 + s))) / 1_000_000n
        const claimsAfter = await client.readContract({
          address: chain.addresses.poolManager,
          abi: ERC6909,
          functionName: 'balanceOf',
          args: [BASE_CLANKER_V5_HOOK, pairId],
        })
        expect(claimsAfter - claimsBefore).toBe(taken)
        const zeroForOne = !launch!.tokenIsCurrency0
        expect(-(zeroForOne ? buy.poolSwap.amount0 : buy.poolSwap.amount1)).toBe(buy.pairIn - taken)
        expect(buy.tokensOut).toBe(
          exactInputSingleRange({ sqrtPriceX96: buy.sqrtBefore, liquidity: buy.poolSwap.liquidity, amountIn: buy.pairIn - taken, feePips: 0, zeroForOne }),
        )
        expect(quote.sniperFee).toBe(s < 20 ? clankerV5FeeAt(schedule, t0 + s) : 0)
      }

      // Sells (now that buys moved the price into the range) pay the sell tax (the devnet's equals the buy tax) on their
      // pair-token output, and the sniper fee too while it lasts: the quote of a sell measures it (within a pip: the
      // fee comes off the output, the measure models it on the input).
      // At the head after the last buy (cacheTime 0: the client's cached number may still name a block before it).
      const sell = { ...launch!, tokenIsCurrency0: !launch!.tokenIsCurrency0, blockNumber: await client.getBlockNumber({ cacheTime: 0 }) }
      const sellPool = await readPoolPoint(client, chain.addresses.poolManager, launch!.poolId, sell.blockNumber, launch!.tokenIsCurrency0)
      for (const s of [5, 40]) {
        const measured = await quoteBuyFeePips(client, chain.addresses.v4Quoter, sell, sellPool, t0 + s)
        expect(Math.abs(measured - clankerV5FeeAt(schedule, t0 + s)), `sell at second ${s}`).toBeLessThanOrEqual(1)
      }
    },
  )

  it('without the sniper fee: the measured schedule is the tax alone, settled from the start', async () => {
    const launched = await launchToken({
      chain,
      addresses,
      launchpad: 'clanker_v5',
      creator: nextCreator(),
      name: 'Calm',
      symbol: 'CALM',
      startFee: 50_000,
      endFee: 50_000,
      decaySeconds: 20,
    })
    const schedule = await adapters.clanker_v5.loadFeeSchedule(client, launched.launch)
    expect(schedule).toEqual({ kind: 'clanker_v5', startTime: launched.launch.launchedAt, buyTax: 50_000, sniperStartFee: null, sniperSeconds: 20 })
    expect(feeAt(schedule, { timestamp: launched.launch.launchedAt, number: 0n })).toMatchObject({
      lpFee: 0,
      sniperFee: 0,
      totalFraction: 0.05,
      swapsAllowed: true,
    })
  })

  it('a pool initialised with another hook (a Clanker v4 launch) is no v5 launch: filtered without a receipt, not decoded', async () => {
    const v4 = await launchToken({ chain, addresses, launchpad: 'clanker', creator: nextCreator(), name: 'Four', symbol: 'FOUR' })
    const adapter = adapters.clanker_v5
    const logs = await client.getLogs({
      address: adapter.launchEvent.address,
      events: adapter.launchEvent.events,
      fromBlock: v4.blockNumber,
      toBlock: v4.blockNumber,
    })
    expect(logs.length).toBeGreaterThan(0)
    for (const log of logs) {
      expect(adapter.isLaunchLog!(log)).toBe(false)
      expect(await adapter.decodeLaunch(log, await loadLaunchContext(client, log))).toBeNull()
    }
  })

  it('refuses launch options the documentation rules out, with the reason', async () => {
    const base = { chain, addresses, launchpad: 'clanker_v5' as const, creator: nextCreator(), name: 'Bad', symbol: 'BAD' }
    for (const fees of [
      { endFee: 5_000 }, // below the 1% tax
      { endFee: 150_000 }, // above 10%
      { startFee: 500_000 }, // the sniper fee starts at 99% or is off
      { decaySeconds: 30 }, // over the documented 20 s
    ]) {
      await expect(launchToken({ ...base, ...fees })).rejects.toThrow(PrebuyError)
    }
    await expect(launchToken({ ...base, paired: 'zora' })).rejects.toThrow(/pairs with eth or weth/)
    expect(DEVNET_LAUNCH_DEFAULTS.clanker_v5).toEqual({ startFee: 990_000, endFee: 100_000, decaySeconds: 20 })
  })

  it('only the factory initialises pools with the v5 hook', async () => {
    const launched = await launchToken({ chain, addresses, launchpad: 'clanker_v5', creator: nextCreator(), name: 'Lock', symbol: 'LOCK' })
    const key: PoolKey = { ...launched.poolKey, tickSpacing: 400 }
    // Someone else initialising a pool with the v5 hook: the hook's beforeInitialize refuses (not a v5 launch).
    const initialize = parseAbi([
      'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
      'function initialize(PoolKey key, uint160 sqrtPriceX96) returns (int24)',
    ])
    await expect(
      client.simulateContract({
        account: DEVNET_TRADER,
        address: chain.addresses.poolManager,
        abi: initialize,
        functionName: 'initialize',
        args: [key, 2n ** 96n],
      }),
    ).rejects.toThrow()
  })
})
