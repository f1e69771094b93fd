import { createWalletClient, erc20Abi, getAddress, http, parseAbi, parseEventLogs, type Abi, type Address, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import coordinatorArtifact from '../../../src/chain/contracts/artifacts/PrebuyDevBuyCoordinator.json' with { type: 'json' }
import { chainFromConfig } from '../../../src/chain/clients.ts'
import { fundAccount } from '../../../devnet/chain/faucet.ts'
import { allocateDevBuy } from '../../../src/launch-methods/dev-buy/domain/dev-buy-allocation.ts'
import type { DevBuyParams, DevBuyPoolShape } from '../../../src/domain/records.ts'
import { CLANKER_TOKEN_CREATED } from '../../../src/launchpads/clanker/clanker-abi.ts'
import { findPoolSwap } from '../../../devnet/launchpads/swap-exact-usdc-for-token.ts'
import { clankerDevBuyDeployment, poolShapeProblem } from '../../../src/launch-methods/dev-buy/chain/clanker-dev-buy-deployment.ts'
import { quoteStableToEth } from '../../../src/launch-methods/dev-buy/chain/dev-buy-coordinator-contract.ts'
import { type DevBuyBuyer, DevBuyPlanReverted, launchDevBuy, planDevBuyLaunch, predictToken } from '../../../src/launch-methods/dev-buy/chain/launch-dev-buy.ts'
import type { LaunchpadAddresses } from '../../../src/launchpads/create-adapters.ts'
import { deployDevnetLaunchpads } from '../../../devnet/launchpads/deploy-devnet-launchpads.ts'
import { devnetClankerDevBuySetup } from '../../../devnet/launchpads/devnet-dev-buy-setup.ts'
import { devBuyLaunchId } from '../../../src/launch-methods/dev-buy/dev-buy-service.ts'
import { newLaunchSalt } from '../../../src/launch-methods/dev-buy/chain/launch-salt.ts'
import { CLANKER_DEPLOY_ABI } from '../../../src/launchpads/clanker/clanker-deployment-config.ts'
import { startWalletFixture, type WalletFixture } from '../../wallets/devnet-fixture.ts'
import { NO_LOCK } from '../../../src/launch-methods/vesting/domain/lock-terms.ts'
import { vestingState } from '../../../src/launch-methods/vesting/domain/vesting-schedule.ts'
import { VESTING_ABI, VESTING_BYTECODE } from '../../../src/launch-methods/vesting/chain/vesting-contract.ts'

/**
 * The dev-buy coordinator on a real devnet: the real EntryPoint v0.7, the buyers' SimpleAccount wallets (the wallet
 * service signs their operations), the devnet stablecoin and its v3 WETH pool, and the devnet Clanker factory taking
 * the real deployToken(DeploymentConfig) with its DevBuy extension. One transaction collects, swaps, deploys, buys and
 * splits, or nothing happens.
 */
const coordinatorAbi = coordinatorArtifact.abi as Abi
const USDC = 10n ** 6n
const FACTORY_ADMIN_ABI = parseAbi(['function setDeprecated(bool deprecated_)'])

let f: WalletFixture
beforeAll(async () => {
  f = await startWalletFixture()
})
afterAll(async () => {
  await f?.stop()
})

describe('PrebuyDevBuyCoordinator and launchDevBuy', () => {
  let clanker: LaunchpadAddresses['clanker']
  let coordinator: Address
  let vesting: Address
  const feeRecipient: Address = '0x00000000000000000000000000000000000fee02'
  const admin: Address = '0x00000000000000000000000000000000000ad111'
  const client = () => f.clients.base
  const deployer = () => f.devnet.accounts[8]!.account
  const usdcOf = (address: Address) =>
    client().readContract({ address: f.chains.base.addresses.stablecoin, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
  const tokenOf = (token: Address, address: Address) => client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
  const params = (symbol: string, lock = NO_LOCK, pool?: DevBuyPoolShape): DevBuyParams => ({
    name: `Dev ${symbol}`,
    symbol,
    image: '',
    metadata: 'a dev-buy launch',
    tokenAdmin: admin,
    lock,
    ...(pool ? { pool } : {}),
  })
  const input = (slug: string, buyers: DevBuyBuyer[], lock = NO_LOCK, pool?: DevBuyPoolShape, salt: Hex = newLaunchSalt()) => {
    const launchId = devBuyLaunchId(slug) as Hex
    return {
      chain: f.chains.base,
      coordinator,
      launchId,
      buyers,
      deployment: clankerDevBuyDeployment(devnetClankerDevBuySetup(f.chains.base, clanker), params(slug.toUpperCase(), lock, pool), coordinator, salt),
      lock,
      vesting,
    }
  }
  let nextUser = 300
  const buyer = async (usdc: bigint, maxSpend: bigint, limitFdv: bigint | null): Promise<DevBuyBuyer & { address: Address }> => {
    const userIndex = nextUser++
    const address = await f.service.walletAddress(userIndex)
    if (usdc > 0n) await fundAccount(f.chains.base, address, { stablecoin: (usdc / USDC).toString() })
    return { id: `order-${userIndex}`, userIndex, maxSpend, limitFdv, address }
  }

  beforeAll(async () => {
    clanker = (await deployDevnetLaunchpads(f.chains.base, deployer())).clanker
    const wallet = createWalletClient({ chain: chainFromConfig(f.chains.base), account: f.trader, transport: http(f.chains.base.rpcUrl) })
    const { entryPoint, stablecoin, weth, ethUsdPool } = f.chains.base.addresses
    const vestingDeployed = await wallet.deployContract({ abi: VESTING_ABI, bytecode: VESTING_BYTECODE, args: [] })
    vesting = (await client().waitForTransactionReceipt({ hash: vestingDeployed })).contractAddress!
    const hash = await wallet.deployContract({
      abi: coordinatorAbi,
      bytecode: coordinatorArtifact.bytecode as Hex,
      args: [entryPoint, stablecoin, weth, ethUsdPool, clanker.factory, vesting, f.service.bundlerAddress('base'), feeRecipient],
    })
    coordinator = (await client().waitForTransactionReceipt({ hash })).contractAddress!
  })

  it('launches in one transaction: the eligible wallets pay in, the token is deployed with one buy, split pro rata less 3%; the others are untouched; a second launch moves nothing', async () => {
    const buyers = [
      await buyer(500n * USDC, 400n * USDC, null), // spends its cap, not its balance
      await buyer(300n * USDC, 1_000n * USDC, 10_000_000_000n * USDC), // spends its balance; a limit far above the price
      await buyer(200n * USDC, 200n * USDC, 1n * USDC), // a $1 FDV limit: below any price
      await buyer(0n, 100n * USDC, null), // an empty wallet
    ]
    const launch = input('moon', buyers)
    const simulated = await planDevBuyLaunch({ wallets: f.service, client: client() }, launch)
    expect(simulated.plan.included.map((c) => c.id)).toEqual([buyers[0]!.id, buyers[1]!.id])
    expect(simulated.plan.excluded).toEqual([
      { id: buyers[3]!.id, reason: 'nothing_to_spend' },
      { id: buyers[2]!.id, reason: 'limit_below_price' },
    ])
    // The planned stablecoin's ETH is what the coordinator's own quote says now.
    expect(simulated.quotedEth).toBe(await quoteStableToEth(client(), coordinator, 700n * USDC))
    const before = await Promise.all(buyers.map((b) => usdcOf(b.address)))

    let predicted: Address | undefined
    const outcome = await launchDevBuy(
      { wallets: f.service, client: client() },
      {
        ...launch,
        beforeSend: async (token) => {
          predicted = token
        },
      },
    )
    expect(outcome.status).toBe('launched')
    if (outcome.status !== 'launched') return
    const { result } = outcome
    expect(result.token).toBe(predicted)
    expect(result.token).toBe(simulated.token)
    expect(result.stableIn).toBe(700n * USDC)
    expect(result.bought).toBeGreaterThanOrEqual(simulated.minTokens)
    // The chain's split is the pure one: fee floor(3%), shares floor(net * c / total), dust to the largest contributor.
    const expected = allocateDevBuy(
      result.bought,
      buyers.slice(0, 2).map((b) => ({ id: getAddress(b.address), amount: b === buyers[0] ? 400n * USDC : 300n * USDC })),
    )
    expect(result.fee).toBe(expected.fee)
    expect(result.fills).toEqual(expected.allocations.map((a) => ({ wallet: a.id, spend: a.contribution, tokens: a.tokens })))
    expect(await usdcOf(buyers[0]!.address)).toBe(before[0]! - 400n * USDC)
    expect(await usdcOf(buyers[1]!.address)).toBe(0n)
    expect(await usdcOf(buyers[2]!.address)).toBe(before[2])
    for (const [i, a] of expected.allocations.entries()) expect(await tokenOf(result.token, buyers[i]!.address)).toBe(a.tokens)
    expect(await tokenOf(result.token, feeRecipient)).toBe(expected.fee)
    // Nothing stays with the coordinator, and no allowance survives.
    expect(await tokenOf(result.token, coordinator)).toBe(0n)
    expect(await usdcOf(coordinator)).toBe(0n)
    expect(await client().getBalance({ address: coordinator })).toBe(0n)
    for (const b of buyers.slice(0, 2)) {
      const allowance = await client().readContract({
        address: f.chains.base.addresses.stablecoin,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [b.address, coordinator],
      })
      expect(allowance).toBe(0n)
    }

    // Idempotent: the launch id launched; asked again, the coordinator says so, and the result is read from the chain.
    const again = await launchDevBuy({ wallets: f.service, client: client() }, launch)
    expect(again).toEqual({ status: 'already_launched', token: result.token, result })
    expect(await usdcOf(buyers[0]!.address)).toBe(before[0]! - 400n * USDC)
  })

  it('the owner’s launchpad settings are the launch’s: its starting tick, LP positions and static fee, and the plan priced on that pool is what the chain bought', async () => {
    const buyers = [await buyer(400n * USDC, 400n * USDC, null), await buyer(100n * USDC, 100n * USDC, null)]
    const pool: DevBuyPoolShape = {
      startingTick: -220_000,
      positions: [
        { tickLower: -220_000, tickUpper: -150_000, bps: 6_000 },
        { tickLower: -150_000, tickUpper: -120_000, bps: 4_000 },
      ],
      lpFeePips: 20_000,
    }
    const launch = input('shaped', buyers, NO_LOCK, pool)
    expect(launch.deployment.config.poolConfig.tickIfToken0IsClanker).toBe(-220_000)
    const simulated = await planDevBuyLaunch({ wallets: f.service, client: client() }, launch)
    const outcome = await launchDevBuy({ wallets: f.service, client: client() }, launch)
    expect(outcome.status).toBe('launched')
    if (outcome.status !== 'launched') return
    const receipt = await client().getTransactionReceipt({ hash: outcome.result.txHash })
    const [created] = parseEventLogs({ abi: [CLANKER_TOKEN_CREATED], logs: receipt.logs })
    // Clanker emits the config's tickIfToken0IsClanker whichever way the token sorts.
    expect(created!.args.startingTick).toBe(-220_000)
    // The dev buy's swap paid the owner's 2% LP fee (the sniper fee starts after the extensions run).
    expect(findPoolSwap(receipt.logs, f.chains.base.addresses.poolManager)?.fee).toBe(20_000)
    // Priced on this pool (two positions, 2% fee), the plan is exactly what the chain bought.
    expect(outcome.result.stableIn).toBe(500n * USDC)
    expect(outcome.result.bought).toBe(simulated.plan.quote!.tokensOut)
  })

  it('the pool-shape check against the devnet factory: accepted shapes at the edges deploy (either token order); the issue-24 start (887,000) is refused and its plan is a typed revert, not a crash', async () => {
    const setup = devnetClankerDevBuySetup(f.chains.base, clanker)
    const one = (startingTick: number, tickUpper: number): DevBuyPoolShape => ({
      startingTick,
      positions: [{ tickLower: startingTick, tickUpper, bps: 10_000 }],
      lpFeePips: 10_000,
    })
    // Accepted shapes near every edge the check knows: high starts on wide ranges, a narrow one just under the per-tick
    // cap, the bottom tick with a wide range, several positions sharing ticks.
    const accepted: DevBuyPoolShape[] = [
      one(257_000, 887_200),
      one(100_000, 100_200),
      one(-887_200, 887_200),
      one(-887_200, 0),
      {
        startingTick: -100_000,
        positions: [
          { tickLower: -100_000, tickUpper: 0, bps: 5_000 },
          { tickLower: -100_000, tickUpper: 100_000, bps: 3_000 },
          { tickLower: 0, tickUpper: 100_000, bps: 2_000 },
        ],
        lpFeePips: 10_000,
      },
    ]
    for (const [i, pool] of accepted.entries()) {
      expect(poolShapeProblem(setup, pool), JSON.stringify(pool)).toBeNull()
      // Several salts: the token lands on either side of WETH.
      for (let s = 0; s < 3; s++) {
        const predicted = await predictToken(client(), input(`edge${i}x${s}`, [], NO_LOCK, pool))
        expect(predicted, JSON.stringify(pool)).toHaveProperty('token')
      }
    }
    const refused = one(887_000, 887_200)
    expect(poolShapeProblem(setup, refused)).toMatch(/more liquidity than a pool holds/)
    const predicted = await predictToken(client(), input('edge-refused', [], NO_LOCK, refused))
    expect(predicted).toHaveProperty('revert')
    const planned = planDevBuyLaunch({ wallets: f.service, client: client() }, input('edge-refused', [], NO_LOCK, refused))
    await expect(planned).rejects.toBeInstanceOf(DevBuyPlanReverted)
    await expect(planned).rejects.toMatchObject({ stage: 'deployment' })
  })

  it('a stablecoin quote that reverts is a typed outcome of the plan (stage quote), not a crash', async () => {
    const buyers = [await buyer(100n * USDC, 100n * USDC, null)]
    // The vesting contract as the "coordinator": the token is predicted (the factory's deployment does not depend on its
    // caller), but the quote call reverts (a contract without that function).
    const launch = { ...input('quote-reverts', buyers), coordinator: vesting }
    const planned = planDevBuyLaunch({ wallets: f.service, client: client() }, launch)
    await expect(planned).rejects.toBeInstanceOf(DevBuyPlanReverted)
    await expect(planned).rejects.toMatchObject({ stage: 'quote' })
  })

  it('a deployment that fails on chain reverts everything: every balance unchanged, nothing launched; launched again once it can', async () => {
    const buyers = [await buyer(250n * USDC, 250n * USDC, null), await buyer(150n * USDC, 150n * USDC, null)]
    const launch = input('fail', buyers)
    const factoryOwner = createWalletClient({ chain: chainFromConfig(f.chains.base), account: deployer(), transport: http(f.chains.base.rpcUrl) })
    const setDeprecated = async (value: boolean) =>
      client().waitForTransactionReceipt({
        hash: await factoryOwner.writeContract({ address: clanker.factory, abi: FACTORY_ADMIN_ABI, functionName: 'setDeprecated', args: [value] }),
      })
    const snapshot = async () => ({ buyers: await Promise.all(buyers.map((b) => usdcOf(b.address))), coordinator: await usdcOf(coordinator) })
    const before = await snapshot()
    // After the simulation passed and before the launch lands, the factory is deprecated: the deployment reverts on chain
    // after the wallets paid in, so the whole transaction does.
    const outcome = await launchDevBuy({ wallets: f.service, client: client() }, { ...launch, beforeSend: async () => void (await setDeprecated(true)) })
    await setDeprecated(false)
    expect(outcome.status).toBe('reverted')
    expect(await snapshot()).toEqual(before)
    expect(await client().readContract({ address: coordinator, abi: coordinatorAbi, functionName: 'launchedToken', args: [launch.launchId] })).toBe(
      '0x0000000000000000000000000000000000000000',
    )

    const retried = await launchDevBuy({ wallets: f.service, client: client() }, launch)
    expect(retried.status).toBe('launched')
    expect(await usdcOf(buyers[0]!.address)).toBe(0n)
  })

  it('a locked launch puts every share into a vesting position in the wallet’s name, at the launch block’s time, equal to the pure schedule', async () => {
    const buyers = [await buyer(600n * USDC, 600n * USDC, null), await buyer(300n * USDC, 300n * USDC, null)]
    const lock = { lockSeconds: 3_600, vestingSeconds: 86_400 }
    const outcome = await launchDevBuy({ wallets: f.service, client: client() }, input('locked', buyers, lock))
    expect(outcome.status).toBe('launched')
    if (outcome.status !== 'launched') return
    const { result } = outcome
    const launchedAt = Number((await client().getBlock({ blockNumber: result.blockNumber })).timestamp)
    const netTotal = result.fills.reduce((sum, fill) => sum + fill.tokens, 0n)
    expect(netTotal + result.fee).toBe(result.bought)
    // Nothing in the wallets, everything held by the vesting contract, one position per buyer with its share.
    for (const [i, fill] of result.fills.entries()) {
      expect(await tokenOf(result.token, buyers[i]!.address)).toBe(0n)
      expect(fill.vesting).toEqual({
        chain: 'base',
        contract: getAddress(vesting),
        positionId: expect.any(String),
        tokenAddress: getAddress(result.token),
        total: fill.tokens.toString(),
        start: launchedAt,
        lockupEnd: launchedAt + lock.lockSeconds,
        vestingSeconds: lock.vestingSeconds,
      })
      const schedule = { total: fill.tokens, start: launchedAt, lockupEnd: launchedAt + lock.lockSeconds, vestingSeconds: lock.vestingSeconds }
      const halfway = launchedAt + lock.lockSeconds + lock.vestingSeconds / 2
      const onChain = await client().readContract({
        address: vesting,
        abi: VESTING_ABI,
        functionName: 'vestedAt',
        args: [BigInt(fill.vesting!.positionId), BigInt(halfway)],
      })
      expect(onChain).toBe(vestingState(schedule, halfway, 0n).vested)
      expect(vestingState(schedule, halfway, 0n).vested).toBe(fill.tokens / 2n)
    }
    expect(await tokenOf(result.token, vesting)).toBe(netTotal)
    expect(await tokenOf(result.token, feeRecipient)).toBe(result.fee)
  })

  it('refuses what it must: a launch by anyone but the service, contributions outside a launch; with nobody able to take part nothing is sent', async () => {
    const [poor] = [await buyer(0n, 100n * USDC, null)]
    const outcome = await launchDevBuy({ wallets: f.service, client: client() }, input('empty', [poor!]))
    expect(outcome.status).toBe('nothing_to_buy')
    const call = (account: Address, functionName: string, args: unknown[]) =>
      client()
        .simulateContract({ account, address: coordinator, abi: coordinatorAbi, functionName, args, gas: 5_000_000n } as never)
        .then(() => 'passed')
        .catch((e: { walk?: (fn: (x: unknown) => boolean) => unknown; message: string }) => {
          const found = e.walk?.((x) => typeof (x as { data?: { errorName?: string } }).data?.errorName === 'string') as
            | { data?: { errorName: string } }
            | undefined
          return found?.data?.errorName ?? e.message
        })
    const launch = input('stranger', [poor!])
    expect(
      await call(f.trader.address, 'launch', [
        launch.launchId,
        [],
        [{ wallet: poor!.address, amount: 1n }],
        { minEth: 0n, minTokens: 0n, devBuyIndex: 0n, lockSeconds: 0n, vestingSeconds: 0n },
        launch.deployment.config,
      ]),
    ).toBe('OnlyOperator')
    expect(await call(poor!.address, 'contribute', [launch.launchId, 1n])).toBe('NotCollecting')
    expect(await call(f.trader.address, 'uniswapV3SwapCallback', [1n, 0n, '0x'])).toBe('UnexpectedCallback')
  })

  it('a token someone deployed first with the attempt’s salt: squatted before anything is sent, or found as why a sent launch reverted; a new salt launches', async () => {
    const buyers = [await buyer(200n * USDC, 200n * USDC, null)]
    const salt = newLaunchSalt()
    const launch = input('squat', buyers, NO_LOCK, undefined, salt)
    // The stranger's own deployment through the factory: the same token config, no dev buy (the address ignores the caller).
    const stranger = createWalletClient({ chain: chainFromConfig(f.chains.base), account: f.trader, transport: http(f.chains.base.rpcUrl) })
    const squat = async (config: typeof launch.deployment.config) => {
      const hash = await stranger.writeContract({
        address: clanker.factory,
        abi: CLANKER_DEPLOY_ABI,
        functionName: 'deployToken',
        args: [{ ...config, extensionConfigs: [] }],
        gas: 12_000_000n,
      })
      const receipt = await client().waitForTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
      return getAddress(parseEventLogs({ abi: [CLANKER_TOKEN_CREATED], logs: receipt.logs })[0]!.args.tokenAddress)
    }
    const before = await usdcOf(buyers[0]!.address)
    const token = await squat(launch.deployment.config)
    let sent = false
    const onSent = async () => {
      sent = true
    }
    // An earlier round predicted this token (a resumed attempt): its code is found first.
    const resumed = await launchDevBuy({ wallets: f.service, client: client() }, { ...launch, expectedToken: token, onSent })
    expect(resumed).toEqual({ status: 'squatted', token })
    // A new round of the same salt: its prediction fails (the address is taken), refused, nothing sent.
    const predicted = await launchDevBuy({ wallets: f.service, client: client() }, { ...launch, onSent })
    expect(predicted.status).toBe('refused')
    expect(sent).toBe(false)
    expect(await usdcOf(buyers[0]!.address)).toBe(before)

    // Deployed first in the launch's own block, after its simulation passed: the launch reverts, and says why.
    const raced = input('squat', buyers)
    const outcome = await launchDevBuy(
      { wallets: f.service, client: client() },
      {
        ...raced,
        beforeSend: async (predictedToken) => {
          expect(await squat(raced.deployment.config)).toBe(getAddress(predictedToken))
        },
      },
    )
    expect(outcome).toMatchObject({ status: 'squatted', txHash: expect.stringMatching(/^0x/) })
    expect(await usdcOf(buyers[0]!.address)).toBe(before)

    // A new secret salt: the launch deploys its own token.
    const fresh = await launchDevBuy({ wallets: f.service, client: client() }, input('squat', buyers))
    expect(fresh.status).toBe('launched')
    expect(await usdcOf(buyers[0]!.address)).toBe(before - 200n * USDC)
  })
})
