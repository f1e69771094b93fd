import { effectiveMarketCap } from '../../../pricing/effective-market-cap.ts'
import { type FeeSchedule, feeAt, scheduleSettled } from '../../../pricing/fee-schedule.ts'
import { floorOf, fraction, type Fraction, oneMinus } from '../../../pricing/fraction.ts'

/** One block of a launch in which a plain buy is allowed, and the total fee such a buy pays. */
export interface FeeCurvePoint {
  /** Blocks after the launch block (the launch block is 0). */
  block: number
  afterSeconds: number
  totalFee: Fraction
}

/** Safety bound on the blocks walked (a schedule that never settles stops here): 10 minutes of 2-second blocks. */
const MAX_CURVE_BLOCKS = 300

/**
 * The blocks after a launch in which plain buys are allowed, up to and including the first one from which the fee no
 * longer changes (the last point is the settled fee), for a launch mined in block `launch.number` at `launch.timestamp`
 * with a block every `blockSeconds`. Pure: evaluates the schedule's maths (src/pricing/schedules) block by block.
 */
export function launchFeeCurve(schedule: FeeSchedule, launch: { number: bigint; timestamp: number }, blockSeconds: number): FeeCurvePoint[] {
  if (!Number.isInteger(blockSeconds) || blockSeconds < 1) throw new RangeError('blockSeconds must be a whole number of seconds, at least 1')
  const points: FeeCurvePoint[] = []
  for (let block = 1; block <= MAX_CURVE_BLOCKS; block++) {
    const next = { number: launch.number + BigInt(block), timestamp: launch.timestamp + block * blockSeconds }
    const quote = feeAt(schedule, next)
    if (quote.swapsAllowed) points.push({ block, afterSeconds: block * blockSeconds, totalFee: quote.totalFee })
    if (points.length > 0 && scheduleSettled(schedule, next)) break
  }
  return points
}

/** The first point of the curve from which the fee stays what it ends at (undefined for an empty curve). */
export function settledPoint(curve: readonly FeeCurvePoint[]): FeeCurvePoint | undefined {
  const last = curve[curve.length - 1]
  if (!last) return undefined
  let index = curve.length - 1
  const same = (point: FeeCurvePoint) => point.totalFee.numerator * last.totalFee.denominator === last.totalFee.numerator * point.totalFee.denominator
  while (index > 0 && same(curve[index - 1]!)) index -= 1
  return curve[index]
}

/** Where one price limit meets the launch's fee curve. */
export interface CurvePlacement {
  /** The highest spot (pool) FDV at which the limit is met in the first block buys are allowed; null: no limit. */
  maxSpotFdvAtFirstSwap: bigint | null
  /** The same once the launch fee has decayed (the settled fee); null: no limit. */
  maxSpotFdvSettled: bigint | null
  /** At the launch's starting FDV: the first block whose fee lets the limit buy; null: never at that price (it waits
   *  for the price to fall to maxSpotFdvSettled), or no starting FDV given. */
  atStart: FeeCurvePoint | null
}

/**
 * The highest spot FDV whose effective market cap under `totalFee` is at or below `limit`: floor(limit * (1 - fee)),
 * the exact inverse of effectiveMarketCap's rounding up (so `effectiveMarketCap(result, fee) <= limit` always holds and
 * one unit more breaks it). A fee of 100% or more leaves no finite cap: 0n (no price is low enough).
 */
export function maxSpotFdvFor(limit: bigint, totalFee: Fraction): bigint {
  if (totalFee.numerator >= totalFee.denominator) return 0n
  return floorOf(fraction(limit * oneMinus(totalFee).numerator, oneMinus(totalFee).denominator))
}

/**
 * Places a price limit (an order's maxFdv, micro-USD; null: none) on a launch's fee curve: which spot FDV it needs at
 * the first allowed buy and once the fee settled, and, from `startFdv` (the launch's starting spot FDV; null: unknown),
 * the first block in which it becomes eligible. The price impact of other buys is not in it: the placement is at the
 * starting price (docs/launch-methods.md, launch simulator).
 */
export function placeOnFeeCurve(limit: bigint | null, curve: readonly FeeCurvePoint[], startFdv: bigint | null): CurvePlacement {
  const first = curve[0]
  const settled = curve[curve.length - 1]
  if (!first || !settled) return { maxSpotFdvAtFirstSwap: null, maxSpotFdvSettled: null, atStart: null }
  if (limit === null) return { maxSpotFdvAtFirstSwap: null, maxSpotFdvSettled: null, atStart: startFdv === null ? null : first }
  const atStart =
    startFdv === null
      ? null
      : (curve.find((point) => {
          const cap = effectiveMarketCap(startFdv, point.totalFee)
          return cap !== null && cap <= limit
        }) ?? null)
  return {
    maxSpotFdvAtFirstSwap: maxSpotFdvFor(limit, first.totalFee),
    maxSpotFdvSettled: maxSpotFdvFor(limit, settled.totalFee),
    atStart,
  }
}
