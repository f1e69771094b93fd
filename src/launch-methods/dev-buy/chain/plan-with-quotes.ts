import { type DevBuyCandidate, type DevBuyLaunch, type DevBuyPlan, planDevBuy } from '../domain/dev-buy-eligibility.ts'

/** Thrown inside the pure planner when it asks for a stablecoin amount not quoted yet. */
class QuoteNeeded {
  constructor(readonly stableIn: bigint) {}
}

/**
 * `planDevBuy` with the stablecoin's way to the paired asset quoted on chain (an async quote, exact): the pure planner
 * runs on the quotes known so far and, when it asks for an amount not quoted yet, that amount is quoted and the planner
 * runs again. Its bisection asks for O(log n) amounts, so as many quotes and re-runs (each pure and cheap).
 */
export async function planWithQuotes(
  launch: Omit<DevBuyLaunch, 'stableToPaired'>,
  candidates: readonly DevBuyCandidate[],
  quote: (stableIn: bigint) => Promise<bigint>,
): Promise<{ plan: DevBuyPlan; quotes: ReadonlyMap<bigint, bigint> }> {
  const quotes = new Map<bigint, bigint>()
  const stableToPaired = (stableIn: bigint): bigint => {
    const known = quotes.get(stableIn)
    if (known === undefined) throw new QuoteNeeded(stableIn)
    return known
  }
  for (;;) {
    try {
      return { plan: planDevBuy({ ...launch, stableToPaired }, candidates), quotes }
    } catch (error) {
      if (!(error instanceof QuoteNeeded)) throw error
      quotes.set(error.stableIn, await quote(error.stableIn))
    }
  }
}
