import { PIPS } from './fee-fraction.ts'
import { fraction, multiply, oneMinus, toNumber } from './fraction.ts'
import type { FeeQuote } from './schedules/schedule-kind.ts'

/**
 * The v4 protocol fee, pips, that a swap in one direction pays: slot0's `protocolFee` packs two 12-bit fees, the lower
 * for zeroForOne swaps, the upper for oneForZero ones (@uniswap/v4-core 1.0.2 src/libraries/ProtocolFeeLibrary.sol
 * getZeroForOneFee / getOneForZeroFee; at most MAX_PROTOCOL_FEE = 1,000 each).
 */
export const directionalProtocolFee = (slot0ProtocolFee: number, zeroForOne: boolean): number =>
  zeroForOne ? slot0ProtocolFee & 0xfff : slot0ProtocolFee >> 12

/** The protocol fee a BUY of the launched token pays: paired -> token is zeroForOne when the token is currency1. */
export const buyProtocolFee = (slot0ProtocolFee: number, tokenIsCurrency0: boolean): number => directionalProtocolFee(slot0ProtocolFee, !tokenIsCurrency0)

/**
 * The fee a v4 pool charges a swap, pips, LP and protocol fee together (v4-core src/libraries/Pool.sol `swap`:
 * `swapFee = protocolFee == 0 ? lpFee : protocolFee.calculateSwapFee(lpFee)`, ProtocolFeeLibrary.calculateSwapFee:
 * `protocolFee + lpFee - protocolFee * lpFee / 1e6`, the product floored).
 */
export const v4SwapFeePips = (protocolFee: number, lpFee: number): number =>
  protocolFee === 0 ? lpFee : protocolFee + lpFee - Math.floor((protocolFee * lpFee) / PIPS)

/**
 * A quote with the pool's protocol fee in it. Every schedule kind prices the pool's own charge as (1 - lpFee) of what
 * reaches the pool; with a protocol fee the pool charges swapFee instead, so what the buyer keeps is scaled by
 * (1e6 - swapFee) / (1e6 - lpFee), exactly (Clanker's hook fee before the pool and rehype's after it are untouched).
 * The LP fee the quote reports stays the LP fee (what the Swap event reports as `fee` is the swap fee: see v4 Pool.sol).
 */
export function withProtocolFee(quote: FeeQuote, protocolFee: number): FeeQuote {
  if (protocolFee === 0 || quote.lpFee >= PIPS) return quote
  const swapFee = v4SwapFeePips(protocolFee, quote.lpFee)
  const kept = multiply(oneMinus(quote.totalFee), fraction(BigInt(PIPS - swapFee), BigInt(PIPS - quote.lpFee)))
  const totalFee = oneMinus(kept)
  return { ...quote, totalFee, totalFraction: toNumber(totalFee) }
}

/**
 * A launch record whose schedule carries the pool's protocol fee for buys, from slot0's packed `protocolFee` (read at
 * launch, or from the PoolManager's ProtocolFeeUpdated later: v4 pools start at 0 and the controller sets it, v4-core
 * src/ProtocolFees.sol setProtocolFee). A zero fee leaves the field out.
 */
export function withLaunchProtocolFee<L extends { token: string; poolKey: { currency0: string }; feeSchedule: unknown }>(
  launch: L,
  slot0ProtocolFee: number,
): L {
  const { protocolFee: _previous, ...schedule } = launch.feeSchedule as { protocolFee?: number }
  const fee = buyProtocolFee(slot0ProtocolFee, launch.poolKey.currency0.toLowerCase() === launch.token.toLowerCase())
  return { ...launch, feeSchedule: fee === 0 ? schedule : { ...schedule, protocolFee: fee } }
}
