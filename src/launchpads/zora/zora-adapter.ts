import { getAddress, isAddressEqual, zeroAddress, type Address, type Log, type PublicClient } from 'viem'
import type { LinearFeeSchedule } from '../../pricing/fee-schedule.ts'
import { routeProblem } from '../../pricing/route-price.ts'
import { BASE_POOL_MANAGER, BASE_WETH, BASE_ZORA_FACTORY } from '../base-addresses.ts'
import { decodeLaunchLog, launchOrigin } from '../decode-launch-log.ts'
import { deployerFields, factoryCallerAttribution } from '../launch-deployer.ts'
import type { DecodedLaunch, LaunchCandidate, LaunchContext, LaunchIdentity, LaunchpadAdapter, PairedAsset, PoolKey } from '../launchpad-adapter.ts'
import { creatorList } from '../v4-events.ts'
import { ZORA_COIN_ABI, ZORA_COIN_CREATED_V4, ZORA_CREATOR_COIN_CREATED, ZORA_TREND_COIN_CREATED, ZORA_TREND_LP_FEE } from './zora-abi.ts'
import { notAnswered } from '../../chain/not-answered.ts'
import type { ZoraRoute } from './zora-route.ts'

export interface ZoraAdapterOptions {
  factory: Address
  poolManager: Address
  weth: Address
  /** How ZORA is bought and priced; without it ZORA-paired coins are reported unsupported. */
  zoraRoute?: ZoraRoute
}

export const ZORA_BASE: ZoraAdapterOptions = { factory: BASE_ZORA_FACTORY, poolManager: BASE_POOL_MANAGER, weth: BASE_WETH }

/** Zora's documented launch fee: linear 99% -> 1% over 10 seconds, then 1%. */
export const ZORA_LAUNCH_FEE = { startFee: 990_000, endFee: 10_000, durationSeconds: 10 } as const

/**
 * The pool of a coin another coin pairs with, when it is a Zora coin paired with ZORA (a creator coin): read from the
 * coin itself (`getPoolKey()`, `currency()`). Its hook may be an older Zora hook than the launch's (creator coins
 * outlive hook upgrades), so it is not compared: the fee it charges is priced at Zora's 1%, and a hook charging more
 * makes the buy revert on its minimum out, never overpay. Undefined when the currency answers neither getter (not a
 * coin) or is not such a coin; a failed read throws (the launch is quarantined and retried).
 */
async function creatorCoinPool(client: PublicClient, coin: Address, zora: Address): Promise<PoolKey | undefined> {
  let key: { currency0: Address; currency1: Address; fee: number; tickSpacing: number; hooks: Address }
  let currency: Address
  try {
    ;[key, currency] = await Promise.all([
      client.readContract({ address: coin, abi: ZORA_COIN_ABI, functionName: 'getPoolKey' }),
      client.readContract({ address: coin, abi: ZORA_COIN_ABI, functionName: 'currency' }),
    ])
  } catch (error) {
    if (notAnswered(error)) return undefined
    throw error
  }
  const pool = {
    currency0: getAddress(key.currency0),
    currency1: getAddress(key.currency1),
    fee: key.fee,
    tickSpacing: key.tickSpacing,
    hooks: getAddress(key.hooks),
  }
  const holds = (a: Address) => isAddressEqual(pool.currency0, a) || isAddressEqual(pool.currency1, a)
  if (!isAddressEqual(currency, zora) || !holds(coin) || !holds(zora)) return undefined
  return pool
}

/**
 * Zora coins: CoinCreatedV4 (content coins) and CreatorCoinCreated (creator coins, same fields) on the factory carry
 * the whole pool key. Deployer: the caller; the payout recipient is only claimed. ETH-backed coins pair with native ETH
 * (`currency = address(0)`, bought through the router's unwrap path); ZORA-paired coins (every creator coin) are bought
 * and priced through the ZORA route (zora-route.ts); a content coin paired with a creator coin goes one pool further:
 * ETH -> ZORA -> creator coin (its pool read from the coin) -> content coin.
 * The launch fee is Zora's documented constant schedule from the coin's creation (the launch block), the same for
 * creator coins: the hook has no view of it (ourzora/zora-protocol packages/coins/src/libs/CoinConstants.sol,
 * hooks/ZoraV4CoinHook.sol `_calculateLaunchFee`).
 */
