import { filterOrderBook } from '../../src/domain/execution/order-book.ts'
import { candidateBalances, planPrepared, prepareBook, type CandidateOrder, type ExecutionPlan, type PlanInput, type PreparedBook } from './plan-tick.ts'

/**
 * Prepared order books kept between ticks, one per project. The executor reloads a project's active orders (and the
 * wallets' balances) on every tick; this decides what the reload means for the book:
 * - the same orders with the same terms: reuse the book (no parsing, no sorting), refresh candidates and balances;
 * - some orders gone (bought, expired, cancelled), the rest unchanged and in the same relative order: drop them from
 *   the book in one linear pass (a stable sort's output minus some inputs is the sort of the rest);
 * - anything else (a new order, an edit via PATCH, an order back from executing, another policy): rebuild.
 * An order's terms are compared field by field (status, amounts, expiry, wallet, updatedAt), so an edit is never
 * missed even when updatedAt did not move.
 */
export interface BookCache {
  plan(slug: string, input: PlanInput): ExecutionPlan
  forget(slug: string): void
  /** How the last plan(slug) got its book (for tests and metrics). */
  lastUse(slug: string): BookUse | undefined
}

export type BookUse = 'rebuilt' | 'reused' | 'filtered'

interface Entry {
  prepared: PreparedBook
  policy: PlanInput['policy']
  use: BookUse
}

const sameTerms = (a: CandidateOrder, b: CandidateOrder): boolean =>
  a.order.keyId === b.order.keyId &&
  a.order.slug === b.order.slug &&
  a.order.status === b.order.status &&
  a.order.maxSpendUsdc === b.order.maxSpendUsdc &&
  a.order.maxFdvUsdc === b.order.maxFdvUsdc &&
  a.order.expiresInMs === b.order.expiresInMs &&
  a.order.updatedAt === b.order.updatedAt &&
  // Exact spelling: a wallet spelt differently only costs a rebuild.
  a.wallet === b.wallet

export function createBookCache(): BookCache {
  const entries = new Map<string, Entry>()

  /** Old input positions that survive, in order, when `next` is `previous` minus some orders; undefined otherwise. */
  function survivors(previous: readonly CandidateOrder[], next: readonly CandidateOrder[]): Int32Array | undefined {
    if (next.length > previous.length) return undefined
    const newIndexOfOld = new Int32Array(previous.length).fill(-1)
    let old = 0
    for (let i = 0; i < next.length; i++) {
      const candidate = next[i]!
      while (old < previous.length && previous[old]!.order.keyId !== candidate.order.keyId) old++
      if (old === previous.length || !sameTerms(previous[old]!, candidate)) return undefined
      newIndexOfOld[old++] = i
    }
    return newIndexOfOld
  }

  function bookFor(slug: string, input: PlanInput): Entry {
    const entry = entries.get(slug)
    const { candidates, policy } = input
    if (entry && entry.policy === policy) {
      const previous = entry.prepared
      const newIndexOfOld = survivors(previous.candidates, candidates)
      if (newIndexOfOld && candidates.length === previous.candidates.length) {
        // Same orders, same places: only the candidates (fresh records and balances) change.
        const prepared: PreparedBook = { ...previous, candidates }
        prepared.balances = candidateBalances(prepared)
        return { prepared, policy, use: 'reused' }
      }
      if (newIndexOfOld) {
        const { book, kept } = filterOrderBook(previous.book, (p) => newIndexOfOld[previous.inputOf[p]!]! >= 0)
        const inputOf = new Uint32Array(kept.length)
        const walletOfInput = new Uint32Array(kept.length)
        for (let q = 0; q < kept.length; q++) {
          const i = newIndexOfOld[previous.inputOf[kept[q]!]!]!
          inputOf[q] = i
          walletOfInput[i] = book.walletOf[q]!
        }
        // The shared verdict records stay in their slots; the surviving positions keep their slot numbers.
        const slotOf = new Uint32Array(kept.length)
        for (let q = 0; q < kept.length; q++) slotOf[q] = previous.slotOf[kept[q]!]!
        const prepared: PreparedBook = {
          book,
          candidates,
          inputOf,
          walletOfInput,
          slotOf,
          balances: previous.balances,
          ...(previous.decisions ? { decisions: previous.decisions } : {}),
        }
        prepared.balances = candidateBalances(prepared)
        return { prepared, policy, use: 'filtered' }
      }
    }
    return { prepared: prepareBook(candidates, policy), policy, use: 'rebuilt' }
  }

  return {
    plan(slug, input) {
      const entry = bookFor(slug, input)
      entries.set(slug, entry)
      return planPrepared(entry.prepared, input)
    },
    forget: (slug) => void entries.delete(slug),
    lastUse: (slug) => entries.get(slug)?.use,
  }
}
