import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { BatchCandidate } from '../../src/domain/batch/clear-batch.ts'
import { type ClearingAhead, clearBatchAhead } from '../../src/domain/batch/clear-batch-ahead.ts'
import type { BuyToSubmit } from '../../src/domain/execution/executor-plan.ts'
import { type BatchEntryForm, clearingRowOf } from './batch-entry-forms.ts'
import type { ExecutorContext } from './executor-context.ts'
import { type BatchRecordEntries, type EntrySource, recordEntriesOf } from './batch-entry-records.ts'
import { SHARES_PENDING } from './shares-later.ts'
import type { ClearingRow } from '../../src/journal/compact-batch-commit.ts'
import type { KeyGroup } from '../../src/common/keyed-mutex.ts'

/**
 * What a waiting project's launch clearing was readied from by the readying pass (issue 23 item 3, docs/execution.md
 * §8 "The launch readied before the launch"), per order of the book in the warm snapshot's order: the walk is done
 * again only when one of these changed. Each vector is in the book's order, so a moved, added or removed order changes
 * the book array itself (the warm snapshot hands a new array after any write to the project's orders).
 */
export interface ReadiedInputs {
  /** The warm snapshot's orders array of the book (a new array after any order or user write to the project). */
  book: readonly unknown[]
  /** Each order's wallet balance as the snapshot carries it. */
  balances: readonly bigint[]
  /** Each order's wallet's in-flight reservations on the chain (any launch); empty when the chain has none. */
  reserved: readonly bigint[]
  /** Each order's wallet's allowance to the chain's batch buyer at the readied block. */
  allowances: readonly bigint[]
  /** The clearing's gas cut (buyers one batch may include). */
  maxBuyers: number
}

/**
 * Whether the readied walk may be kept as it is: the same book array and, order by order, the same balance,
 * reservations and allowance, and the same gas cut. Only an efficiency rule: the launch's split uses a readied walk
 * only when its own clearing inputs are exactly the walk's (`sameClearingInputs`, clear-batch-ahead.ts), whatever this
 * says; a walk kept on a stale answer here would cost the split a full clearing, never a wrong one.
 */
export function sameReadiedInputs(a: ReadiedInputs, b: ReadiedInputs): boolean {
  return (
    a.book === b.book &&
    a.maxBuyers === b.maxBuyers &&
    sameVector(a.balances, b.balances) &&
    sameVector(a.reserved, b.reserved) &&
    sameVector(a.allowances, b.allowances)
  )
}

/** A waiting project's launch clearing readied ahead: its walk (undefined: the walk meets a limit, or nothing buys). */
export interface ReadiedClearing {
  /** The block whose warm snapshot, reservations and allowances it was readied from (last confirmed unchanged). */
  blockNumber: bigint
  inputs: ReadiedInputs
  walked: ClearingAhead | undefined
  /** Buys predicted for a launch at that block (the walk's candidates: those whose wallet allows their spend). */
  buys: number
  batchable: number
  /**
   * What the launch's fast commit builds its record from (readied-launch.ts), in the walk's candidates' order: the
   * predicted buys whose wallet allows their spend and their batch entry forms, the book's wallets lower-cased in the
   * book's order (the inputs' vectors' keys), and the largest spend (a quote must cover it).
   */
  batchableBuys: readonly PredictedBuy[]
  forms: readonly BatchEntryForm[]
  walletsLower: readonly string[]
  largestSpend: bigint
  /**
   * The walk's batch record entries, built here, off the launch tick (batch-entry-records.ts): its chosen orders with
   * their predicted shares pending (shares-later.ts) and its excluded ones, in the walk's order. The launch's fast
   * commit's record takes them as they are (plan-batch.ts `clearReadied`; 4-6 ms of a 5,000-order launch tick before
   * its first collect when built there). Undefined without a walk.
   */
  recordEntries: BatchRecordEntries | undefined
  /** The walk's candidates' clearing rows (plan-batch.ts clearingRowsOf), likewise built here. Undefined without a walk. */
  clearingRows: ClearingRow[] | undefined
  /**
   * The order locks of the walk's chosen orders (`recordEntries.included`) as one group, built here: the launch's fast
   * commit takes them with no step per order (readied-launch.ts; 3-8 ms of a 5,000-order launch as 5,000 locks).
   * Undefined without a walk or where the context builds no group.
   */
  lockGroup: KeyGroup | undefined
}

