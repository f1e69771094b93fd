import type { Hash } from 'viem'
/**
 * What happened to an order in one tick: the one vocabulary of the planners (reference, columnar, executor) and of the
 * journal (`OrderDecision.verdict`). The names are persisted in existing journals and read back (GET /orders, replay):
 * never rename one. A name's position in this list is its numeric code (VerdictCode), so the list is also the
 * code -> name table.
 *
 * - `submitted`: buys this tick. The planners' buys; the executor submits up to `maxBuys` of them, the rest are `deferred`.
 * - `in_flight`: not `active` when planned, so never bought now. The planners give it to every other status: `executing`
 *   (its buy is in flight, between submission and receipt) as well as `filled`, `expired`, `failed` and `deleted`, which
 *   the executor never loads (it plans only `active` orders). The executor also records it for a planned buy whose
 *   order changed under it before submission (re-read under the order locks: executing already, PATCHed or deleted).
 * - `expired`: past its expiry (counted from launch): moves to `expired`, no more attempts.
 * - `swaps_not_allowed`: the pool does not allow a swap in the next block.
 * - `limit_below_cap`: the order's FDV limit is below the effective market cap.
 * - `no_balance`: the wallet holds no spend currency (no attempt).
 * - `fully_reserved`: nothing left to spend: the wallet's balance is reserved by in-flight buys or taken by this tick's
 *   higher-priority buys of the same wallet.
 * - `deferred`: would buy, but beyond the tick's buy cap: waits for the next tick, in priority order (executor only).
 *   Also an order the tick would buy by a single UserOperation while a released batch that includes it could still land
 *   (daemon/executor/plan-batch.ts `awaitingReleased`): it waits for a batch, which names the released one.
 * - `backing_off`: would buy, but its last buys reverted for price at this same price: it waits a few blocks before
 *   trying again at it (price-backoff.ts; executor only).
 * - `limit_below_clearing`, `gas_budget`, `no_spend`: planned (`submitted` by the planner) but left out of the block's
 *   batch by the clearing (src/domain/batch/clear-batch.ts, BatchExclusionReason, the same names): its limit is below the
 *   one clearing price the orders ranked above it make, or the batch already holds as many buyers as one transaction's
 *   gas allows, or it had nothing to spend. It stays active for the next block's batch (executor only; the batch record
 *   lists the same orders under `excluded`).
 */
export const ORDER_VERDICTS = [
  'submitted',
  'in_flight',
  'expired',
  'swaps_not_allowed',
  'limit_below_cap',
  'no_balance',
  'fully_reserved',
  'deferred',
  'backing_off',
  'limit_below_clearing',
  'gas_budget',
  'no_spend',
] as const

export type OrderVerdict = (typeof ORDER_VERDICTS)[number]

/** The position of `V` in ORDER_VERDICTS (a compile-time check that every code below is its name's position). */
type PositionOf<V, List extends readonly unknown[] = typeof ORDER_VERDICTS, Before extends unknown[] = []> = List extends readonly [infer Head, ...infer Rest]
  ? Head extends V
    ? Before['length']
    : PositionOf<V, Rest, [...Before, Head]>
  : never

/**
 * The numeric code of each verdict, as the columnar planner writes them (one byte per order per tick instead of an
 * object): its position in ORDER_VERDICTS, so `ORDER_VERDICTS[code]` is the name.
 */
export const VerdictCode = {
  submitted: 0,
  in_flight: 1,
  expired: 2,
  swaps_not_allowed: 3,
  limit_below_cap: 4,
  no_balance: 5,
  fully_reserved: 6,
  deferred: 7,
  backing_off: 8,
  limit_below_clearing: 9,
  gas_budget: 10,
  no_spend: 11,
} as const satisfies { readonly [V in OrderVerdict]: PositionOf<V> }

export type VerdictCode = (typeof VerdictCode)[OrderVerdict]

/** One order's fate in one tick. */
export interface OrderDecision {
  keyId: string
  slug: string
  verdict: OrderVerdict
  /** Spend sized for this tick, stablecoin atoms. */
  spendAtoms?: string
  /** Minimum tokens out enforced on-chain, atomic units. */
  minTokensOut?: string
  /** Priority rank within the bundle, 0 first. */
  rank?: number
  userOpHash?: Hash
}
