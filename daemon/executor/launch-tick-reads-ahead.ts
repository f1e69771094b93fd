import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import type { IndexerSignal } from '../indexer/tick-bus.ts'
import type { ExecutorContext } from './executor-context.ts'
import type { BatchPlanner } from './plan-batch.ts'
import { amountToPrice } from '../../src/domain/batch/clear-batch-ahead.ts'
import { predictBatchTotal } from './predict-batch-total.ts'
import { candidateBuckets } from './tick-quotes.ts'
import { withBalances } from './warm-books.ts'
import { bookWallets } from './book-wallets.ts'
import { launchBucketsOf } from './launch-buckets.ts'

type Books = ReturnType<ExecutorContext['warm']['snapshot']>

export interface LaunchTickReadsAhead {
  /**
   * A block arrived, before its warm refresh starts: the refresh of the block before (`books`, warm-books.ts
   * `snapshot`), which launchAhead sizes its reads on (the launch block's own is read in the record's round: waiting
   * for it would put the quotes a round late). Balances or orders that changed in the launch block only make a hint
   * that misses (the tick asks its own).
   */
  booksBefore(chain: ChainKey, blockNumber: bigint, books: Books): void
  /**
   * A launch log arrived (the indexer's `launch_ahead` signal, before the launch's record is written): for each hinted
   * project with a book in the block before's warm refresh, the reads its launch tick will make start now, in the
   * record's round: the quotes of its spend buckets and batch total (the readied walk's, else predicted) (tick-quotes.ts `quoteLaunchAhead`: used
   * only when the tick states exactly these inputs), the wallets' allowances to the batch buyer at the launch block
   * (chain state at the tick's block: what the tick would read) and the sends' fee and nonce check. Reads only: nothing
   * is planned, reserved or written, and a launch that binds none of them cost only these reads. Issue 23 item 3.
   */
  launchAhead(signal: Extract<IndexerSignal, { type: 'launch_ahead' }>): void
}

export function createLaunchTickReadsAhead(
  ctx: Pick<ExecutorContext, 'batchBuyers' | 'ticking' | 'quotes' | 'wallets' | 'log'> & { warm: Pick<ExecutorContext['warm'], 'snapshot' | 'refresh'> },
  batches: Pick<BatchPlanner, 'prefetchAllowances' | 'readied' | 'readSequenceSoon'>,
  reservations: (chain: ChainKey) => Promise<ReadonlyMap<string, bigint>>,
): LaunchTickReadsAhead {
  // Per chain: the warm refresh of the block before the newest.
  const previousBooks = new Map<ChainKey, { blockNumber: bigint; books: Books }>()
  return {
    booksBefore(chain, blockNumber, books) {
      books.catch(() => undefined)
      previousBooks.set(chain, { blockNumber: blockNumber - 1n, books })
    },

    launchAhead(signal) {
      const { chain, blockNumber } = signal
      const batchPath = ctx.batchBuyers[chain] !== undefined
      // A launch log pushed over the socket (the indexer's hint, docs/execution.md §5 "The launch log pushed") comes
      // before its block's signal: the block before's refresh is then still the newest, and is what it sizes on.
      const before = previousBooks.get(chain)
      const booksOfBefore = before?.blockNumber === blockNumber - 1n ? before.books : ctx.warm.snapshot(chain, blockNumber - 1n)
      // The launch block's own warm refresh (its balances, which the launch tick sizes on) starts now: a launch log
      // pushed over the socket comes before its block, and the tick would otherwise wait for this read after the block
      // arrives (the latency bench's socket mode, docs/execution.md §5). After the block before's books are taken
      // above; on a block already signalled it is under way and this does nothing (warm-books.ts `refresh`).
      ctx.warm.refresh(chain, blockNumber)
      void (async () => {
        // The launch record's round first: the indexer's receipt and reads, asked just before this hint, leave in the
        // read client's batch on a 0 ms timer (viem's batch scheduler, src/chain/clients.ts READ_BATCH). Run at once,
        // the work below (a book's candidates, buckets and wallets: 13 ms for 5,000 orders in the split bench's
        // profile, 2026-11-27) held that timer, and the receipt left ~20 ms after the log. A timer of the same delay set
        // now fires after it (Node runs timers of one duration in the order they were set), so the receipt leaves first
        // and these reads follow in the next request, while the record's round is out.
        await new Promise<void>((resolve) => setTimeout(resolve, 0))
        const books = await booksOfBefore
        if (!books) return
        let warmSends = false
        // The buckets' quotes first: the batch total waits on the in-flight reservations (a store read).
        const hinted: Array<{ slug: string; candidates: ReturnType<typeof withBalances> }> = []
        const hintOf = (slug: string) => ({
          slug,
          launch: signal.launch,
          blockNumber: blockNumber.toString(),
          nextBlockTimestamp: signal.nextBlockTimestamp,
          pairedUsdAtoms: signal.pairedUsdAtoms,
        })
        for (const slug of signal.slugs) {
          const orders = books.orders.get(slug)
          if (ctx.ticking.has(slug) || !orders || orders.length === 0) continue
          // Not the held candidates: those are the ticks' own (held-candidates.ts). The buckets the readying pass
          // computed for exactly this snapshot's orders and balances (launch-buckets.ts), else built here.
          let candidates: ReturnType<typeof withBalances> | undefined
          const candidatesOf = () => (candidates ??= withBalances(orders, new Map(), books.balances))
          const spends = launchBucketsOf(orders, books.balances) ?? candidateBuckets(candidatesOf())
          if (spends.length === 0) continue
          ctx.quotes.quoteLaunchAhead(hintOf(slug), [...spends])
          if (!batchPath) continue
          // A book the readying pass walked: its launch tick quotes the walk's total (decide-tick.ts), and so does the
          // hint, with no prediction over the book (15 ms for 5,000 orders in the split bench's profile) and no
          // reservations read.
          const readied = batches.readied(chain, slug)?.walked
          const readiedTotal = readied && amountToPrice(readied)
          if (readiedTotal) ctx.quotes.quoteLaunchAhead(hintOf(slug), [readiedTotal])
          else hinted.push({ slug, candidates: candidatesOf() })
          // Only the launch's chain is read of it (plan-batch.ts): the hint stands in for the record it precedes. The
          // book's own wallet list (book-wallets.ts, once per held list), the one the readying pass and the launch tick
          // pass: the warm allowances know it covered (by the list's identity) and scan nothing, where a list made here
          // was new each time and each of its 5,000 wallets was lower-cased and looked up again, before the receipt
          // was decoded (docs/execution.md §8, "The launch tick's split on the readied walk").
          batches.prefetchAllowances({ blockNumber: blockNumber.toString() }, signal.launch as LaunchRecord, bookWallets(orders).wallets)
          // The launch's next batch sequence (two LevelDB reads), which its readied commit names.
          batches.readSequenceSoon({ chain, slug, blockNumber: blockNumber.toString() })
          warmSends = true
        }
        const sends = warmSends ? ctx.wallets.prepareAhead?.(chain, []) : undefined
        if (hinted.length > 0) {
          const reserved = await reservations(chain)
          for (const { slug, candidates } of hinted) {
            const total = predictBatchTotal(candidates, reserved)
            if (total !== undefined) ctx.quotes.quoteLaunchAhead(hintOf(slug), [total])
          }
        }
        await sends
      })().catch((error: unknown) => ctx.log.debug({ err: error, chain }, 'reads ahead of a launch record failed'))
    },
  }
}
