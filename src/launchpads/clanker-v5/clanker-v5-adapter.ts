import { type Address, getAddress, isAddressEqual, type Log, type PublicClient, toEventSelector, zeroAddress } from 'viem'
import type { ClankerV5FeeSchedule } from '../../pricing/schedules/clanker-v5.ts'
import { BASE_CLANKER_V5_FACTORY, BASE_CLANKER_V5_HOOK, BASE_POOL_MANAGER, BASE_V4_QUOTER, BASE_WETH } from '../base-addresses.ts'
import { launchOrigin } from '../decode-launch-log.ts'
import { deployerFields } from '../launch-deployer.ts'
import type { DecodedLaunch, LaunchCandidate, LaunchContext, LaunchIdentity, LaunchpadAdapter, PairedAsset } from '../launchpad-adapter.ts'
import { findInitializedPools, POOL_MANAGER_EVENTS } from '../v4-events.ts'
import { poolPointFromLogs } from './pool-point-from-logs.ts'
import { readClankerV5Fees } from './read-clanker-v5-fees.ts'

export interface ClankerV5AdapterOptions {
  /** The v5 factory: not read (no ABI is published), kept for the operator's view and the start-up check. */
  factory: Address
  /** The v5 hook: a pool initialised with it is a v5 launch. */
  hook: Address
  poolManager: Address
  weth: Address
  /** The v4 Quoter that quotes the real swap (the fee is measured, not read). */
  v4Quoter: Address
}

export const CLANKER_V5_BASE: ClankerV5AdapterOptions = {
  factory: BASE_CLANKER_V5_FACTORY,
  hook: BASE_CLANKER_V5_HOOK,
  poolManager: BASE_POOL_MANAGER,
  weth: BASE_WETH,
  v4Quoter: BASE_V4_QUOTER,
}

const INITIALIZE = POOL_MANAGER_EVENTS[0]
const INITIALIZE_TOPIC = toEventSelector(INITIALIZE)
const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)')

/** Whether `log` is a PoolManager Initialize whose `hooks` (the third data word, not indexed) is `hook`: no decoding. */
export function initializesWithHook(log: Pick<Log, 'topics' | 'data'>, hook: Address): boolean {
  if (log.topics[0] !== INITIALIZE_TOPIC) return false
  // data: fee, tickSpacing, hooks, sqrtPriceX96, tick (32 bytes each).
  const word = log.data.slice(2 + 64 * 2, 2 + 64 * 3)
  return word.length === 64 && isAddressEqual(`0x${word.slice(24)}`, hook)
}

/** The currency the launch transaction minted (a Transfer from address 0 emitted by it): the launched token. */
function mintedIn(logs: readonly Log[], currencies: readonly Address[]): Address | undefined {
  const minted = currencies.filter((c) =>
    logs.some((l) => isAddressEqual(l.address, c) && l.topics[0] === TRANSFER_TOPIC && l.topics[1] !== undefined && BigInt(l.topics[1]) === 0n),
  )
  return minted.length === 1 ? minted[0] : undefined
}

/**
 * Clanker v5 (Clanker's current version on Base; ../shared/facts/base-today.md "Clanker v5"). No v5 source, ABI or SDK
 * is published, so nothing of the factory is decoded: a v5 launch is the v4 PoolManager's `Initialize` whose `hooks`
 * is the v5 hook (the documentation: every v5 token's whole supply is in one v4 pool with the v5 hook), the launched
 * token is the currency that is not the pair token (the one the transaction minted when neither is ETH or WETH), the
 * deployer is the transaction's (attributeLaunch: its sender, or the smart account of the ERC-4337 operation whose
 * execution initialised the pool), and the fee is measured by quoting the real swap (read-clanker-v5-fees.ts). Pools
 * paired with ETH (native, as the documentation's "native coin") or WETH are bought; a stablecoin or another token pair
 * has no route yet and is reported unsupported with its pair.
 */
export function createClankerV5Adapter(options: ClankerV5AdapterOptions): LaunchpadAdapter {
  return {
    id: 'clanker_v5',
    launchEvent: { address: options.poolManager, events: [INITIALIZE] },
    poolManager: options.poolManager,
    isLaunchLog: (log) => initializesWithHook(log, options.hook),

    async decodeLaunch(log: Log, ctx: LaunchContext): Promise<DecodedLaunch | null> {
      if (!isAddressEqual(log.address, options.poolManager) || !initializesWithHook(log, options.hook)) return null
      const pool = findInitializedPools([log], options.poolManager)[0]
      if (!pool) return null
      const { currency0, currency1 } = pool.poolKey
      const pairOf = (c: Address): PairedAsset | undefined =>
        isAddressEqual(c, zeroAddress)
          ? { kind: 'eth', address: zeroAddress }
          : isAddressEqual(c, options.weth)
            ? { kind: 'weth', address: getAddress(c) }
            : undefined
      const paired0 = pairOf(currency0)
      const paired1 = pairOf(currency1)
      // The pair token is ETH or WETH when one of the two is; otherwise the token is the one this transaction minted.
      const token = paired0 ? currency1 : paired1 ? currency0 : (mintedIn(ctx.txLogs, [currency0, currency1]) ?? currency1)
      const paired = paired0 ?? paired1
      const identity: LaunchIdentity = {
        launchpad: 'clanker_v5',
        token: getAddress(token),
        ...deployerFields(ctx.attribution),
        claimedCreators: [],
        name: null,
        symbol: null,
        ...launchOrigin(log, ctx),
      }
      if (!paired) {
        const pair = isAddressEqual(token, currency0) ? currency1 : currency0
        return { kind: 'unsupported', launch: identity, reason: `a Clanker v5 pool paired with ${pair}, neither ETH nor WETH: no buy route` }
      }
      const tokenIsCurrency0 = isAddressEqual(currency0, token)
      // What the launch transaction's PoolManager logs say a buy meets: lets the fee's quotes go with the state read.
      const hint = poolPointFromLogs(ctx.txLogs, options.poolManager, pool.poolId, !tokenIsCurrency0)
      const candidate: LaunchCandidate = {
        ...identity,
        poolKey: pool.poolKey,
        poolId: pool.poolId,
        paired,
        tokenIsCurrency0,
        feeSources: { hook: getAddress(options.hook), v4Quoter: getAddress(options.v4Quoter) },
        ...(hint ? { poolPointFromLogs: { sqrtPriceX96: hint.sqrtPriceX96.toString(), liquidity: hint.liquidity.toString(), tick: hint.tick } } : {}),
      }
      return { kind: 'launch', candidate }
    },

    async loadFeeSchedule(client: PublicClient, launch: LaunchCandidate): Promise<ClankerV5FeeSchedule> {
      const hint = launch.poolPointFromLogs
      return readClankerV5Fees(
        client,
        { poolManager: options.poolManager, v4Quoter: options.v4Quoter },
        launch,
        hint && { sqrtPriceX96: BigInt(hint.sqrtPriceX96), liquidity: BigInt(hint.liquidity), tick: hint.tick },
      )
    },
  }
}
