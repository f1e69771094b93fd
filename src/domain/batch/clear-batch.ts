import type { ExecutableOrder } from '../execution/executable-order.ts'
import type { OrderVerdict } from '../execution/verdicts.ts'
import { PLATFORM_FEE_BPS } from '../execution/platform-fee.ts'
import { type PrioritisationPolicy, priorityPermutation, spendThenLimitPolicy } from '../execution/prioritisation.ts'
import { allocateBatch, type BatchShare } from './batch-allocation.ts'
import { meetsLowestLimit } from './clearing-bound.ts'

/** An eligible order and what it may spend now (sizeSpend: its cap bounded by its wallet's free balance). */
export interface BatchCandidate<O extends ExecutableOrder = ExecutableOrder> {
  order: O
  /** Stablecoin atoms. */
  spend: bigint
}

/**
 * Why an eligible order is not in this block's batch; it stays eligible for the next one.
 * - `limit_below_clearing`: adding it to the orders ranked above it would push the one clearing price above its limit or
 *   another included order's.
 * - `gas_budget`: the batch already holds as many buyers as one transaction's gas allows.
 * - `no_spend`: nothing to spend (a spend of 0).
 * Each is also the order's verdict in the tick decision (verdicts.ts: one vocabulary).
 */
export type BatchExclusionReason = Extract<OrderVerdict, 'limit_below_clearing' | 'gas_budget' | 'no_spend'>

export interface BatchExclusion<O extends ExecutableOrder = ExecutableOrder> {
  candidate: BatchCandidate<O>
  reason: BatchExclusionReason
  /** Its place in the priority order (0 first). */
  rank: number
}

export interface BatchInclusion<O extends ExecutableOrder = ExecutableOrder> extends BatchShare {
  candidate: BatchCandidate<O>
  rank: number
}

export interface BatchClearing<O extends ExecutableOrder = ExecutableOrder> {
  /** In priority order, each with its predicted share of the swap's output. */
  included: BatchInclusion<O>[]
  /** In priority order. */
  excluded: BatchExclusion<O>[]
  totalIn: bigint
  /** What the pool function predicts the one swap returns (before the fee). */
  tokensOut: bigint
  /** The bound committed with the batch: the lowest limit among the included, null when none has one. */
  lowestLimit: bigint | null
  minSpend: bigint
  feeTotal: bigint
  dust: bigint
}

export interface ClearBatchInput<O extends ExecutableOrder = ExecutableOrder> {
  candidates: readonly BatchCandidate<O>[]
  /**
   * Token atoms (before the platform fee) the route returns for this many stablecoin atoms in, in the block the batch
   * lands in: a pool formula or a quote. Must be non-decreasing with a non-increasing average (out / in), as every
   * swap is: a bigger swap moves the price further.
   */
  tokensOut: (stablecoinIn: bigint) => bigint
  totalSupply: bigint
  /** Most buyers one batch (one transaction) may hold: the gas budget, see maxBuyersPerBatch. */
  maxBuyers: number
  feeBps?: bigint
  policy?: PrioritisationPolicy
}

/**
 * Which eligible orders buy together in one swap this block, and what each gets.
 *
 * The algorithm: walk the orders in the spec's priority order (the executor's policy, prioritisation.ts: larger spend
 * first, then higher limit, no limit highest, then input order); add an order when the set so far plus it still clears
 * within every included limit (meetsLowestLimit on the pool's output for the summed spend); otherwise leave it out
 * (`limit_below_clearing`) and go on, since a smaller order further down may still fit. Once the batch holds
 * `maxBuyers`, every order left is out for `gas_budget`.
 *
 * Terminates: one pass, each order decided once, at most one pool evaluation per order considered (n at most): orders
 * added while no included order has a limit are not priced one by one, only their total once (the same decisions for
 * any pool that returns tokens for a positive amount; a pool returning none for the batch leaves every order out).
 * Invariant: the included set clears within every included limit after every step (it only grows by a set that does).
 * What it optimises: the result is the lexicographically first feasible set in priority order, i.e. no left-out order
 * could take part together with all the orders ranked above it that are in. That is the spec's rule: a higher-ranked
 * order is never displaced by lower-ranked ones. It does not maximise volume or the number of buyers (a large order
 * with a tight limit, ranked first, may keep smaller unlimited ones out of this block; they buy in the next block's
 * batch at the price after it, as they would have after it in the sequential executor).
 * Because feasibility is closed under removal for such pools (fewer orders: a lower price, a higher lowest limit, a
 * higher smallest spend), an order left out at its turn could not have been added later either.
 */
export function clearBatch<O extends ExecutableOrder>(input: ClearBatchInput<O>): BatchClearing<O> {
  const steps = clearingSteps(input)
  let step = steps.next()
  while (!step.done) step = steps.next(input.tokensOut(step.value))
  return step.value
}

/** clearBatch with a pool function that answers asynchronously (a quote by simulating the real swap). Same decisions. */
export async function clearBatchQuoted<O extends ExecutableOrder>(
  input: Omit<ClearBatchInput<O>, 'tokensOut'> & { tokensOut: (stablecoinIn: bigint) => Promise<bigint> },
): Promise<BatchClearing<O>> {
  const steps = clearingSteps(input)
  let step = steps.next()
  while (!step.done) step = steps.next(await input.tokensOut(step.value))
  return step.value
}

