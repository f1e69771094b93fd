import type { ChainKey } from '../../src/chain/chain-keys.ts'
import { DEFAULT_MAX_BUYS } from '../../src/domain/execution/executor-plan.ts'
import type { CandidateOrder } from '../../src/domain/execution/prepared-book.ts'
import { batchEntryForm } from './batch-entry-forms.ts'
import type { ExecutorContext } from './executor-context.ts'
import type { ReadiedClearing, ReadiedClearings } from './readied-clearing.ts'
import { predictBatchBuys } from './predict-batch-total.ts'
import { tickIsReadied } from './readied-launch.ts'
import type { LoadedOrder } from './warm-books.ts'

/** A waiting project's book as the readying pass prepared it (ready-ahead.ts): its launch clearing is readied on it. */
export interface BookToReady {
  slug: string
  /** The warm snapshot's orders array of the project (a new array after any write to its orders). */
  orders: readonly LoadedOrder[]
  /** The book's candidates (order, wallet, balance), in the orders' order. */
  candidates: readonly CandidateOrder[]
  /** Each candidate's wallet lower-cased, in order. */
  walletsLower: readonly string[]
  /** Each candidate's wallet balance, in order. */
  balances: readonly bigint[]
}

/** What the readying pass hands the launch clearings of its block (ready-ahead.ts). */
export interface ReadyPass {
  /** The batch buyer's allowances at the block, by lower-cased wallet: the pass's own read ahead (warm-allowances.ts `ahead`). */
  allowances: ReadonlyMap<string, bigint>
  /** False once a launch on the chain was processed since the pass began (or the executor stops): the rest is left. */
  stillWanted: () => boolean
}

/**
 * The most wall time one readying of launch clearings spends (issue 23 item 3): the books left are readied by a later
 * block's pass. With the allowances handed in, a book costs CPU only (its prediction and walk, or a comparison when
 * nothing changed); the bound keeps a pass over hundreds of waiting books from holding the chain's readying (and the
 * executor's idle()) for long whatever the machine's load, and the pass yields to the event loop between books so a
 * launch tick is never queued behind it (docs/execution.md §8, "The readying pass that never ended").
 */
export const READY_LAUNCHES_BUDGET_MS = 250

/** The reservations vector of a chain without in-flight buys (the common case before a launch): no pass over the book. */
const NO_RESERVATIONS: readonly bigint[] = []

/** The tick decider's part of the readying pass (decide-tick.ts TickDecider). */
export interface ReadyLaunches {
  /**
   * The readying pass's prepared books of waiting projects on a chain with a batch buyer, at a processed block: each
   * one's launch clearing readied (plan-batch.ts `readyClearing`: the buys a launch tick at this block is predicted to
   * make, filtered by the allowances read ahead, walked), so that the launch tick prices it and does not walk it (issue
   * 23 item 3, docs/execution.md §8 "The launch readied before the launch"). Never rejects.
   */
  readyLaunches(chain: ChainKey, blockNumber: bigint, books: readonly BookToReady[], pass: ReadyPass): Promise<void>
  /** A waiting project's readied launch clearing (what its launch's first split will try after the quote's walk). */
  readiedLaunch(chain: ChainKey, slug: string): ReadiedClearing | undefined
  /** The project's book is no longer prepared ahead: its readied clearing goes too. */
  forgetReadied(chain: ChainKey, slug: string): void
}

/**
 * The tick decider's part of the readying pass (issue 23 item 3): each prepared waiting book's launch clearing readied
 * on the planner (plan-batch.ts `readyClearing`), with the buys a launch tick at the block is predicted to make.
 */
