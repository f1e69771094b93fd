import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as clankerSdk from 'clanker-sdk'
import { join } from 'node:path'
import {
  type Abi,
  BaseError,
  ContractFunctionRevertedError,
  encodeAbiParameters,
  erc20Abi,
  getAddress,
  isAddressEqual,
  parseAbi,
  parseAbiParameters,
  parseEventLogs,
  zeroAddress,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { startDevnet, type Devnet } from '../../devnet/chain/start-devnet.ts'
import { quoteDevBuy } from '../../src/launch-methods/dev-buy/domain/dev-buy-eligibility.ts'
import { CLANKER_TOKEN_CREATED } from '../../src/launchpads/clanker/clanker-abi.ts'
import {
  CLANKER_DEPLOY_ABI,
  type ClankerDeploymentConfig,
  clankerDeploymentValue,
  clankerDevBuyExtension,
} from '../../src/launchpads/clanker/clanker-deployment-config.ts'
import { type ClankerPositionConfig, clankerLaunchPool } from '../../src/launchpads/clanker/clanker-launch-pool.ts'
import type { LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import { DEVNET_LAUNCH_DEFAULTS, deployDevnetLaunchpads } from '../../devnet/launchpads/deploy-devnet-launchpads.ts'
import { loadLaunchpadArtifact } from '../../devnet/launchpads/devnet-artifacts.ts'
import { devnetClankerConfig, launchToken } from '../../devnet/launchpads/launch-token.ts'
import { devnetPublicClient, sendDevnetCall } from '../../devnet/launchpads/send-devnet-tx.ts'
import { POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
import { clankerProtocolFeeOf, clankerTotalFeeFraction } from '../../src/pricing/fee-fraction.ts'
import { fraction } from '../../src/pricing/fraction.ts'

// The devnet Clanker factory takes the real deployToken(DeploymentConfig) (clanker-devco/v4-contracts src/Clanker.sol):
// several locker positions, the DevBuy extension buying for a recipient other than the sender (what a dev-buy
// coordinator contract does), and the real gating refusals, on a real anvil with the real PoolManager.

let dataDir: string
let devnet: Devnet
let chain: ChainConfig
let client: PublicClient
let addresses: LaunchpadAddresses
let counter = 0
const nextAddress = (prefix: string): Address => getAddress(`0x${prefix}${(++counter).toString(16).padStart(40 - prefix.length, '0')}`)

/** Three ranges like clanker-sdk's multi-position presets: a thin one at the start, then wider ones further up. */
const THREE_POSITIONS: readonly ClankerPositionConfig[] = [
  { tickLower: -230_400, tickUpper: -214_000, bps: 4_000 },
  { tickLower: -214_000, tickUpper: -155_000, bps: 5_000 },
  { tickLower: -202_000, tickUpper: -120_000, bps: 1_000 },
]

// The package's type declarations re-export without file extensions, which NodeNext resolution does not follow.
const { POOL_POSITIONS } = clankerSdk as unknown as { POOL_POSITIONS: Record<'Project', Array<{ tickLower: number; tickUpper: number; positionBps: number }>> }
const SDK_PROJECT: readonly ClankerPositionConfig[] = POOL_POSITIONS.Project.map((p) => ({
  tickLower: p.tickLower,
  tickUpper: p.tickUpper,
  bps: p.positionBps,
}))

/** Every module's errors, so a revert from any of them decodes by name. */
const ALL_ERRORS: Abi = [
  ...loadLaunchpadArtifact('DevnetClankerFactory').abi,
  ...loadLaunchpadArtifact('DevnetClankerHook').abi,
  ...loadLaunchpadArtifact('DevnetClankerLpLocker').abi,
  ...loadLaunchpadArtifact('DevnetClankerDevBuy').abi,
  ...loadLaunchpadArtifact('DevnetClankerSniperAuction').abi,
].filter((item) => item.type === 'error')

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'prebuy-clanker-deploy-'))
  devnet = await startDevnet({ dataDir, blockTime: 'manual' })
  chain = devnet.chains.base
  client = devnetPublicClient(chain)
  addresses = await deployDevnetLaunchpads(chain, devnet.deployer.account)
})

