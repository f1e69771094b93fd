import { getAddress, isAddressEqual, zeroAddress, type Address, type Log, type PublicClient } from 'viem'
import { PrebuyError } from '../../common/errors.ts'
import type { ClankerFeeSchedule } from '../../pricing/fee-schedule.ts'
import { BASE_CLANKER_FACTORY, BASE_POOL_MANAGER, BASE_WETH } from '../base-addresses.ts'
import { decodeLaunchLog, launchOrigin } from '../decode-launch-log.ts'
import type { LaunchCandidate, LaunchContext, LaunchpadAdapter } from '../launchpad-adapter.ts'
import { creatorList, findInitializedPools } from '../v4-events.ts'
import { CLANKER_FEE_ABI, CLANKER_TOKEN_CREATED } from './clanker-abi.ts'

export interface ClankerAdapterOptions {
  factory: Address
  poolManager: Address
  weth: Address
  /** LP fee assumed when the hook has no pairedFee view (Clanker's dynamic-fee hook). Default 1%. */
  defaultLpFee?: number
}

export const CLANKER_BASE: ClankerAdapterOptions = { factory: BASE_CLANKER_FACTORY, poolManager: BASE_POOL_MANAGER, weth: BASE_WETH }

/** Clanker's default LP fee on buys (pairedFee), pips. */
export const CLANKER_DEFAULT_LP_FEE = 10_000

/**
 * Clanker v4: TokenCreated on the factory; creator = tokenAdmin, also msgSender (a deployer contract or bot may send);
 * pool key from the PoolManager's Initialize log of the same transaction (tickSpacing is not in the event).
 */
export function createClankerAdapter(options: ClankerAdapterOptions): LaunchpadAdapter {
  const defaultLpFee = options.defaultLpFee ?? CLANKER_DEFAULT_LP_FEE
  return {
    id: 'clanker',
    launchEvent: { address: options.factory, event: CLANKER_TOKEN_CREATED },
    poolManager: options.poolManager,

    async decodeLaunch(log: Log, ctx: LaunchContext): Promise<LaunchCandidate | null> {
      const args = decodeLaunchLog(log, options.factory, CLANKER_TOKEN_CREATED)
      if (!args) return null
      // The buy route is stablecoin -> WETH -> token; launches paired with anything else are not ours to buy.
      if (!isAddressEqual(args.pairedToken, options.weth)) return null
      const pool = findInitializedPools(ctx.txLogs, options.poolManager).find((p) => p.poolId === args.poolId)
      if (!pool) {
        throw new PrebuyError('launch_pool_not_found', 'The Clanker launch transaction has no matching pool initialisation.', {
          details: { txHash: ctx.txHash, poolId: args.poolId },
        })
      }
      const token = getAddress(args.tokenAddress)
      return {
        launchpad: 'clanker',
        token,
        creatorCandidates: creatorList(args.tokenAdmin, args.msgSender),
        poolKey: pool.poolKey,
        poolId: pool.poolId,
        pairedToken: getAddress(args.pairedToken),
        tokenIsCurrency0: isAddressEqual(pool.poolKey.currency0, token),
        initialSqrtPriceX96: pool.sqrtPriceX96,
        name: args.tokenName,
        symbol: args.tokenSymbol,
        ...launchOrigin(log, ctx),
        feeSources: { hook: getAddress(args.poolHook), mevModule: getAddress(args.mevModule) },
      }
    },

    async loadFeeSchedule(client: PublicClient, launch: LaunchCandidate): Promise<ClankerFeeSchedule> {
      const mevModule = launch.feeSources.mevModule ?? launch.feeSources.hook
      // A launch without an MEV module has no sniper fee: an empty config decays to nothing at once.
      const noSniperFee = async (): Promise<readonly [number, number, bigint]> => [0, 0, 0n]
      const [config, lpFee] = await Promise.all([
        mevModule === zeroAddress
          ? noSniperFee()
          : client.readContract({ address: mevModule, abi: CLANKER_FEE_ABI, functionName: 'feeConfig', args: [launch.poolId] }),
        client
          .readContract({ address: launch.feeSources.hook, abi: CLANKER_FEE_ABI, functionName: 'pairedFee', args: [launch.poolId] })
          .catch(() => defaultLpFee),
      ])
      const [startingFee, endingFee, secondsToDecay] = config
      return {
        kind: 'clanker',
        startTime: launch.launchedAt,
        startingFee,
        endingFee,
        secondsToDecay: Number(secondsToDecay),
        lpFee,
      }
    },
  }
}
