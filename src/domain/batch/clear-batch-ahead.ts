import type { ExecutableOrder } from '../execution/executable-order.ts'
import { PLATFORM_FEE_BPS } from '../execution/platform-fee.ts'
import { type PrioritisationPolicy, priorityPermutation, spendThenLimitPolicy } from '../execution/prioritisation.ts'
import { type BatchCandidate, type BatchClearing, type BatchExclusion, type ClearingWalk, finishClearing } from './clear-batch.ts'

/**
 * The clearing's price-independent part, done before the pool's answer is known (issue 23 item 3: a launch tick runs it
 * while its quote is out, docs/execution.md §8 "The launch tick's CPU, ahead"): the priority order and the walk over
 * the candidates. What it was computed from is kept, so that it is used only for exactly the same inputs.
 */
export interface ClearingAhead<O extends ExecutableOrder = ExecutableOrder> {
  candidates: readonly BatchCandidate<O>[]
  maxBuyers: number
  policy: PrioritisationPolicy
  walk: ClearingWalk<O>
  /**
   * The priority order the walk took: the candidate at rank r is `candidates[permutation[r]]`. A split that clears on
   * this walk finds each included or excluded entry's place among its own candidates by its rank (the same inputs,
   * index for index: `sameClearingInputs`), with no map by order id (docs/execution.md §8, "The launch tick's split
   * on the readied walk").
   */
  permutation: Uint32Array
}

/**
 * The walk of clearBatch (clear-batch.ts) without a pool: the same priority order, the same `no_spend` and `gas_budget`
 * exclusions, the same running total and smallest spend. Its decisions depend on no price exactly when the walk never
 * meets an order it would have to price on the way, i.e. when no order it would add (a positive spend while the batch
 * is below `maxBuyers`) has a limit: clearBatch then asks the pool once, for the total, after the walk. An order with a
 * limit reached by the walk makes every later decision depend on the pool's answers: undefined (clear after the quote,
 * as always). Limited orders the walk never reaches (no spend, or past the gas budget) change nothing.
 */
export function clearBatchAhead<O extends ExecutableOrder>(input: {
  candidates: readonly BatchCandidate<O>[]
  maxBuyers: number
  policy?: PrioritisationPolicy
}): ClearingAhead<O> | undefined {
  const { candidates, maxBuyers } = input
  if (!Number.isInteger(maxBuyers) || maxBuyers < 0) throw new RangeError('maxBuyers must be a non-negative integer')
  const policy = input.policy ?? spendThenLimitPolicy
  const permutation = priorityPermutation(
    candidates.map((c) => c.order),
    policy,
  )
  const chosen: { candidate: BatchCandidate<O>; rank: number }[] = []
  const excluded: BatchExclusion<O>[] = []
  let totalIn = 0n
  let minSpend = 0n
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
    if (candidate.order.limitFdv !== null) return undefined
    chosen.push({ candidate, rank })
    totalIn += candidate.spend
    if (chosen.length === 1 || candidate.spend < minSpend) minSpend = candidate.spend
  }
  return { candidates, maxBuyers, policy, walk: { chosen, excluded, totalIn, lowestLimit: null, minSpend }, permutation }
}

/**
 * Whether `ahead` was computed from exactly these inputs: the same order objects in the same order (an order's form is
 * a new object whenever its record changed, batch-entry-forms.ts), the same spends, the same gas cut and policy. The
 * walk is a function of those alone, so its result is then the one clearBatch would reach. One pass, no allocation.
 */
export function sameClearingInputs<O extends ExecutableOrder>(
  ahead: ClearingAhead<O>,
  candidates: readonly BatchCandidate<O>[],
  maxBuyers: number,
  policy: PrioritisationPolicy = spendThenLimitPolicy,
): boolean {
  if (ahead.maxBuyers !== maxBuyers || ahead.policy !== policy || ahead.candidates.length !== candidates.length) return false
  // The walk's own candidates (a split that found its inputs to be the readied walk's and took them: plan-batch.ts).
  if (ahead.candidates === candidates) return true
  for (let i = 0; i < candidates.length; i++) {
    const a = ahead.candidates[i]!
    const b = candidates[i]!
    if (a.order !== b.order || a.spend !== b.spend) return false
  }
  return true
}

/**
 * The amount the pool must price to finish a walk done ahead: the included total, undefined when nothing is included
 * (clearBatch then asks nothing).
 */
export const amountToPrice = (ahead: ClearingAhead): bigint | undefined => (ahead.walk.chosen.length > 0 ? ahead.walk.totalIn : undefined)

/**
 * The clearing from a walk done ahead and the pool's answer for its total (ignored when nothing is included): the
 * same result clearBatch gives for the same inputs and pool (clear-batch-ahead.property.test.ts).
 */
export function clearBatchAfter<O extends ExecutableOrder>(ahead: ClearingAhead<O>, tokensOut: bigint, feeBps: bigint = PLATFORM_FEE_BPS): BatchClearing<O> {
  return finishClearing({ ...ahead.walk, out: ahead.walk.chosen.length > 0 ? tokensOut : 0n }, feeBps)
}
