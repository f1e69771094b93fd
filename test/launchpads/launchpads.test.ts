import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeEventLog, erc20Abi, getAddress, parseAbi, toFunctionSelector, zeroAddress, type Address, type Hex, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../src/chain/anvil/json-rpc.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { startDevnet, type Devnet } from '../../src/chain/devnet/start-devnet.ts'
import type { Launchpad } from '../../src/domain/records.ts'
import { createLaunchpadAdapters, type LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import { DEVNET_LAUNCH_DEFAULTS, deployDevnetLaunchpads, devnetLaunchpadsExist } from '../../src/launchpads/devnet/deploy-devnet-launchpads.ts'
import { launchToken, predictTokenAddress, submitLaunch } from '../../src/launchpads/devnet/launch-token.ts'
import { confirmDevnetTx, devnetPublicClient } from '../../src/launchpads/devnet/send-devnet-tx.ts'
import { DEVNET_TRADER, prepareDevnetTrader, swapExactUsdcForToken, type SwapResult } from '../../src/launchpads/devnet/swap-exact-usdc-for-token.ts'
import type { LaunchpadAdapter, PoolKey } from '../../src/launchpads/launchpad-adapter.ts'
import { loadLaunchContext } from '../../src/launchpads/load-launch-context.ts'
import { clankerProtocolFeeOf } from '../../src/pricing/fee-fraction.ts'
import { feeAt, type FeeSchedule } from '../../src/pricing/fee-schedule.ts'

/** The next block at a timestamp (these schedules depend on time only). */
const at = (timestamp: number) => ({ timestamp, number: 0n })
/** When a schedule's launch fee reaches its floor. */
const floorOf = (s: FeeSchedule): number => (s.kind === 'clanker' ? s.startTime + s.secondsToDecay : s.startTime + s.durationSeconds)
import { exactInputSingleRange } from './single-range-swap.ts'

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
  return { ...result, timestamp: ts, wethIn, sqrtBefore }
}

/** Checks a real swap against the schedule: the LP fee the pool charged, the protocol fee, and the exact tokens out. */
async function expectSwapPaysSchedule(swap: ObservedSwap, schedule: FeeSchedule, poolKey: PoolKey, launchpad: Launchpad): Promise<void> {
  const quote = feeAt(schedule, at(swap.timestamp))
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
  adapters = createLaunchpadAdapters({
    poolManager: chain.addresses.poolManager,
    weth: chain.addresses.weth,
    clanker: { factory: addresses.clanker.factory },
    doppler: { airlock: addresses.doppler.airlock },
    zora: { factory: addresses.zora.factory },
  })
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
        event: adapter.launchEvent.event,
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
      if (schedule.kind === 'clanker') {
        expect(schedule).toEqual({
          kind: 'clanker',
          startTime: t0,
          startingFee: expected.startFee,
          endingFee: expected.endFee,
          secondsToDecay: expected.decaySeconds,
          lpFee: 10_000,
        })
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
      expect(feeAt(schedule, at(t0 + 1)).sniperFee).toBeGreaterThan(0)
      const mid = await buyAt(t0 + Math.floor(expected.decaySeconds / 2), launch!.poolKey, launch!.token, launch!.poolId)
      await expectSwapPaysSchedule(mid, schedule, launch!.poolKey, launchpad)
      expect(mid.poolSwap.fee).toBeLessThan(early.poolSwap.fee)
      const late = await buyAt(floorOf(schedule) + 3, launch!.poolKey, launch!.token, launch!.poolId)
      await expectSwapPaysSchedule(late, schedule, launch!.poolKey, launchpad)
      expect(late.poolSwap.fee).toBe(launchpad === 'clanker' ? 10_000 : expected.endFee)
      expect(feeAt(schedule, at(late.timestamp)).sniperFee).toBe(0)

      const held = await client.readContract({ address: launch!.token, abi: erc20Abi, functionName: 'balanceOf', args: [DEVNET_TRADER] })
      expect(held).toBe(early.tokensOut + mid.tokensOut + late.tokensOut)
    },
  )

  it('clanker: the hook keeps 20% of the LP fee as protocol fee claims', async () => {
    const launched = await launchToken({ chain, addresses, launchpad: 'clanker', creator: nextCreator(), name: 'fee', symbol: 'FEE' })
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

  it('clanker: a swap in the deployment second reverts; the next second it goes through', async () => {
    const t0 = (await latestTimestamp()) + 50
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
    await setNextTimestamp(t0)
    const launchHash = await submitLaunch(options)
    await confirmDevnetTx(chain, launchHash)
    // Another block in the same second, as a sniper's transaction landing with the deployment would see it.
    await setNextTimestamp(t0)
    const snipe = await swapExactUsdcForToken({ chain, token, usdc: '10', poolKey, prepared: true, submitOnly: true, gas: 2_000_000n })
    const receipt = await confirmDevnetTx(chain, snipe.txHash, { allowRevert: true })
    expect(Number((await client.getBlock({ blockNumber: receipt.blockNumber })).timestamp)).toBe(t0)
    expect(receipt.status).toBe('reverted')
    const trace = await jsonRpc<{ output?: string }>(chain.rpcUrl, 'debug_traceTransaction', [snipe.txHash, { tracer: 'callTracer' }])
    expect(trace.output ?? '').toContain(toFunctionSelector('SameSecondAsDeployment()').slice(2))

    const launchLog = (await client.getTransactionReceipt({ hash: launchHash })).logs.find(
      (l) => l.address.toLowerCase() === addresses.clanker.factory.toLowerCase(),
    )!
    const decoded = await adapters.clanker.decodeLaunch(launchLog, await loadLaunchContext(client, launchLog))
    const launch = decoded?.kind === 'launch' ? decoded.candidate : undefined
    const schedule = await adapters.clanker.loadFeeSchedule(client, launch!)
    expect(feeAt(schedule, at(t0)).swapsAllowed).toBe(false)
    expect(feeAt(schedule, at(t0 + 1)).swapsAllowed).toBe(true)
    const next = await buyAt(t0 + 1, poolKey, token, launch!.poolId)
    expect(next.poolSwap.fee).toBe(feeAt(schedule, at(t0 + 1)).lpFee)
  })

  it('Doppler as on Base: Create names the asset as poolOrHook, NoOp governance, a five-field schedule getter; a Dutch-auction Create is unsupported', async () => {
    const creator = nextCreator()
    const launched = await launchToken({ chain, addresses, launchpad: 'doppler', creator, name: 'multicurve', symbol: 'MC' })
    const receipt = await client.getTransactionReceipt({ hash: launched.txHash })
    const createLog = receipt.logs.find((l) => l.address.toLowerCase() === addresses.doppler.airlock.toLowerCase())!
    const create = decodeEventLog({ abi: [adapters.doppler.launchEvent.event], data: createLog.data, topics: createLog.topics })
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

  it('deploys in one or two blocks even with interval mining (all transactions pipelined)', async () => {
    await devnet.setBlockTime(1)
    try {
      const startBlock = await client.getBlockNumber()
      const second = await deployDevnetLaunchpads(chain, devnet.accounts[7]!.account)
      const endBlock = await client.getBlockNumber()
      expect(await devnetLaunchpadsExist(chain, second)).toBe(true)
      expect(second.clanker.factory).not.toBe(addresses.clanker.factory)
      expect(endBlock - startBlock).toBeLessThanOrEqual(3n)
    } finally {
      await devnet.setBlockTime('manual')
    }
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
})
