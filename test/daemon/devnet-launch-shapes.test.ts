import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Address, erc20Abi, type Hex, parseAbi, parseEventLogs, parseUnits, type PublicClient, type TransactionReceipt } from 'viem'
import type { DevnetLaunchResult } from '../../src/admin-api/contract.ts'
import { silentLogger } from '../../src/common/logger.ts'
import { loadConfig } from '../../src/config/load-config.ts'
import { startDaemon, type RunningDaemon } from '../../daemon/start-daemon.ts'
import { readDevnetLaunchpads } from '../../devnet/launchpads/devnet-launchpads.ts'
import { predictTokenAddress } from '../../devnet/launchpads/launch-token.ts'
import { devnetPublicClient } from '../../devnet/launchpads/send-devnet-tx.ts'
import type { LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import { CLANKER_TOKEN_CREATED } from '../../src/launchpads/clanker/clanker-abi.ts'
import { POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
import { ZORA_TREND_COIN_CREATED } from '../../src/launchpads/zora/zora-abi.ts'
import { runCli } from './helpers.ts'
import { freePort } from '../support/free-port.ts'

/**
 * `prebuy devnet launch` exposes every devnet launch shape (devnet/launchpads/launch-token.ts LaunchTokenOptions), each
 * flag honoured end to end: launched through the real CLI against a started daemon, then the launch checked on the
 * chain (the module, plugin, pool fee, token contract, positions, recipient the flag asked for).
 */
describe('prebuy devnet launch: one flag per devnet launch shape, each honoured on the chain', () => {
  let dataDir: string
  let daemon: RunningDaemon
  let client: PublicClient
  let pads: LaunchpadAddresses
  const creator: Address = '0x5555555555555555555555555555555555555555'

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'prebuy-launch-shapes-'))
    await writeFile(join(dataDir, 'config.json'), JSON.stringify({ chains: { mode: 'devnet', blockTime: 0.2 } }))
    const config = await loadConfig({ flags: { dataDir, port: String(await freePort()) }, env: {} } as never)
    daemon = await startDaemon({ ...config, adminPort: await freePort() }, { logger: silentLogger })
    client = devnetPublicClient(daemon.chains.base)
    pads = (await readDevnetLaunchpads(dataDir)).base!
  })
  afterAll(async () => {
    await daemon?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  async function launch(...flags: string[]): Promise<{ result: DevnetLaunchResult; receipt: TransactionReceipt }> {
    const run = await runCli<DevnetLaunchResult>(dataDir, ['devnet', 'launch', '--creator', creator, ...flags])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    return { result: run.json, receipt: await client.getTransactionReceipt({ hash: run.json.txHash as Hex }) }
  }
  async function refused(text: string, ...flags: string[]) {
    const run = await runCli(dataDir, ['devnet', 'launch', '--creator', creator, ...flags])
    expect(run.code, run.stdout + run.stderr).not.toBe(0)
    expect(run.stdout + run.stderr).toContain(text)
  }
  const tokenCreated = (receipt: TransactionReceipt) => parseEventLogs({ abi: [CLANKER_TOKEN_CREATED], logs: receipt.logs })[0]!.args
  const initialize = (receipt: TransactionReceipt, poolId: string) =>
    parseEventLogs({ abi: POOL_MANAGER_EVENTS, logs: receipt.logs, eventName: 'Initialize' }).find((l) => l.args.id === poolId)!.args
  const MODULE_ABI = parseAbi(['function poolUnlockTime(bytes32) view returns (uint256)', 'function round(bytes32) view returns (uint256)'])

  it('--mev-module block_delay: the launch names ClankerMevBlockDelay, which locks the pool until launch + 2', async () => {
    const { result, receipt } = await launch('--launchpad', 'clanker', '--mev-module', 'block_delay')
    expect(tokenCreated(receipt).mevModule).toBe(pads.clanker.mevBlockDelay)
    const unlock = await client.readContract({
      address: pads.clanker.mevBlockDelay,
      abi: MODULE_ABI,
      functionName: 'poolUnlockTime',
      args: [result.poolId as Hex],
    })
    expect(unlock).toBe(BigInt(result.blockNumber) + 2n)
  })

  it('--mev-module sniper_auction_v0 (with --auction-bid-eth): the launch names SniperAuctionV0 and the bid wins its round 1', async () => {
    const { result, receipt } = await launch('--launchpad', 'clanker', '--mev-module', 'sniper_auction_v0', '--auction-bid-eth', '0.001')
    expect(tokenCreated(receipt).mevModule).toBe(pads.clanker.mevAuctionV0)
    expect(result.auctionBid).toMatchObject({ round: 1, blockNumber: String(BigInt(result.blockNumber) + 2n) })
    expect(await client.readContract({ address: pads.clanker.mevAuctionV0, abi: MODULE_ABI, functionName: 'round', args: [result.poolId as Hex] })).toBe(2n)
    // The default is SniperAuctionV2.
    const { receipt: plain } = await launch('--launchpad', 'clanker')
    expect(tokenCreated(plain).mevModule).toBe(pads.clanker.mevModule)
  })

  it('refuses what a module or launchpad does not have: fee flags or a bid with block_delay, a module elsewhere', async () => {
    await refused('no fee options with it', '--launchpad', 'clanker', '--mev-module', 'block_delay', '--start-fee', '500000')
    await refused('has no auction to bid in', '--launchpad', 'clanker', '--mev-module', 'block_delay', '--auction-bid-eth', '0.001')
    await refused('Only Clanker launches choose an MEV module', '--launchpad', 'doppler', '--mev-module', 'sniper_auction_v0')
  })

  it('--dev-buy-recipient: the dev buy tokens go to that address, not the creator', async () => {
    const recipient: Address = '0x6666666666666666666666666666666666666666'
    const { result } = await launch('--launchpad', 'clanker', '--dev-buy-usdc', '30', '--dev-buy-recipient', recipient)
    const token = result.token as Address
    expect(await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] })).toBeGreaterThan(0n)
    expect(await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [creator] })).toBe(0n)
    await refused('dev-buy-usdc', '--launchpad', 'clanker', '--dev-buy-recipient', recipient)
  })

  it('--positions: the LP locker places exactly those positions', async () => {
    const positions = [
      { tickLower: -230_400, tickUpper: -120_000, bps: 6_000 },
      { tickLower: -120_000, tickUpper: 887_200, bps: 4_000 },
    ]
    const { result, receipt } = await launch('--launchpad', 'clanker', '--positions', JSON.stringify(positions))
    const modifyLiquidity = parseAbi([
      'event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
    ])
    const added = parseEventLogs({ abi: modifyLiquidity, logs: receipt.logs }).filter((l) => l.args.id === result.poolId)
    expect(added).toHaveLength(2)
    await refused('bad --positions', '--launchpad', 'clanker', '--positions', 'not json')
  })

  it('--token-side and --salt: the token sorts on the asked side; the salt gives the predicted address', async () => {
    const { result } = await launch('--launchpad', 'clanker', '--token-side', 'currency1')
    expect(result.token.toLowerCase() > result.paired.address.toLowerCase()).toBe(true)
    const salt = `0x${'ab'.repeat(32)}` as Hex
    const expected = await predictTokenAddress(
      { chain: daemon.chains.base, addresses: pads, launchpad: 'doppler', name: 'Salted', symbol: 'SALT', creator },
      salt,
    )
    const salted = await launch('--launchpad', 'doppler', '--name', 'Salted', '--symbol', 'SALT', '--salt', salt)
    expect(salted.result.token).toBe(expected)
  })

  it('--rehype-deployment fixed: the July 2026 plugin runs the pool (its FeeScheduleSet), not the SDK one', async () => {
    const fixed = await launch('--launchpad', 'doppler', '--rehype', '--rehype-deployment', 'fixed')
    const emitters = (receipt: TransactionReceipt) => new Set(receipt.logs.map((l) => l.address.toLowerCase()))
    expect(emitters(fixed.receipt).has(pads.doppler.rehypeHookFixed.toLowerCase())).toBe(true)
    expect(emitters(fixed.receipt).has(pads.doppler.rehypeHook.toLowerCase())).toBe(false)
    const sdk = await launch('--launchpad', 'doppler', '--rehype')
    expect(emitters(sdk.receipt).has(pads.doppler.rehypeHook.toLowerCase())).toBe(true)
    await refused('rehype', '--launchpad', 'doppler', '--rehype-deployment', 'fixed')
  })

  it('--static-fee: a DopplerHookInitializer pool without a plugin, at that LP fee', async () => {
    const { result, receipt } = await launch('--launchpad', 'doppler', '--static-fee', '5000')
    const init = initialize(receipt, result.poolId)
    expect(init.fee).toBe(5_000)
    expect(init.hooks).toBe(pads.doppler.rehypeInitializer)
  })

  it('--swap-restrictor-approved/--swap-restrictor-max: launched with the plugin, reported unsupported with its reason', async () => {
    const { result } = await launch('--launchpad', 'doppler', '--swap-restrictor-approved', creator, '--swap-restrictor-max', '1000')
    expect(result.unsupported).toContain('SwapRestrictorDopplerHook')
    const human = await runCli(
      dataDir,
      ['devnet', 'launch', '--creator', creator, '--launchpad', 'doppler', '--swap-restrictor-approved', creator, '--swap-restrictor-max', '1000'],
      { human: true },
    )
    expect(human.stdout).toContain('Unsupported: ')
  })

  it('--balance-limit-max/--balance-limit-seconds: the asset is a DopplerERC20V1 with that limit, ending that long after', async () => {
    const before = Number((await client.getBlock()).timestamp)
    const { result } = await launch('--launchpad', 'doppler', '--balance-limit-max', '1000', '--balance-limit-seconds', '60')
    const abi = parseAbi(['function maxBalanceLimit() view returns (uint256)', 'function balanceLimitEnd() view returns (uint48)'])
    const token = result.token as Address
    expect(await client.readContract({ address: token, abi, functionName: 'maxBalanceLimit' })).toBe(parseUnits('1000', 18))
    const end = await client.readContract({ address: token, abi, functionName: 'balanceLimitEnd' })
    expect(end).toBeGreaterThanOrEqual(before + 60)
    const launchedAt = Number((await client.getBlock({ blockNumber: BigInt(result.blockNumber) })).timestamp)
    expect(end).toBeLessThanOrEqual(launchedAt + 60)
  })

  it('--trend-coin: a Zora trend coin named by its ticker, announced by TrendCoinCreated, paired with ZORA', async () => {
    const { result, receipt } = await launch('--launchpad', 'zora', '--trend-coin', '--symbol', 'TRNDY')
    const [created] = parseEventLogs({ abi: [ZORA_TREND_COIN_CREATED], logs: receipt.logs })
    expect(created?.args).toMatchObject({ symbol: 'TRNDY', coin: result.token })
    expect(result.paired).toEqual({ kind: 'zora', address: pads.zora.route.zora })
    await refused('A trend coin is a Zora coin paired with ZORA', '--launchpad', 'clanker', '--trend-coin')
  })

  it('the manifest lists every flag of the command (npm run manifest)', async () => {
    const manifest = JSON.parse(await readFile(join(import.meta.dirname, '..', '..', 'oclif.manifest.json'), 'utf8')) as {
      commands: Record<string, { flags: Record<string, unknown> }>
    }
    const flags = Object.keys(manifest.commands['devnet:launch']!.flags)
    for (const flag of [
      'mev-module',
      'trend-coin',
      'dev-buy-recipient',
      'positions',
      'rehype-deployment',
      'static-fee',
      'swap-restrictor-approved',
      'swap-restrictor-max',
      'balance-limit-max',
      'balance-limit-seconds',
      'token-side',
      'salt',
    ])
      expect(flags).toContain(flag)
  })
})
