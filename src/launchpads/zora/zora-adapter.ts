import { getAddress, isAddressEqual, zeroAddress, type Address, type Log, type PublicClient } from 'viem'
import type { LinearFeeSchedule } from '../../pricing/fee-schedule.ts'
import { BASE_POOL_MANAGER, BASE_WETH, BASE_ZORA_FACTORY } from '../base-addresses.ts'
import { decodeLaunchLog, launchOrigin } from '../decode-launch-log.ts'
import type { DecodedLaunch, LaunchCandidate, LaunchContext, LaunchIdentity, LaunchpadAdapter, PairedAsset } from '../launchpad-adapter.ts'
import { creatorList } from '../v4-events.ts'
import { ZORA_COIN_CREATED_V4 } from './zora-abi.ts'

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
 * only claimed. ETH-backed coins pair with native ETH (`currency = address(0)`, bought through the router's unwrap
 * path); ZORA- and creator-coin-paired coins are unsupported until their route and USD price exist.
 * The launch fee is Zora's documented constant schedule from the coin's creation (the launch block): the hook has no
 * view of it (ourzora/zora-protocol packages/coins/src/libs/CoinConstants.sol, hooks/ZoraV4CoinHook.sol).
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
      // Coins pair with native ETH, ZORA or a creator coin: ETH (and WETH) pairs have a route today.
      const paired: PairedAsset | undefined = isAddressEqual(args.currency, zeroAddress)
        ? { kind: 'eth', address: zeroAddress }
        : isAddressEqual(args.currency, options.weth)
          ? { kind: 'weth', address: getAddress(args.currency) }
          : undefined
      if (!paired) return { kind: 'unsupported', launch: identity, reason: `pairs with ${args.currency} (ZORA or a creator coin): no route yet` }
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
        paired,
        tokenIsCurrency0: isAddressEqual(key.currency0, coin),
        feeSources: { hook: key.hooks },
      }
      return { kind: 'launch', candidate }
    },

    async loadFeeSchedule(_client: PublicClient, launch: LaunchCandidate): Promise<LinearFeeSchedule> {
      return { kind: 'linear', startTime: launch.launchedAt, ...ZORA_LAUNCH_FEE }
    },
  }
}
