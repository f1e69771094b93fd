import { DEFAULT_MAX_BUYS, type PlanInput } from '../../src/domain/execution/executor-plan.ts'
import type { CandidateOrder } from '../../src/domain/execution/prepared-book.ts'
import type { DecisionInputs } from '../../src/journal/journal-records.ts'

/** The planner's inputs as the journal records them, the candidates in the priority order the plan used. */
export function decisionInputs(
  input: Omit<PlanInput, 'candidates' | 'policy' | 'tick' | 'holdBack'>,
  inPriority: readonly CandidateOrder[],
  heldBack: ReadonlySet<string> = new Set(),
): DecisionInputs {
  return {
    ...(input.quote
      ? {
          quote: {
            swapsAllowed: input.quote.swapsAllowed,
            buckets: input.quote.buckets.map((b): [string, string | null] => [b.spendAtoms.toString(), b.capAtoms === null ? null : b.capAtoms.toString()]),
          },
        }
      : {}),
    ...(heldBack.size > 0 ? { heldBack: [...heldBack] } : {}),
    launchedAt: input.launchedAt,
    now: input.now,
    totalSupply: input.totalSupply.toString(),
    maxBuys: input.maxBuys ?? DEFAULT_MAX_BUYS,
    orders: inPriority.map((c) => [
      c.order.keyId,
      c.wallet,
      c.order.maxSpendUsdc,
      c.order.maxFdvUsdc,
      c.order.expiresInMs,
      c.balanceAtoms.toString(),
      c.userIndex,
      c.order.createdAt,
      c.order.updatedAt,
    ]),
    reserved: [...input.reservedByWallet].map(([wallet, atoms]) => [wallet, atoms.toString()]),
  }
}