/** Each walked entry's order, buyer and form, by its rank (the walk's priority order over the readied candidates). */
export function readiedEntrySource(readied: Pick<ReadiedClearing, 'batchableBuys' | 'forms'>, walked: Pick<ClearingAhead, 'permutation'>) {
  const { permutation } = walked
  const { batchableBuys, forms } = readied
  return (entry: { rank: number }): EntrySource => {
    const i = permutation[entry.rank]!
    return { candidate: batchableBuys[i]!.candidate, form: forms[i]! }
  }
}

/** The chosen orders' lock group: the last walk's when it chose the same orders (a walk redone on moved balances). */
function lockGroupOf(
  parts: Pick<ReadiedClearingParts, 'orderLockGroup'>,
  last: ReadiedClearing | undefined,
  included: BatchRecordEntries['included'],
): KeyGroup | undefined {
  if (!parts.orderLockGroup) return undefined
  const before = last?.recordEntries?.included
  if (last?.lockGroup && before && sameKeys(before, included)) return last.lockGroup
  return parts.orderLockGroup(included.map((entry) => entry.keyId))
}

// A loop alone in its function (see columnar-planner.ts on V8 and loops).
function sameKeys(a: BatchRecordEntries['included'], b: BatchRecordEntries['included']): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i]!.keyId !== b[i]!.keyId) return false
  return true
}