/** The algorithm once, for both: it yields each amount it needs priced and is resumed with the pool's answer. */
function* clearingSteps<O extends ExecutableOrder>(input: Omit<ClearBatchInput<O>, 'tokensOut'>): Generator<bigint, BatchClearing<O>, bigint> {
  const { candidates, totalSupply, maxBuyers } = input
  if (!Number.isInteger(maxBuyers) || maxBuyers < 0) throw new RangeError('maxBuyers must be a non-negative integer')
  if (totalSupply <= 0n) throw new RangeError('totalSupply must be positive')
  const permutation = priorityPermutation(
    candidates.map((c) => c.order),
    input.policy ?? spendThenLimitPolicy,
  )
  const chosen: { candidate: BatchCandidate<O>; rank: number }[] = []
  const excluded: BatchExclusion<O>[] = []
  let totalIn = 0n
  let out = 0n
  let lowestLimit: bigint | null = null
  let minSpend = 0n
  let priced = false
  for (let rank = 0; rank < permutation.length; rank++) {
    const candidate = candidates[permutation[rank]!]!
    if (candidate.spend <= 0n) {
      excluded.push({ candidate, reason: 'no_spend', rank })
      continue
    }
    if (chosen.length >= maxBuyers) {
      excluded.push({ candidate, reason: 'gas_budget', rank })
      continue
    }
    const limit = candidate.order.limitFdv
    const nextIn = totalIn + candidate.spend
    const nextLimit: bigint | null = limit === null ? lowestLimit : lowestLimit === null || limit < lowestLimit ? limit : lowestLimit
    const nextMin = chosen.length === 0 || candidate.spend < minSpend ? candidate.spend : minSpend
    // No included limit yet (nor this order's): nothing to check but that the pool returns tokens at all, which the
    // total's price below says; so a run of unlimited orders costs one pool evaluation, not one each (a quote by the
    // real swap is a round trip to the node).
    const nextOut: bigint | undefined = nextLimit === null ? undefined : yield nextIn
    if (nextOut !== undefined && !meetsLowestLimit({ totalIn: nextIn, tokensOut: nextOut, lowestLimit: nextLimit, minSpend: nextMin, totalSupply })) {
      excluded.push({ candidate, reason: 'limit_below_clearing', rank })
      continue
    }
    chosen.push({ candidate, rank })
    totalIn = nextIn
    out = nextOut ?? 0n
    priced = nextOut !== undefined
    lowestLimit = nextLimit
    minSpend = nextMin
  }
  if (chosen.length > 0 && !priced) out = yield totalIn
  return finishClearing({ chosen, excluded, totalIn, out, lowestLimit, minSpend }, input.feeBps ?? PLATFORM_FEE_BPS)
}

/** Where the walk left the batch: the orders in (in priority order) and out, and what the included ones add up to. */
export interface ClearingWalk<O extends ExecutableOrder = ExecutableOrder> {
  chosen: { candidate: BatchCandidate<O>; rank: number }[]
  excluded: BatchExclusion<O>[]
  totalIn: bigint
  lowestLimit: bigint | null
  minSpend: bigint
}

/**
 * The clearing's end, shared by the walk priced as it goes (clearingSteps) and the walk done ahead of the quote
 * (clear-batch-ahead.ts): `out`, the pool's answer for `totalIn`, is the last one the walk asked (or, for a walk that
 * needed no price on the way, its one question); a pool returning nothing for the batch leaves every order out; then the
 * pro-rata shares. `walk.excluded` is not changed (a copy is sorted when the chosen are moved into it).
 */
export function finishClearing<O extends ExecutableOrder>(walk: ClearingWalk<O> & { out: bigint }, feeBps: bigint): BatchClearing<O> {
  let { chosen, excluded, totalIn, out, minSpend } = walk
  if (chosen.length > 0 && out <= 0n) {
    // The pool returns nothing for the batch (no liquidity): nobody's limit can be met, nothing is bought.
    excluded = [...excluded]
    for (const c of chosen) excluded.push({ ...c, reason: 'limit_below_clearing' })
    excluded.sort((a, b) => a.rank - b.rank)
    chosen = []
    totalIn = 0n
    out = 0n
    minSpend = 0n
  }
  if (chosen.length === 0) out = 0n
  const allocation = allocateBatch(
    out,
    chosen.map((c) => c.candidate.spend),
    feeBps,
  )
  return {
    // Written out, not spread: two object spreads per buyer took 10-34 ms for 5,000 (V8 copies them key by key), the
    // largest part of a launch's clearing (docs/execution.md §8, "The first send without a read before it").
    included: chosen.map((c, i) => {
      const share = allocation.shares[i]!
      return { candidate: c.candidate, rank: c.rank, gross: share.gross, fee: share.fee, net: share.net }
    }),
    excluded,
    totalIn,
    tokensOut: out,
    lowestLimit: walk.lowestLimit,
    minSpend,
    feeTotal: allocation.feeTotal,
    dust: allocation.dust,
  }
}

/**
 * The gas budget as a buyer count: how many buyers fit one transaction under `txGasCap` (EIP-7825's 2^24 on Base,
 * src/chain/tx-gas-cap.ts) given the batch's fixed cost (the swap, the event) and its cost per buyer, both measured on
 * the devnet (docs/execution.md, "One price per block: the batch"), with `margin` (e.g. 0.9) left for price movement
 * of the real USDC's heavier transferFrom and the route's hooks.
 */
export function maxBuyersPerBatch(input: { txGasCap: bigint; fixedGas: bigint; perBuyerGas: bigint; margin?: number }): number {
  const { txGasCap, fixedGas, perBuyerGas } = input
  if (perBuyerGas <= 0n) throw new RangeError('perBuyerGas must be positive')
  const usable = BigInt(Math.floor(Number(txGasCap) * (input.margin ?? 0.9)))
  return usable <= fixedGas ? 0 : Number((usable - fixedGas) / perBuyerGas)
}
