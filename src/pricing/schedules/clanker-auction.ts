import { clankerTotalFeeFraction } from '../fee-fraction.ts'
import { toNumber } from '../fraction.ts'
import type { ScheduleKind } from './schedule-kind.ts'

/**
 * Clanker v4.1 on Base: the ClankerSniperAuctionV2 MEV module (clanker-devco/v4-contracts,
 * src/mev-modules/ClankerSniperAuctionV2.sol; the hook's src/hooks/ClankerHookV2.sol). Read from the module's state
 * as of the last processed block, and read again each block while an auction can still happen.
 * - Up to and in `nextAuctionBlock` a plain swap reverts (NotAuctionBlock before it; in it, a swap without a payee in
 *   its hook data). A won round moves `nextAuctionBlock` 2 blocks on, up to `maxRounds`.
 * - After an unbid auction block (or after the last round) swaps are allowed and the sniper fee decays from `decayFrom`
 *   (the last won round's block time, or the launch's): endingFee + (startingFee - endingFee) * ((D - e) / D)^2 in the
 *   module's 1e18 fixed-point steps; once e > D the module is off and only the LP fee applies.
 * - The module is off for good `MAX_MEV_MODULE_DELAY` (120 s) after the pool's creation: no gating, no sniper fee.
 * - The sniper fee replaces the LP fee only when higher, and is ignored above MAX_MEV_LP_FEE (800,000).
 */
export interface ClankerAuctionSchedule {
  kind: 'clanker_auction'
  startingFee: number
  endingFee: number
  secondsToDecay: number
  /** LP fee on buys (pairedFee), pips. */
  lpFee: number
  /** While auctions can still run: the next auction block (decimal); null once the decay has started. */
  nextAuctionBlock: string | null
  /** Unix seconds the decay counts from: poolDecayStartTime once set, else what it becomes if the next auction passes unbid. */
  decayFrom: number
  /** Unix seconds from which the MEV module is off (pool creation + 120 s). */
  moduleEndsAt: number
  /**
   * Which module gates the blocks, when not SniperAuctionV2 (absent): a Clanker v4.0 module without a fee of its own,
   * mapped onto this kind with zero fees and no decay (src/launchpads/clanker/read-v40-module.ts): `block_delay`
   * (ClankerMevBlockDelay: nextAuctionBlock is the last locked block, never refreshed), `sniper_auction_v0`
   * (ClankerSniperAuctionV0: refreshed from its getters as V2), `time_delay` and `unknown` (gated by time: swapsFrom).
   */
  module?: ClankerV40Module
}

/** The Clanker v4.0 MEV modules a `clanker_auction` schedule may stand for (see ClankerAuctionSchedule.module). */
export type ClankerV40Module = 'block_delay' | 'sniper_auction_v0' | 'time_delay' | 'unknown'

/** ClankerHookV2.MAX_MEV_MODULE_DELAY, seconds. */
export const CLANKER_MAX_MEV_MODULE_DELAY = 120
/** ClankerHookV2.MAX_MEV_LP_FEE: a module fee above it is ignored. */
export const CLANKER_MAX_MEV_LP_FEE = 800_000

const WAD = 10n ** 18n

/** The module's decaying fee at `timestamp` (its _calculateFee, same integer steps); 0 once the decay is over. */
export function clankerAuctionDecayFeeAt(s: ClankerAuctionSchedule, timestamp: number): number {
  if (timestamp < s.decayFrom) return s.startingFee
  const elapsed = timestamp - s.decayFrom
  // secondsToDecay 0: a v4.0 module without a fee (SniperAuctionV2 refuses a zero decay: TimeDecayMustBeGreaterThanZero).
  if (elapsed > s.secondsToDecay || s.secondsToDecay === 0) return 0
  const normalized = (BigInt(s.secondsToDecay - elapsed) * WAD) / BigInt(s.secondsToDecay)
  const squared = (normalized * normalized) / WAD
  return s.endingFee + Number((BigInt(s.startingFee - s.endingFee) * squared) / WAD)
}

/** Whether a plain swap landing in block `number` at `timestamp` reverts on the auction gating. */
const gated = (s: ClankerAuctionSchedule, next: { number: bigint; timestamp: number }): boolean =>
  next.timestamp < s.moduleEndsAt && s.nextAuctionBlock !== null && next.number <= BigInt(s.nextAuctionBlock)

/**
 * Seconds a v4.0 module's time gate (TimeDelay's unlock, an unknown module's 120 s) is still block-ticked after it
 * opens: `settled` must hold only once the previous tick already saw the gate open (else the indexer skips the block
 * whose tick first allows swaps), and a pure schedule does not know the block time; 30 s covers any chain's.
 */
export const CLANKER_GATE_SETTLE_SECONDS = 30

/**
 * Settled for a v4.0 module (no fee, only a gate): once the block before `next` was open too, so the tick that first
 * allows swaps is always made: past the gate block + 1 (or no gate block), and past any time gate (the module's end,
 * a swapsFrom) by CLANKER_GATE_SETTLE_SECONDS.
 */
function v40Settled(s: ClankerAuctionSchedule & { swapsFrom?: number }, next: { number: bigint; timestamp: number }): boolean {
  const afterTime = (t: number) => next.timestamp >= t + CLANKER_GATE_SETTLE_SECONDS
  if (afterTime(s.moduleEndsAt)) return true
  if (s.swapsFrom !== undefined && !afterTime(s.swapsFrom)) return false
  return s.nextAuctionBlock === null || next.number > BigInt(s.nextAuctionBlock) + 1n
}

export const clankerAuctionSchedule: ScheduleKind<ClankerAuctionSchedule> = {
  feeAt(s, next) {
    const moduleOn = next.timestamp < s.moduleEndsAt
    const closed = gated(s, next)
    // In a gated block only an auction winner swaps, at startingFee: the quote says what that block costs.
    const moduleFee = !moduleOn ? 0 : closed ? s.startingFee : clankerAuctionDecayFeeAt(s, next.timestamp)
    const sniperFee = moduleFee > CLANKER_MAX_MEV_LP_FEE ? 0 : moduleFee
    const lpFee = Math.max(sniperFee, s.lpFee)
    const totalFee = clankerTotalFeeFraction(lpFee)
    return { lpFee, sniperFee, totalFee, totalFraction: toNumber(totalFee), swapsAllowed: !closed }
  },
  settled: (s, next) =>
    s.module !== undefined ? v40Settled(s, next) : next.timestamp >= s.moduleEndsAt || (!gated(s, next) && next.timestamp > s.decayFrom + s.secondsToDecay),
  // A round can be won only in the auction block itself: once the block after it is processed, nothing changes any more
  // but time (an unbid auction block leaves the state as it was; the next swap starts the decay from decayFrom).
  needsRefresh: (s, next) => s.nextAuctionBlock !== null && next.timestamp < s.moduleEndsAt && next.number <= BigInt(s.nextAuctionBlock) + 1n,
}
