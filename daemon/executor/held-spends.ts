import type { CandidateDiff } from '../../src/domain/execution/held-candidates.ts'

/**
 * A project's spend buckets (tick-quotes.ts candidateBuckets) kept along its held candidates' steps
 * (held-candidates.ts): a step that changed no candidate (no arrival, no edit, no new balance, the same list) keeps the
 * buckets of the step before, so a tick over it quotes them without reading every candidate again.
 *
 * Why: at a 5,000-order launch the launch tick computed the buckets over every candidate between the launch log and
 * the first send (`quotedCaps`: 1-4.6 ms in the split bench's CPU profile, docs/execution.md §8, "The launch tick's
 * spend buckets carried"), though the readying pass had computed the same ones over the same candidates a block
 * earlier (ready-ahead.ts, for the reads ahead of the launch). The readying pass hands them here for its primed step;
 * the launch tick's step, when the launch block changed none of the book's wallets, carries them. A held tick of a
 * quiet book carries its previous tick's in the same way.
 *
 * Exact: the buckets read each candidate's order status, spend cap and balance only, and a candidate whose order or
 * balance changes is a new object named by its step's diff (`arrived`, `rebalanced`; one dropped from a new list has
 * no new index), the same rule funded-candidates.ts keeps its flags by. Any step not seen here (a gap in the `seq`
 * chain) drops them.
 */
export interface HeldSpends {
  /** A step of the project's held candidates (a tick's, or the readying pass's prime): the buckets it keeps, if any. */
  step(slug: string, diff: CandidateDiff): readonly bigint[] | undefined
  /** The buckets computed over the candidates of the step `seq` (a step already passed to `step`). */
  set(slug: string, seq: number | undefined, spends: readonly bigint[]): void
  forget(slug: string): void
}

/**
 * Whether a step holds the same candidates as the list it follows: none arrived (new or edited), none rebalanced, and
 * on a new list (`newIndexOfOld`: orders read again) every former one kept. Their order may differ: the buckets are a
 * set. Every candidate of a new list is either arrived or a former one moved (held-candidates.ts).
 */
function changedNothing(diff: CandidateDiff): boolean {
  if (diff.arrived.length > 0 || diff.rebalanced.length > 0) return false
  const moved = diff.newIndexOfOld
  if (moved !== undefined) for (let k = 0; k < moved.length; k++) if (moved[k]! < 0) return false
  return true
}

export function createHeldSpends(): HeldSpends {
  const held = new Map<string, { seq: number; spends: readonly bigint[] }>()
  return {
    step(slug, diff) {
      const kept = held.get(slug)
      if (kept === undefined) return undefined
      if (diff.seq === undefined || diff.fromSeq !== kept.seq || !changedNothing(diff)) {
        held.delete(slug)
        return undefined
      }
      kept.seq = diff.seq
      return kept.spends
    },
    set(slug, seq, spends) {
      if (seq === undefined) held.delete(slug)
      else held.set(slug, { seq, spends })
    },
    forget: (slug) => void held.delete(slug),
  }
}