afterAll(async () => {
  await devnet?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const poolEventsOf = (receipt: TransactionReceipt, poolId: Hex) =>
  parseEventLogs({
    abi: [
      ...POOL_MANAGER_EVENTS,
      ...parseAbi(['event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)']),
    ],
    logs: receipt.logs.filter((l) => isAddressEqual(l.address, chain.addresses.poolManager)),
  }).filter((l) => l.args.id === poolId)

describe('devnet Clanker deployToken(DeploymentConfig) as the real factory', () => {
  it.each([
    { tokenSide: 'currency0', preset: 'three ranges', positions: THREE_POSITIONS },
    { tokenSide: 'currency1', preset: 'three ranges', positions: THREE_POSITIONS },
    { tokenSide: 'currency1', preset: 'clanker-sdk’s Project preset (5, overlapping)', positions: SDK_PROJECT },
  ] as const)(
    '$preset (token as $tokenSide): the pool is what clankerLaunchPool computes, a dev buy for another recipient equals quoteDevBuy to the wei',
    async ({ tokenSide, positions: config }) => {
      const creator = nextAddress('c0ffee')
      // The dev buy's recipient is not the sender (a coordinator contract receives the tokens it bought for its orders).
      const recipient = nextAddress('dec0de')
      const devBuyWei = 2n * 10n ** 17n
      const launched = await launchToken({
        chain,
        addresses,
        launchpad: 'clanker',
        creator,
        name: 'three',
        symbol: 'THR',
        tokenSide,
        positions: config,
        devBuyWei,
        devBuyRecipient: recipient,
      })
      const receipt = await client.getTransactionReceipt({ hash: launched.txHash })
      const events = poolEventsOf(receipt, launched.poolId)
      const init = events.find((l) => l.eventName === 'Initialize')!.args as { sqrtPriceX96: bigint; tick: number; tickSpacing: number }
      const positions = events.flatMap((l) =>
        l.eventName === 'ModifyLiquidity' ? [{ tickLower: l.args.tickLower, tickUpper: l.args.tickUpper, liquidity: l.args.liquidityDelta as bigint }] : [],
      )
      expect(positions).toHaveLength(config.length)
      const swap = events.find((l) => l.eventName === 'Swap')!.args as { sqrtPriceX96: bigint; fee: number }

      const created = parseEventLogs({ abi: [CLANKER_TOKEN_CREATED], logs: receipt.logs })[0]!.args
      expect(created).toMatchObject({
        msgSender: creator,
        tokenAdmin: creator,
        startingTick: DEVNET_LAUNCH_DEFAULTS.clanker.tickIfToken0IsClanker,
        poolHook: addresses.clanker.hook,
        pairedToken: getAddress(chain.addresses.weth),
        locker: addresses.clanker.locker,
        mevModule: addresses.clanker.mevModule,
        extensionsSupply: 0n,
        extensions: [addresses.clanker.devBuy],
      })
      const tokenIsCurrency0 = tokenSide === 'currency0'
      expect(isAddressEqual(launched.poolKey.currency0, launched.token)).toBe(tokenIsCurrency0)
      const totalSupply = await client.readContract({ address: launched.token, abi: erc20Abi, functionName: 'totalSupply' })
      const computed = clankerLaunchPool({
        tickIfToken0IsClanker: created.startingTick,
        tickSpacing: init.tickSpacing,
        positions: config,
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
          stableToPaired: (wei) => wei,
          pairedUsd: fraction(1n),
        },
        devBuyWei,
      )!
      expect(swap.fee).toBe(DEVNET_LAUNCH_DEFAULTS.clanker.lpFee)
      const [devBuy] = parseEventLogs({
        abi: parseAbi(['event EthDevBuy(address indexed token, address indexed user, uint256 ethAmount, uint256 tokenAmount)']),
        logs: receipt.logs,
      })
      expect(devBuy!.address.toLowerCase()).toBe(addresses.clanker.devBuy.toLowerCase())
      expect(devBuy!.args).toMatchObject({ token: launched.token, user: recipient, ethAmount: devBuyWei })
      expect(quote.tokensOut).toBe(devBuy!.args.tokenAmount)
      expect(quote.sqrtPriceX96After).toBe(swap.sqrtPriceX96)
      expect(await client.readContract({ address: launched.token, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] })).toBe(quote.tokensOut)

      // The factory's extension step and its getters, as the real ones.
      const [triggered] = parseEventLogs({
        abi: parseAbi(['event ExtensionTriggered(address extension, uint256 extensionSupply, uint256 msgValue)']),
        logs: receipt.logs,
      })
      expect(triggered!.args).toEqual({ extension: addresses.clanker.devBuy, extensionSupply: 0n, msgValue: devBuyWei })
      const info = await client.readContract({
        address: addresses.clanker.factory,
        abi: CLANKER_DEPLOY_ABI,
        functionName: 'tokenDeploymentInfo',
        args: [launched.token],
      })
      expect(info).toEqual({ token: launched.token, hook: addresses.clanker.hook, locker: addresses.clanker.locker, extensions: [addresses.clanker.devBuy] })
      expect(
        await client.readContract({
          address: addresses.clanker.factory,
          abi: CLANKER_DEPLOY_ABI,
          functionName: 'deploymentInfoForToken',
          args: [launched.token],
        }),
      ).toEqual([launched.token, addresses.clanker.hook, addresses.clanker.locker])
      const rewards = await client.readContract({
        address: addresses.clanker.locker,
        abi: loadLaunchpadArtifact('DevnetClankerLpLocker').abi,
        functionName: 'tokenRewards',
        args: [launched.token],
      })
      expect(rewards).toMatchObject({ token: launched.token, numPositions: BigInt(config.length), rewardRecipients: [creator], rewardBps: [10_000] })
    },
  )
})

describe('devnet Clanker gating refuses as the real factory, with the real error names', () => {
  const base = (): ClankerDeploymentConfig => {
    const creator = nextAddress('c0ffee')
    return devnetClankerConfig(
      { chain, addresses, creator, name: 'gate', symbol: 'GATE', devBuyWei: 10n ** 16n, devBuyRecipient: creator },
      DEVNET_LAUNCH_DEFAULTS.clanker.startFee,
      DEVNET_LAUNCH_DEFAULTS.clanker.endFee,
      DEVNET_LAUNCH_DEFAULTS.clanker.decaySeconds,
      `0x${(++counter).toString(16).padStart(64, '0')}`,
    )
  }
  /** The error a deployment reverts with (an eth_call from a funded account; nothing is sent). */
  const revertOf = async (config: ClankerDeploymentConfig, value = clankerDeploymentValue(config)): Promise<string | undefined> => {
    try {
      await client.simulateContract({
        address: addresses.clanker.factory,
        abi: [...CLANKER_DEPLOY_ABI, ...ALL_ERRORS],
        functionName: 'deployToken',
        args: [config],
        value,
        account: devnet.accounts[1]!.account.address,
      })
      return undefined
    } catch (error) {
      const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined
      return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : String(error)
    }
  }
  const withPositions = (c: ClankerDeploymentConfig, p: readonly ClankerPositionConfig[]): ClankerDeploymentConfig => ({
    ...c,
    lockerConfig: { ...c.lockerConfig, tickLower: p.map((x) => x.tickLower), tickUpper: p.map((x) => x.tickUpper), positionBps: p.map((x) => x.bps) },
  })
  const stranger = (): Address => nextAddress('5afe')
  /** IClankerHookV2.PoolInitializationData with the static hook's fee data, naming a pool extension or not. */
  const poolData = (extension: Address, withExtension: boolean, clankerFee: number): Hex =>
    encodeAbiParameters(parseAbiParameters('(address extension, bytes extensionData, bytes feeData)'), [
      {
        extension: withExtension ? extension : zeroAddress,
        extensionData: '0x',
        feeData: encodeAbiParameters(parseAbiParameters('uint24, uint24'), [clankerFee, 10_000]),
      },
    ])

  it('the unmodified config deploys (the refusals below are each one change away from it)', async () => {
    expect(await revertOf(base())).toBeUndefined()
  })

  it.each([
    [
      'a wrong originating chain',
      'OnlyOriginatingChain',
      (c: ClankerDeploymentConfig) => ({ ...c, tokenConfig: { ...c.tokenConfig, originatingChainId: 1n } }),
    ],
    ['a hook not enabled', 'HookNotEnabled', (c: ClankerDeploymentConfig) => ({ ...c, poolConfig: { ...c.poolConfig, hook: stranger() } })],
    [
      'a locker not enabled for the hook',
      'LockerNotEnabled',
      (c: ClankerDeploymentConfig) => ({ ...c, lockerConfig: { ...c.lockerConfig, locker: stranger() } }),
    ],
    [
      'an extension not enabled',
      'ExtensionNotEnabled',
      (c: ClankerDeploymentConfig) => ({ ...c, extensionConfigs: [clankerDevBuyExtension(stranger(), { recipient: stranger(), wei: 10n ** 16n })] }),
    ],
    [
      'a MEV module not enabled',
      'MevModuleNotEnabled',
      (c: ClankerDeploymentConfig) => ({ ...c, mevModuleConfig: { ...c.mevModuleConfig, mevModule: stranger() } }),
    ],
    [
      'more than 9,000 extension bps',
      'MaxExtensionBpsExceeded',
      (c: ClankerDeploymentConfig) => ({ ...c, extensionConfigs: c.extensionConfigs.map((e) => ({ ...e, extensionBps: 9_001 })) }),
    ],
    [
      'a dev buy taking a supply share',
      'InvalidEthDevBuyPercentage',
      (c: ClankerDeploymentConfig) => ({ ...c, extensionConfigs: c.extensionConfigs.map((e) => ({ ...e, extensionBps: 100 })) }),
    ],
    [
      'position bps not adding up to 10,000',
      'InvalidPositionBps',
      (c: ClankerDeploymentConfig) => withPositions(c, [{ tickLower: -230_400, tickUpper: -120_000, bps: 9_999 }]),
    ],
    [
      'a tick off the spacing',
      'TicksNotMultipleOfTickSpacing',
      (c: ClankerDeploymentConfig) => withPositions(c, [{ tickLower: -230_400, tickUpper: -120_100, bps: 10_000 }]),
    ],
    [
      'a range starting below the starting tick',
      'TickRangeLowerThanStartingTick',
      (c: ClankerDeploymentConfig) => withPositions(c, [{ tickLower: -230_600, tickUpper: -120_000, bps: 10_000 }]),
    ],
    ['backwards ticks', 'TicksBackwards', (c: ClankerDeploymentConfig) => withPositions(c, [{ tickLower: -120_000, tickUpper: -230_400, bps: 10_000 }])],
    [
      'eight positions',
      'TooManyPositions',
      (c: ClankerDeploymentConfig) =>
        withPositions(
          c,
          Array.from({ length: 8 }, () => ({ tickLower: -230_400, tickUpper: -120_000, bps: 1_250 })),
        ),
    ],
    ['no position', 'NoPositions', (c: ClankerDeploymentConfig) => withPositions(c, [])],
    [
      'a static sell fee above 10%',
      'ClankerFeeTooHigh',
      (c: ClankerDeploymentConfig) => ({ ...c, poolConfig: { ...c.poolConfig, poolData: poolData(stranger(), false, 100_001) } }),
    ],
    [
      'a pool extension (none is allowlisted)',
      'PoolExtensionNotEnabled',
      (c: ClankerDeploymentConfig) => ({ ...c, poolConfig: { ...c.poolConfig, poolData: poolData(stranger(), true, 10_000) } }),
    ],
    [
      'reward bps not adding up to 10,000',
      'InvalidRewardBps',
      (c: ClankerDeploymentConfig) => ({ ...c, lockerConfig: { ...c.lockerConfig, rewardBps: [9_000] } }),
    ],
    [
      'a sniper fee decaying past the module delay',
      'TimeDecayLongerThanMaxMevDelay',
      (c: ClankerDeploymentConfig) => {
        const other = devnetClankerConfig({ chain, addresses, creator: stranger(), name: 'x', symbol: 'X' }, 666_777, 41_673, 121, c.tokenConfig.salt)
        return { ...c, mevModuleConfig: other.mevModuleConfig }
      },
    ],
  ] as const)('%s: %s', async (_, errorName, change) => {
    expect(await revertOf(change(base()))).toBe(errorName)
  })

  it('msg.value other than the extensions’ msgValues: ExtensionMsgValueMismatch (unchecked without extensions, as the real one)', async () => {
    const config = base()
    expect(await revertOf(config, clankerDeploymentValue(config) - 1n)).toBe('ExtensionMsgValueMismatch')
    // As the real _prepareExtensions, which returns before its checks when there is no extension: ETH sent without one
    // is accepted, and stays in the factory.
    expect(await revertOf({ ...config, extensionConfigs: [] }, 1n)).toBeUndefined()
  })

  it('only the owner enables modules, and only modules reporting the real interface', async () => {
    const factoryAbi = loadLaunchpadArtifact('DevnetClankerFactory').abi
    const simulate = async (from: Address, functionName: string, args: readonly unknown[]) => {
      try {
        await client.simulateContract({ address: addresses.clanker.factory, abi: factoryAbi, functionName, args, account: from } as never)
        return undefined
      } catch (error) {
        const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined
        return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : String(error)
      }
    }
    const owner = devnet.deployer.account.address
    expect(await simulate(devnet.accounts[1]!.account.address, 'setHook', [addresses.clanker.hook, true])).toBe('Unauthorized')
    expect(await simulate(owner, 'setHook', [addresses.clanker.locker, true])).toBe('InvalidHook')
    expect(await simulate(owner, 'setLocker', [addresses.clanker.hook, addresses.clanker.hook, true])).toBe('InvalidLocker')
    expect(await simulate(owner, 'setExtension', [addresses.clanker.mevModule, true])).toBe('InvalidExtension')
    expect(await simulate(owner, 'setMevModule', [addresses.clanker.devBuy, true])).toBe('InvalidMevModule')
    // Deprecated, the factory refuses every deployment (the real one is deployed deprecated).
    await sendDevnetCall(chain, devnet.deployer.account, { address: addresses.clanker.factory, abi: factoryAbi, functionName: 'setDeprecated', args: [true] })
    try {
      expect(await revertOf(base())).toBe('Deprecated')
    } finally {
      await sendDevnetCall(chain, devnet.deployer.account, {
        address: addresses.clanker.factory,
        abi: factoryAbi,
        functionName: 'setDeprecated',
        args: [false],
      })
    }
    expect(await revertOf(base())).toBeUndefined()
  })
})
