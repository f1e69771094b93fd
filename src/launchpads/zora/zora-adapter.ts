import { getAddress, isAddressEqual, type Address, type Log, type PublicClient } from 'viem'
import type { LinearFeeSchedule } from '../../pricing/fee-schedule.ts'
import { BASE_POOL_MANAGER, BASE_WETH, BASE_ZORA_FACTORY } from '../base-addresses.ts'
import { decodeLaunchLog, launchOrigin } from '../decode-launch-log.ts'
import { type DecodedLaunch, feeSource, type LaunchCandidate, type LaunchContext, type LaunchIdentity, type LaunchpadAdapter } from '../launchpad-adapter.ts'
import { creatorList } from '../v4-events.ts'
import { ZORA_COIN_CREATED_V4, ZORA_DEVNET_HOOK_ABI } from './zora-abi.ts'

export interface ZoraAdapterOptions {
  factory: Address
  poolManager: Address
  weth: Address
}

export const ZORA_BASE: ZoraAdapterOptions = { factory: BASE_ZORA_FACTORY, poolManager: BASE_POOL_MANAGER, weth: BASE_WETH }

/** Zora's documented launch fee: linear 99% -> 1% over 10 seconds, then 1%. */
export const ZORA_LAUNCH_FEE = { startFee: 990_000, endFee: 10_000, durationSeconds: 10 } as const

/**
 * Zora coins: CoinCreatedV4 on the factory carries the whole pool key. Deployer: the caller; the payout recipient is
 * only claimed.
 * The launch fee is Zora's documented constant schedule from the launch block; the devnet hook, whose schedule the
 * CLI can change, answers `getLaunchFee`, which is preferred when it exists.
 */
export function createZoraAdapter(options: ZoraAdapterOptions): LaunchpadAdapter {
  return {
    id: 'zora',
    launchEvent: { address: options.factory, event: ZORA_COIN_CREATED_V4 },
    poolManager: options.poolManager,

    async decodeLaunch(log: Log, ctx: LaunchContext): Promise<DecodedLaunch | null> {
      const args = decodeLaunchLog(log, options.factory, ZORA_COIN_CREATED_V4)
      if (!args) return null
      const coin = getAddress(args.coin)
      // caller is the factory's msg.sender; payoutRecipient is a free parameter (and can be changed later).
      const identity: LaunchIdentity = {
        launchpad: 'zora',
        token: coin,
        deployer: getAddress(args.caller),
        claimedCreators: creatorList(args.payoutRecipient),
        name: args.name,
        symbol: args.symbol,
        ...launchOrigin(log, ctx),
      }
      // Coins pair with native ETH, ZORA or a creator coin: only WETH pairs have a route today.
      if (!isAddressEqual(args.currency, options.weth)) return { kind: 'unsupported', launch: identity, reason: `pairs with ${args.currency}, not WETH` }
      const key = {
        currency0: getAddress(args.poolKey.currency0),
        currency1: getAddress(args.poolKey.currency1),
        fee: args.poolKey.fee,
        tickSpacing: args.poolKey.tickSpacing,
        hooks: getAddress(args.poolKey.hooks),
      }
      const candidate: LaunchCandidate = {
        ...identity,
        poolKey: key,
        poolId: args.poolKeyHash,
        paired: { kind: 'weth', address: getAddress(args.currency) },
        tokenIsCurrency0: isAddressEqual(key.currency0, coin),
        feeSources: { hook: key.hooks },
      }
      return { kind: 'launch', candidate }
    },

    async loadFeeSchedule(client: PublicClient, launch: LaunchCandidate): Promise<LinearFeeSchedule> {
      const configured = await client
        .readContract({ address: feeSource(launch, 'hook'), abi: ZORA_DEVNET_HOOK_ABI, functionName: 'getLaunchFee', args: [launch.poolId] })
        .catch(() => null)
      if (configured && configured[3] > 0) {
        const [startTime, startFee, endFee, durationSeconds] = configured
        return { kind: 'linear', startTime, startFee, endFee, durationSeconds }
      }
      return { kind: 'linear', startTime: launch.launchedAt, ...ZORA_LAUNCH_FEE }
    },
  }
}
