/**
 * Formula against quote: the effective cap the formulas give (fee schedule + pool mid price, price-tick.ts) and the one
 * a quote of the real swap gives, for a probe spend small enough that its price impact stays below the tolerance.
 * A disagreement above it means the pool charges what the formulas do not know (a hook's quirk, a new tax, a fee
 * changed by a launchpad upgrade): it is logged and counted per launchpad, and the quote decides.
 */

/** Default tolerance, basis points: below the smallest quirk known (a Doppler rehype hook's 1.25x of a 1% fee: 25 bps). */
export const DEFAULT_QUOTE_TOLERANCE_BPS = 10

/**
 * The probe spend compared on every launch, stablecoin atoms (1 unit of a 6-decimal stablecoin): its price impact in a
 * launch pool of FDV F is about 1/F of the price (0.1 bp at a $10k FDV), far below the tolerance.
 */
export const PROBE_SPEND_ATOMS = 1_000_000n

export type QuoteComparison =
  | { kind: 'agree'; deviationBps: number }
  /** The quoted cap differs from the formula's by more than the tolerance (positive: the real swap is dearer). */
  | { kind: 'cap_differs'; deviationBps: number }
  /** One side allows a swap in the next block, the other does not (the quote reverted, or the formula's gating is wrong). */
  | { kind: 'swaps_differ'; formulaAllows: boolean; quoteAllows: boolean }

export interface ComparisonInput {
  formula: { swapsAllowed: boolean; capAtoms: bigint | null }
  quote: { swapsAllowed: boolean; capAtoms: bigint | null }
  toleranceBps: number
}

/** Deviation of the quoted cap from the formula's, in basis points (signed; infinite caps compare as +/-Infinity). */
export function capDeviationBps(formulaCap: bigint | null, quotedCap: bigint | null): number {
  if (formulaCap === null && quotedCap === null) return 0
  if (formulaCap === null) return Number.NEGATIVE_INFINITY
  if (quotedCap === null) return Number.POSITIVE_INFINITY
  if (formulaCap === 0n) return quotedCap === 0n ? 0 : Number.POSITIVE_INFINITY
  // Exact to 1e-4 bp before the conversion to a number.
  return Number(((quotedCap - formulaCap) * 100_000_000n) / formulaCap) / 10_000
}

export function compareFormulaAndQuote(input: ComparisonInput): QuoteComparison {
  const { formula, quote } = input
  if (formula.swapsAllowed !== quote.swapsAllowed) return { kind: 'swaps_differ', formulaAllows: formula.swapsAllowed, quoteAllows: quote.swapsAllowed }
  if (!formula.swapsAllowed) return { kind: 'agree', deviationBps: 0 }
  const deviationBps = capDeviationBps(formula.capAtoms, quote.capAtoms)
  return Math.abs(deviationBps) > input.toleranceBps ? { kind: 'cap_differs', deviationBps } : { kind: 'agree', deviationBps }
}