// The same array first: the readying pass hands the book's balances array back unchanged while no balance moved
// (ready-ahead.ts prepareBook), and the one empty reservations vector while the chain has none.
const sameVector = (a: readonly bigint[], b: readonly bigint[]): boolean => {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

type PredictedBuy = Pick<BuyToSubmit, 'candidate' | 'spendAtoms'>

/** The batch planner's readied launch clearings (plan-batch.ts BatchPlanner). */
export interface ReadiedClearings {
  /**
   * A waiting project's launch clearing readied by the readying pass at a processed block (issue 23 item 3,
   * docs/execution.md §8 "The launch readied before the launch"): the allowance filter and the clearing's
   * price-independent walk (clear-batch-ahead.ts) over the buys a launch tick at this block is predicted to make
   * (`predict`, called only when the inputs changed: readied-clearing.ts `sameReadiedInputs`). The launch's first split
   * uses it exactly as a walk done while its quote is out: only when its own clearing inputs are the walk's (the same
   * order objects in the same order, the same spends, gas cut and policy), else it clears as always. Nothing is
   * written or decided on it. Undefined where the chain has no batch buyer or operator.
   */
  readyClearing(
    chain: ChainKey,
    slug: string,
    blockNumber: bigint,
    input: {
      book: readonly unknown[]
      /** The book's wallets lower-cased, in order (the allowances' keys). */
      walletsLower: readonly string[]
      /**
       * The wallets' allowances to the batch buyer at the block, by lower-cased address: the readying pass's own read
       * ahead (warm-allowances.ts `ahead`). Handed in, never read here: a read per book, at each pass's block, made
       * every pass of 80 small books take 80 round trips (docs/execution.md §8, "The readying pass that never ended").
       */
      allowances: ReadonlyMap<string, bigint>
      balances: readonly bigint[]
      reserved: readonly bigint[]
      predict: () => readonly PredictedBuy[]
      /** False once the project launched (nothing is readied for a launch being bought). */
      stillWaiting?: () => boolean
    },
  ): ReadiedClearing | undefined
  /** The project's readied launch clearing, if any (held until its launch's first split takes it, or forgotten). */
  readied(chain: ChainKey, slug: string): ReadiedClearing | undefined
  /** Drops a project's readied clearing (its book is no longer prepared ahead). */
  forgetReadied(chain: ChainKey, slug: string): void
}

/** The batch planner's parts the readied clearings use (plan-batch.ts). */
export interface ReadiedClearingParts
  extends Pick<ExecutorContext, 'batchBuyers' | 'wallets' | 'policy'>,
    Partial<Pick<ExecutorContext, 'preparedEntries' | 'orderLockGroup'>> {
  batchableOf<B extends PredictedBuy>(buys: readonly B[], allowances: ReadonlyMap<string, bigint>): { batchable: B[]; batchForms: BatchEntryForm[] }
  /** The gas cut of a batch before the launch (it names no superseded batch). */
  maxBuyersBeforeLaunch(chain: ChainKey): number
}

/** The planner's readied launch clearings (BatchPlanner `readyClearing`, `readied`, `forgetReadied`), and `take` for its split. */
export function createReadiedClearings(parts: ReadiedClearingParts): ReadiedClearings & {
  /** The project's readied clearing, removed: its launch's first split takes it (the book is the ticks' from then on). */
  take(chain: ChainKey, slug: string): ReadiedClearing | undefined
} {
  const held = new Map<string, ReadiedClearing>()
  const keyOf = (chain: ChainKey, slug: string) => `${chain}!${slug}`
  return {
    readyClearing(chain, slug, blockNumber, input) {
      const batchBuyer = parts.batchBuyers[chain]
      if (!batchBuyer || !parts.wallets.operatorAddress?.(chain) || !parts.wallets.sendCall) return undefined
      const { allowances } = input
      const inputs: ReadiedInputs = {
        book: input.book,
        balances: input.balances,
        reserved: input.reserved,
        allowances: input.walletsLower.map((wallet) => allowances.get(wallet) ?? 0n),
        maxBuyers: parts.maxBuyersBeforeLaunch(chain),
      }
      // Launched since the pass began: the launch's tick owns the book now (and may have taken the last one).
      if (input.stillWaiting && !input.stillWaiting()) return undefined
      const key = keyOf(chain, slug)
      const last = held.get(key)
      if (last && sameReadiedInputs(last.inputs, inputs)) {
        last.blockNumber = blockNumber
        // The same book array: the same wallets, in order (kept for the launch's own comparison).
        last.walletsLower = input.walletsLower
        return last
      }
      const predicted = input.predict()
      const { batchable, batchForms } = parts.batchableOf(predicted, allowances)
      const candidates = batchable.map((b, i): BatchCandidate => ({ order: batchForms[i]!.executable, spend: b.spendAtoms }))
      const walked = candidates.length > 0 ? clearBatchAhead({ candidates, maxBuyers: inputs.maxBuyers, policy: parts.policy }) : undefined
      let largestSpend = 0n
      for (const b of batchable) if (b.spendAtoms > largestSpend) largestSpend = b.spendAtoms
      const readied: ReadiedClearing = {
        blockNumber,
        inputs,
        walked,
        buys: predicted.length,
        batchable: batchable.length,
        batchableBuys: batchable,
        forms: batchForms,
        walletsLower: input.walletsLower,
        largestSpend,
        recordEntries: undefined,
        clearingRows: undefined,
        lockGroup: undefined,
      }
      if (walked) {
        const at = readiedEntrySource(readied, walked)
        readied.recordEntries = recordEntriesOf({ included: walked.walk.chosen, excluded: walked.walk.excluded }, at, at, () => SHARES_PENDING)
        readied.clearingRows = batchable.map((b, i) => clearingRowOf(batchForms[i]!, b.spendAtoms))
        readied.lockGroup = lockGroupOf(parts, last, readied.recordEntries.included)
      }
      held.set(key, readied)
      // The walk's entries, less what the launch's price decides, written ahead (off this turn, when they changed) for
      // the launch's compact commit (prepared-entries.ts; docs/execution.md §8, "The compact commit").
      if (walked && parts.preparedEntries)
        parts.preparedEntries.offer(chain, slug, {
          rows: readied.clearingRows!,
          entries: batchable.map((b, i) => [b.candidate.userIndex, b.candidate.wallet, batchForms[i]!.orderId]),
          byRank: walked.permutation,
        })
      return readied
    },
    readied: (chain, slug) => held.get(keyOf(chain, slug)),
    forgetReadied(chain, slug) {
      held.delete(keyOf(chain, slug))
      parts.preparedEntries?.forget(chain, slug)
    },
    take(chain, slug) {
      const readied = held.get(keyOf(chain, slug))
      held.delete(keyOf(chain, slug))
      return readied
    },
  }
}