export function createReadyLaunches(
  ctx: Pick<ExecutorContext, 'batchBuyers' | 'ticking' | 'orders' | 'policy' | 'now' | 'maxBuysPerTick' | 'log'>,
  batches: ReadiedClearings,
  reservations: (chain: ChainKey) => Promise<ReadonlyMap<string, bigint>>,
  budget: { ms: number; clock: () => number } = { ms: READY_LAUNCHES_BUDGET_MS, clock: () => performance.now() },
): ReadyLaunches {
  // One readying of launch clearings at a time per chain: a block arriving meanwhile skips it (the next one readies).
  // Every block's pass used to run its own, each reading its block's allowances per book; with the passes slower than a
  // block they overlapped without end (the latency bench's hang: docs/execution.md §8).
  const running = new Set<ChainKey>()
  // Where the last readying stopped (its budget spent), per chain: the next starts there, so every book gets its turn.
  const resumeAt = new Map<ChainKey, number>()
  return {
    async readyLaunches(chain, blockNumber, books, pass) {
      if (!ctx.batchBuyers[chain] || books.length === 0 || running.has(chain)) return
      running.add(chain)
      try {
        await readyBooks(chain, blockNumber, books, pass)
      } finally {
        running.delete(chain)
      }
    },
    readiedLaunch: (chain, slug) => batches.readied(chain, slug),
    forgetReadied: (chain, slug) => batches.forgetReadied(chain, slug),
  }

  /**
   * The launch tick's own comparison (readied-launch.ts tickIsReadied) on the pass's inputs, which it must accept: a
   * launch tick at this block with these candidates, reservations and allowances takes the readied walk. Run on every
   * readying, it also has that comparison compiled before the launch: the launch tick runs it once over every order
   * (5,000: 3.1-3.5 ms interpreted in the split bench, between the batch's allowances and its clearing;
   * docs/execution.md §8, "The launch tick's candidates primed and its locks taken as one"). A refusal is a bug: logged.
   */
  function checkReadied(book: BookToReady, readied: ReadiedClearing, reserved: ReadonlyMap<string, bigint>, allowances: ReadonlyMap<string, bigint>): void {
    const accepted = tickIsReadied(readied, { book: book.orders, candidates: book.candidates, reserved, allowances, maxBuyers: readied.inputs.maxBuyers })
    if (!accepted) ctx.log.warn({ slug: book.slug }, 'a readied launch clearing does not match its own inputs: its launch tick will clear as always')
  }

  async function readyBooks(chain: ChainKey, blockNumber: bigint, books: readonly BookToReady[], pass: ReadyPass): Promise<void> {
    const reserved = await reservations(chain).catch(() => undefined)
    if (!reserved) return
    const deadline = budget.clock() + budget.ms
    const start = (resumeAt.get(chain) ?? 0) % books.length
    resumeAt.delete(chain)
    for (let n = 0; n < books.length; n++) {
      const i = (start + n) % books.length
      const book = books[i]!
      // Between books, the event loop's turn: a launch tick (or anything else due) runs before the next book.
      if (n > 0) await new Promise<void>((resolve) => setImmediate(resolve))
      if (!pass.stillWanted()) return
      // At least one book a readying, so that the cursor moves on whatever the machine's speed.
      if (n > 0 && budget.clock() > deadline) {
        resumeAt.set(chain, i)
        return
      }
      if (ctx.ticking.has(book.slug)) continue
      try {
        const readied = batches.readyClearing(chain, book.slug, blockNumber, {
          book: book.orders,
          stillWaiting: () => !ctx.ticking.has(book.slug),
          allowances: pass.allowances,
          balances: book.balances,
          walletsLower: book.walletsLower,
          reserved: reserved.size === 0 ? NO_RESERVATIONS : book.walletsLower.map((wallet) => reserved.get(wallet) ?? 0n),
          // A launch at this block: its launch time unknown, so no expiry is applied here (an order expiring by the
          // launch's next block makes the launch's plan differ, and the split then clears as always).
          predict: () =>
            predictBatchBuys({
              candidates: book.candidates,
              executableOf: (c) => batchEntryForm(c.order, c.wallet, ctx.orders.idOf).executable,
              reservedByWallet: reserved,
              policy: ctx.policy,
              launchedAt: null,
              now: ctx.now(),
              maxBuys: ctx.maxBuysPerTick ?? DEFAULT_MAX_BUYS,
            }),
        })
        if (readied?.walked) checkReadied(book, readied, reserved, pass.allowances)
      } catch (error) {
        ctx.log.debug({ err: error, chain, slug: book.slug }, 'readying a launch clearing ahead failed; its launch tick clears as always')
      }
    }
  }
}
