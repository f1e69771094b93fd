import { getAddress, parseAbi, toEventSelector, zeroAddress, type Address, type Hex, type Log } from 'viem'
import { decodeEventLogCached } from '../chain/decode-event-log.ts'

/** The conventional burn address: never a creator. */
const DEAD_ADDRESS = '0x000000000000000000000000000000000000dead'
import type { PoolKey } from './launchpad-adapter.ts'

export const POOL_MANAGER_EVENTS = parseAbi([
  'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
  'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
])

/** Initialize's topic 0: the PoolManager's other events are skipped before decoding (below). */
const INITIALIZE_TOPIC = toEventSelector(POOL_MANAGER_EVENTS[0])

export interface InitializedPool {
  poolId: Hex
  poolKey: PoolKey
  sqrtPriceX96: bigint
  tick: number
}

/** Every v4 pool initialised by `poolManager` among `logs` (typically one transaction's logs). */
export function findInitializedPools(logs: readonly Log[], poolManager: Address): InitializedPool[] {
  const manager = poolManager.toLowerCase()
  const pools: InitializedPool[] = []
  for (const log of logs) {
    if (log.address.toLowerCase() !== manager) continue
    // Not decoded to be refused: viem's refusal is an error built with its message and stack (~10 µs each, measured
    // 2026-11-27) for every ModifyLiquidity, Swap and ERC-6909 Transfer of a launch transaction, on the launch's
    // detection path (seen in the split bench's CPU profile).
    if (log.topics[0] !== INITIALIZE_TOPIC) continue
    try {
      const { eventName, args } = decodeEventLogCached({ abi: POOL_MANAGER_EVENTS, data: log.data, topics: log.topics, strict: true })
      if (eventName !== 'Initialize') continue
      pools.push({
        poolId: args.id,
        poolKey: {
          currency0: getAddress(args.currency0),
          currency1: getAddress(args.currency1),
          fee: args.fee,
          tickSpacing: args.tickSpacing,
          hooks: getAddress(args.hooks),
        },
        sqrtPriceX96: args.sqrtPriceX96,
        tick: args.tick,
      })
    } catch {
      // another PoolManager event
    }
  }
  return pools
}

/** Distinct, checksummed, without the zero and dead addresses (never a creator). */
export function creatorList(...candidates: Array<string | null | undefined>): Address[] {
  const seen = new Set<string>()
  const out: Address[] = []
  for (const c of candidates) {
    if (!c) continue
    const lower = c.toLowerCase()
    if (lower === zeroAddress || lower === DEAD_ADDRESS) continue
    if (seen.has(lower)) continue
    seen.add(lower)
    out.push(getAddress(c))
  }
  return out
}
