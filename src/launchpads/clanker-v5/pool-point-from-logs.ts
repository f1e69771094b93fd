import { type Address, type decodeEventLog, type Hex, type Log, parseAbi } from 'viem'
import { decodeEventLogCached } from '../../chain/decode-event-log.ts'
import { eventTopicsOf, mayBeEventOf } from '../../chain/event-topics.ts'
import { getSqrtPriceAtTick } from '../../pricing/v4/tick-math.ts'
import type { PoolPoint } from './fee-from-quote.ts'

/** What a small buy of a pool meets, as a transaction's PoolManager logs tell it, with the tick they leave it at. */
export interface PoolPointHint extends PoolPoint {
  tick: number
}

// v4-core IPoolManager: the events that set a pool's price and its positions (Donate changes neither).
const EVENTS = parseAbi([
  'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
  'event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
  'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
])
const EVENT_TOPICS = eventTopicsOf(EVENTS)

/**
 * The point a small buy of pool `poolId` meets after `logs` (the launch transaction's, in log order), computed as
 * readPoolPoint reads it (slot0's price, the in-range liquidity, less the upper tick's liquidityNet when a buy that
 * lowers the price starts on that tick), or undefined when the logs do not initialise the pool (then its positions
 * are not all known). A hint only: it chooses the fee probe's amount so the quotes can be asked in the same round as
 * the pool's state (read-clanker-v5-fees.ts), and the state read decides whether it was right. Wrong (another
 * transaction of the block moved the pool, a position this computation does not see) costs the round it would have
 * saved, never a different measurement.
 */
export function poolPointFromLogs(logs: readonly Log[], poolManager: Address, poolId: Hex, zeroForOne: boolean): PoolPointHint | undefined {
  const manager = poolManager.toLowerCase()
  let price: { sqrtPriceX96: bigint; tick: number } | undefined
  const positions: Array<{ lower: number; upper: number; delta: bigint }> = []
  for (const log of logs) {
    if (log.address.toLowerCase() !== manager || log.topics[1]?.toLowerCase() !== poolId.toLowerCase()) continue
    if (!mayBeEventOf(EVENT_TOPICS, log)) continue
    let decoded: ReturnType<typeof decodeEventLog<typeof EVENTS>>
    try {
      decoded = decodeEventLogCached({ abi: EVENTS, data: log.data, topics: log.topics, strict: true })
    } catch {
      continue
    }
    if (decoded.eventName === 'Initialize' || decoded.eventName === 'Swap') price = { sqrtPriceX96: decoded.args.sqrtPriceX96, tick: decoded.args.tick }
    // Positions before the Initialize cannot exist (modifyLiquidity requires an initialised pool).
    else if (price) positions.push({ lower: decoded.args.tickLower, upper: decoded.args.tickUpper, delta: decoded.args.liquidityDelta })
    if (decoded.eventName === 'Initialize') positions.length = 0
  }
  if (!price) return undefined
  const { sqrtPriceX96, tick } = price
  // v4-core: the in-range liquidity counts the positions with tickLower <= tick < tickUpper.
  let liquidity = positions.reduce((sum, p) => (p.lower <= tick && tick < p.upper ? sum + p.delta : sum), 0n)
  if (zeroForOne && sqrtPriceX96 === getSqrtPriceAtTick(tick)) {
    // liquidityNet of the tick: added where positions start, removed where they end.
    const net = positions.reduce((sum, p) => sum + (p.lower === tick ? p.delta : 0n) - (p.upper === tick ? p.delta : 0n), 0n)
    liquidity -= net
  }
  return { sqrtPriceX96, liquidity, tick }
}
