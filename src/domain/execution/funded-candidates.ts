import type { CandidateDiff } from './held-candidates.ts'
import type { CandidateOrder } from './prepared-book.ts'

/**
 * The tick's candidates that may buy at all (an active order, a wallet balance above 0), in candidate order, kept from
 * tick to tick by the held candidates' diff (held-candidates.ts): a tick looks again only at the candidates the diff
 * names (arrived, rebalanced; the others keep their flag, moved to their new index), not at every candidate.
 *
 * Why: a tick's spend buckets (tick-quotes.ts candidateBuckets) and its batch total (predict-batch-total.ts) each read
 * every candidate's order and balance first and skip the ones that cannot buy, ~1.5-2 ms per tick each at 17,000
 * orders in the daemon (a CPU profile of the held-ticks bench, 2026-11-27, docs/execution.md §3), on every held tick
 * and every tick after a PATCH. Both skip exactly these candidates first and keep the rest's order, so given this
 * subset they answer as given every candidate. With few funded wallets (a book held by its limits before the buyers
 * fund) the subset is small; with every wallet funded it is the book, as before.
 */
export interface FundedCandidates<C extends CandidateOrder> {
  /** The funded candidates of this tick's `candidates`; `diff` is how they derive from the project's previous ones. */
  of(slug: string, candidates: readonly C[], diff: CandidateDiff): C[]
  forget(slug: string): void
}

interface Held {
  /** The candidates the flags are of (the held candidates' array: the quiet path edits it in place) and their seq. */
  candidates: readonly CandidateOrder[]
  seq: number | undefined
  /** Per candidate index: 1 when it may buy. Two buffers alternate (the previous flags are read while writing). */
  flag: Uint8Array
  spare: Uint8Array
}

const mayBuy = (c: CandidateOrder): number => (c.order.status === 'active' && c.balanceAtoms > 0n ? 1 : 0)

export function createFundedCandidates<C extends CandidateOrder>(): FundedCandidates<C> {
  const held = new Map<string, Held>()
  return {
    of(slug, candidates, diff) {
      const last = held.get(slug)
      const n = candidates.length
      const follows = last !== undefined && diff.seq !== undefined && diff.fromSeq === last.seq && diff.from === last.candidates
      let flag: Uint8Array
      if (follows && diff.newIndexOfOld === undefined && last.flag.length >= n) {
        // The same list (a quiet tick): only the rebalanced candidates changed, in place.
        flag = last.flag
        for (const k of diff.rebalanced) flag[k] = mayBuy(candidates[k]!)
        for (const i of diff.arrived) flag[i] = mayBuy(candidates[i]!)
      } else if (follows && diff.newIndexOfOld !== undefined) {
        // A write: the kept candidates' flags moved to their new index, the arrived and rebalanced ones looked at.
        const map = diff.newIndexOfOld
        flag = last.spare.length >= n ? last.spare : new Uint8Array(Math.ceil(n * 1.25) + 16)
        moveFlags(last.flag, map, flag, n)
        for (const k of diff.rebalanced) {
          const i = map[k]!
          if (i >= 0) flag[i] = mayBuy(candidates[i]!)
        }
        for (const i of diff.arrived) flag[i] = mayBuy(candidates[i]!)
        last.spare = last.flag
      } else {
        flag = last && last.flag.length >= n ? last.flag : new Uint8Array(Math.ceil(n * 1.25) + 16)
        for (let i = 0; i < n; i++) flag[i] = mayBuy(candidates[i]!)
      }
      const spare = last && last.spare !== flag ? last.spare : new Uint8Array(0)
      held.set(slug, { candidates, seq: diff.seq, flag, spare })
      return flagged(flag, candidates, n)
    },
    forget: (slug) => void held.delete(slug),
  }
}

// The loops over every candidate are small functions with nothing after their loop (see the note in executor-plan.ts).

function moveFlags(from: Uint8Array, map: Int32Array, to: Uint8Array, n: number): void {
  to.fill(0, 0, n)
  for (let k = 0; k < map.length; k++) {
    const i = map[k]!
    if (i >= 0) to[i] = from[k]!
  }
}

function flagged<C>(flag: Uint8Array, candidates: readonly C[], n: number): C[] {
  const out: C[] = []
  for (let i = 0; i < n; i++) if (flag[i] === 1) out.push(candidates[i]!)
  return out
}