export function createZoraAdapter(options: ZoraAdapterOptions): LaunchpadAdapter {
  const route = options.zoraRoute
  // Checked once: a route that does not chain WETH/ETH to ZORA is a configuration error, refused at start.
  const problem = route ? routeProblem([route.ethPool], options.weth, route.zora) : undefined
  if (problem) throw new Error(`the ZORA route is not usable: ${problem}`)

  const pairedOf = async (client: PublicClient, currency: Address): Promise<{ paired: PairedAsset } | { unsupported: string }> => {
    if (isAddressEqual(currency, zeroAddress)) return { paired: { kind: 'eth', address: zeroAddress } }
    if (isAddressEqual(currency, options.weth)) return { paired: { kind: 'weth', address: getAddress(currency) } }
    if (!route) return { unsupported: `pairs with ${currency} (ZORA or a creator coin): no ZORA route is configured` }
    if (isAddressEqual(currency, route.zora)) return { paired: { kind: 'zora', address: route.zora, bridge: [route.ethPool] } }
    const coinPool = await creatorCoinPool(client, currency, route.zora)
    if (!coinPool) return { unsupported: `pairs with ${currency}, neither ETH, ZORA nor a ZORA-paired coin` }
    // The creator coin's pool charges the Zora hook's fee: 1% once its own launch fee is over (a creator coin younger
    // than 10 s charges more: the buy's minimum out then reverts it, it never overpays).
    return {
      paired: { kind: 'coin', address: getAddress(currency), bridge: [route.ethPool, coinPool], bridgeFeePips: [route.ethPool.fee, ZORA_LAUNCH_FEE.endFee] },
    }
  }

  return {
    id: 'zora',
    launchEvent: { address: options.factory, events: [ZORA_COIN_CREATED_V4, ZORA_CREATOR_COIN_CREATED, ZORA_TREND_COIN_CREATED] },
    poolManager: options.poolManager,

    async decodeLaunch(log: Log, ctx: LaunchContext): Promise<DecodedLaunch | null> {
      const trend = decodeLaunchLog(log, options.factory, ZORA_TREND_COIN_CREATED)
      // A trend coin names no payout recipient or referrer; its currency is the pool's other side (ZORA on Base).
      const args =
        decodeLaunchLog(log, options.factory, ZORA_COIN_CREATED_V4) ??
        decodeLaunchLog(log, options.factory, ZORA_CREATOR_COIN_CREATED) ??
        (trend
          ? {
              caller: trend.caller,
              coin: trend.coin,
              poolKey: trend.poolKey,
              poolKeyHash: trend.poolKeyHash,
              symbol: trend.symbol,
              name: trend.symbol,
              payoutRecipient: zeroAddress as Address,
              currency: isAddressEqual(trend.poolKey.currency0, trend.coin) ? trend.poolKey.currency1 : trend.poolKey.currency0,
            }
          : null)
      if (!args) return null
      const coin = getAddress(args.coin)
      // caller is the factory's msg.sender (exact: see the Clanker adapter); payoutRecipient is a free parameter (and
      // can be changed later).
      const identity: LaunchIdentity = {
        launchpad: 'zora',
        token: coin,
        ...deployerFields(factoryCallerAttribution(ctx.attribution, args.caller)),
        claimedCreators: creatorList(args.payoutRecipient),
        name: args.name,
        symbol: args.symbol,
        ...launchOrigin(log, ctx),
      }
      const pair = await pairedOf(ctx.client, args.currency)
      if ('unsupported' in pair) return { kind: 'unsupported', launch: identity, reason: pair.unsupported }
      const { paired } = pair
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
        // A trend coin's fee after the launch fee is 0.01%, not 1%: the schedule says so (loadFeeSchedule).
        ...(trend ? { scheduleFromLogs: { kind: 'linear', startTime: identity.launchedAt, ...ZORA_LAUNCH_FEE, floorFee: ZORA_TREND_LP_FEE } } : {}),
      }
      return { kind: 'launch', candidate }
    },

    async loadFeeSchedule(_client: PublicClient, launch: LaunchCandidate): Promise<LinearFeeSchedule> {
      if (launch.scheduleFromLogs?.kind === 'linear') return launch.scheduleFromLogs
      return { kind: 'linear', startTime: launch.launchedAt, ...ZORA_LAUNCH_FEE }
    },
  }
}
