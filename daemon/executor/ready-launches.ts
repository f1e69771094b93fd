import type { ChainKey } from '../../src/chain/chain-keys.ts'
import { DEFAULT_MAX_BUYS } from '../../src/domain/execution/executor-plan.ts'
import type { CandidateOrder } from '../../src/domain/execution/prepared-book.ts'
import { batchEntryForm } from './batch-entry-forms.ts'
import type { ExecutorContext } from './executor-context.ts'
import type { ReadiedClearing, ReadiedClearings } from './readied-clearing.ts'
import { predictBatchBuys } from './predict-batch-total.ts'
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
  readyLaunches(chain: ChainKey, blockNumber: bigint, books: readonly BookToReady[]): Promise<void>
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
  reservations: (chain: ChainKey) => Promise<Map<string, bigint>>,
): ReadyLaunches {
  return {
    async readyLaunches(chain, blockNumber, books) {
      if (!ctx.batchBuyers[chain] || books.length === 0) return
      const reserved = await reservations(chain).catch(() => undefined)
      if (!reserved) return
      for (const book of books) {
        if (ctx.ticking.has(book.slug)) continue
        try {
          await batches.readyClearing(chain, book.slug, blockNumber, {
            book: book.orders,
            stillWaiting: () => !ctx.ticking.has(book.slug),
            wallets: book.candidates.map((c) => c.wallet),
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
        } catch (error) {
          ctx.log.debug({ err: error, chain, slug: book.slug }, 'readying a launch clearing ahead failed; its launch tick clears as always')
        }
      }
    },
    readiedLaunch: (chain, slug) => batches.readied(chain, slug),
    forgetReadied: (chain, slug) => batches.forgetReadied(chain, slug),
  }
}
