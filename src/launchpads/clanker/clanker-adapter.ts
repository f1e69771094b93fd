import { getAddress, isAddressEqual, zeroAddress, type Address, type Log, type PublicClient } from 'viem'
import type { ClankerAuctionSchedule, FeeSchedule } from '../../pricing/fee-schedule.ts'
import { CLANKER_MAX_MEV_MODULE_DELAY } from '../../pricing/schedules/clanker-auction.ts'
import { BASE_CLANKER_FACTORY, BASE_POOL_MANAGER, BASE_WETH } from '../base-addresses.ts'
import { decodeLaunchLog, launchOrigin } from '../decode-launch-log.ts'
import { deployerFields, factoryCallerAttribution } from '../launch-deployer.ts'
import { type DecodedLaunch, feeSource, type LaunchCandidate, type LaunchContext, type LaunchIdentity, type LaunchpadAdapter } from '../launchpad-adapter.ts'
import { creatorList, findInitializedPools } from '../v4-events.ts'
import { readAuctionSchedule } from './read-auction-schedule.ts'
import { readAuctionV0Next, readV40Module } from './read-v40-module.ts'
import { notAnswered } from '../../chain/not-answered.ts'
import { readClankerLpFee } from './read-lp-fee.ts'
import { CLANKER_FEE_ABI, CLANKER_TOKEN_CREATED } from './clanker-abi.ts'
import { clankerSupplySplit } from './clanker-supply-split.ts'

export interface ClankerAdapterOptions {
  factory: Address
  poolManager: Address
  weth: Address
}

export const CLANKER_BASE: ClankerAdapterOptions = { factory: BASE_CLANKER_FACTORY, poolManager: BASE_POOL_MANAGER, weth: BASE_WETH }

/**
 * Clanker v4: TokenCreated on the factory; deployer = msgSender (the factory's caller), tokenAdmin only claimed;
 * pool key from the PoolManager's Initialize log of the same transaction (tickSpacing is not in the event).
 */
export function createClankerAdapter(options: ClankerAdapterOptions): LaunchpadAdapter {
  return {
    id: 'clanker',
    launchEvent: { address: options.factory, events: [CLANKER_TOKEN_CREATED] },
    poolManager: options.poolManager,

    async decodeLaunch(log: Log, ctx: LaunchContext): Promise<DecodedLaunch | null> {
      const args = decodeLaunchLog(log, options.factory, CLANKER_TOKEN_CREATED)
      if (!args) return null
      const token = getAddress(args.tokenAddress)
      // msgSender is the factory's caller (the creator's wallet, or a shared platform contract launching for many);
      // tokenAdmin is whatever that caller passed. The caller is exact, so the ERC-4337 span rule is not needed here:
      // the transaction only says whether that caller is its shared sender (factoryCallerAttribution).
      const identity: LaunchIdentity = {
        launchpad: 'clanker',
        token,
        ...deployerFields(factoryCallerAttribution(ctx.attribution, args.msgSender)),
        claimedCreators: creatorList(args.tokenAdmin),
        name: args.tokenName,
        symbol: args.tokenSymbol,
        ...launchOrigin(log, ctx),
      }
      // The buy route is stablecoin -> WETH -> token; launches paired with anything else are not ours to buy.
      if (!isAddressEqual(args.pairedToken, options.weth)) return { kind: 'unsupported', launch: identity, reason: `pairs with ${args.pairedToken}, not WETH` }
      const pool = findInitializedPools(ctx.txLogs, options.poolManager).find((p) => p.poolId === args.poolId)
      if (!pool) return { kind: 'unsupported', launch: identity, reason: `the launch transaction initialises no pool ${args.poolId}` }
      const candidate: LaunchCandidate = {
        ...identity,
        poolKey: pool.poolKey,
        poolId: pool.poolId,
        paired: { kind: 'weth', address: getAddress(args.pairedToken) },
        tokenIsCurrency0: isAddressEqual(pool.poolKey.currency0, token),
        feeSources: { hook: getAddress(args.poolHook), mevModule: getAddress(args.mevModule) },
        // Checked against Clanker's rules with the pool (known-launch-pools.ts): an impossible split is no launch of its factory.
        supplySplit: clankerSupplySplit(args, log, ctx.txLogs, options.factory),
      }
      return { kind: 'launch', candidate }
    },

    async loadFeeSchedule(client: PublicClient, launch: LaunchCandidate): Promise<FeeSchedule> {
      const mevModule = launch.feeSources.mevModule ?? feeSource(launch, 'hook')
      // Static hook: pairedFee; dynamic hook: its maxLpFee, an upper bound (read-lp-fee.ts).
      const lpFeeRead = readClankerLpFee(client, feeSource(launch, 'hook'), launch.poolId)
      // A launch without an MEV module has no sniper fee: an empty config decays to nothing at once.
      if (mevModule === zeroAddress)
        return { kind: 'clanker', startTime: launch.launchedAt, startingFee: 0, endingFee: 0, secondsToDecay: 0, lpFee: (await lpFeeRead).lpFee }
      const configRead = client
        .readContract({ address: mevModule, abi: CLANKER_FEE_ABI, functionName: 'feeConfig', args: [launch.poolId] })
        .catch((error: unknown) => (notAnswered(error) ? null : Promise.reject(error)))
      // The auction getters and the v4.0 module's with the config (one round trip, not two or more): each used only
      // for its kind of module, the others' answers dropped. The v4.0 read's lpFee is set from the LP fee read below.
      const auctionRead = readAuctionSchedule(client, launch, mevModule)
      const v40Read = readV40Module(client, { poolId: launch.poolId, launchedAt: launch.launchedAt, hook: feeSource(launch, 'hook'), lpFee: 0 }, mevModule)
      auctionRead.catch(() => undefined)
      v40Read.catch(() => undefined)
      const [config, lp] = await Promise.all([configRead, lpFeeRead])
      // No feeConfig: a Clanker v4.0 module (BlockDelay, SniperAuctionV0) or an unknown one: gated, never quarantined.
      if (config === null) return { ...(await v40Read), lpFee: lp.lpFee }
      const auction = await auctionRead
      const [startingFee, endingFee, secondsToDecay] = config
      const fees = { startingFee, endingFee, secondsToDecay: Number(secondsToDecay), lpFee: lp.lpFee }
      // SniperAuctionV2 (Base v4.1) gates blocks by auction rounds; a module without its getters is the descending-fee one.
      if (auction) return { kind: 'clanker_auction', ...fees, ...auction }
      return { kind: 'clanker', startTime: launch.launchedAt, ...fees }
    },

    async refreshFeeSchedule(client, launch, block) {
      const schedule = launch.feeSchedule as ClankerAuctionSchedule
      if (schedule.kind !== 'clanker_auction') return schedule
      // v4.0 modules: only SniperAuctionV0's gate moves (a won round); BlockDelay's unlock block is fixed at launch.
      if (schedule.module === 'sniper_auction_v0')
        return { ...schedule, nextAuctionBlock: await readAuctionV0Next(client, launch.poolId, feeSource(launch, 'mevModule'), block.number) }
      if (schedule.module !== undefined) return schedule
      // The hook's creation time was read at launch: moduleEndsAt - the module's lifetime.
      const launchedAt = schedule.moduleEndsAt - CLANKER_MAX_MEV_MODULE_DELAY
      const auction = await readAuctionSchedule(client, { ...launch, launchedAt }, feeSource(launch, 'mevModule'), block.number)
      return auction ? { ...schedule, ...auction } : schedule
    },
  }
}
