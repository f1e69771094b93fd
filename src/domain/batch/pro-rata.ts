/** A pro-rata split rounded down: the parts and what the floors leave. */
export interface ProRataSplit {
  /** parts[i] = floor(amount * weights[i] / sum(weights)); 0 for every part when the weights sum to 0. */
  parts: bigint[]
  /** sum(weights). */
  totalWeight: bigint
  /** amount - sum(parts): fewer atoms than there are non-zero weights (the whole amount when the weights sum to 0). */
  remainder: bigint
}

/**
 * The one pro-rata rule every pooled purchase shares (issue 23 item 5, docs/execution.md §8 "One accounting for the
 * batch, the dev buy and the OTC settlement"): something bought or sold once (a batch's swap output, a dev buy's tokens
 * after the fee, an oversubscribed OTC offer) is split by what each participant put in, each part rounded down, so no
 * participant is ever credited more than its exact share and the parts never add up to more than the amount. What
 * happens to the remainder (and where the platform fee is taken) is each caller's rule, fixed by its contract:
 * allocateBatch (fee recipient), allocateDevBuy (largest contributor), settleOtc (back to the project).
 */
export function splitProRata(amount: bigint, weights: readonly bigint[]): ProRataSplit {
  if (amount < 0n) throw new RangeError('a pro-rata amount must not be negative')
  let totalWeight = 0n
  for (const w of weights) {
    if (w < 0n) throw new RangeError('a pro-rata weight must not be negative')
    totalWeight += w
  }
  const parts: bigint[] = new Array(weights.length)
  let sum = 0n
  for (let i = 0; i < weights.length; i++) {
    const part = totalWeight === 0n ? 0n : (amount * weights[i]!) / totalWeight
    parts[i] = part
    sum += part
  }
  return { parts, totalWeight, remainder: amount - sum }
}
