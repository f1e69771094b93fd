import type { Address } from 'viem'
import { CHAIN_KEYS, type ChainKey } from '../../src/chain/chain-keys.ts'
import { projectSlugs } from '../../src/store/project-index.ts'
import type { BatchApprovals } from './approve-ahead.ts'
import type { ExecutorContext } from './executor-context.ts'
import { candidateOf, type LoadedOrder } from './warm-books.ts'
import { lowerWallet } from '../../src/domain/execution/wallet-index.ts'
import { prepareBatchEntryForms } from './batch-entry-forms.ts'
import type { BookToReady, ReadyLaunches } from './ready-launches.ts'
import type { CandidateOrder } from '../../src/domain/execution/prepared-book.ts'
import { createLaunchedBuyers } from './launched-buyers.ts'
import { rememberLaunchBuckets, sameLaunchBuckets } from './launch-buckets.ts'
import { candidateBuckets } from './tick-quotes.ts'
import { bookWallets } from './book-wallets.ts'
import type { BalanceState, CandidateDiff } from '../../src/domain/execution/held-candidates.ts'
import type { TickDecider } from './decide-tick.ts'

/** A waiting project's held candidates at a block (decide-tick.ts primeCandidates). */
type Primed = { candidates: CandidateOrder[]; diff: CandidateDiff }

export interface LaunchReadiness {
  /**
   * Work ahead of launches, once the indexer has processed a block (`launched`: the projects that launched in it).
   * Waiting projects' order books are brought up to date from the warm snapshot (those with at least
   * prepareBooksAheadFrom active orders: a smaller book is built by its launch tick in about a millisecond, and one
   * held per small project only costs memory; one that shrinks below is dropped). Wallets that could buy at a coming
   * launch (an active order in a project waiting to launch, stablecoin on the chain) are readied by the wallet layer:
   * their nonces and deployment read ahead, and the undeployed ones deployed by the service, so a launch buy carries
   * no initCode (less gas: more buys fit the first block) and reads nothing first.
   *
   * Nothing is readied in a block where something launched (that launch is being bought; readying waits for the next
   * block), so a deployment is never sent for a launch of that block; and never for a wallet with an order in a
   * launched project (a tick may be buying for it right now, and must not wait for a deployment). A wallet is
   * deployed only once it was already waiting at an earlier processed block: a deployment sent for a wallet funded or
   * ordered in the very block before a launch could still be pending when the launch buys, and that buy would wait
   * for it; nor once a block with a launch on the chain was processed while the wallets were being read. One readying at a time per chain; a block arriving meanwhile skips it (its books are still prepared).
   *
   * With `approvals` (a batch buyer on the chain), the same pass then has each waiting wallet allow the batch buyer
   * what its orders in waiting projects may spend, re-approved when that changes and revoked when they are gone
   * (approve-ahead.ts), under the same rules: never in a block with a launch, never for a wallet buying now.
   */
  onProcessed(chain: ChainKey, blockNumber: bigint, launched: readonly string[]): Promise<void>
  /**
   * After a (re)start, the order books of launched projects that still have active orders are built before their
   * first tick (the first block re-prices every launched pool): that tick then plans on a book it holds. Balances
   * are left at zero here; the tick brings its own (the cache's reuse path refreshes them without a rebuild).
   */
  prepareLaunchedBooks(): Promise<void>
}

export type LaunchReadinessContext = Pick<
  ExecutorContext,
  | 'store'
  | 'journal'
  | 'wallets'
  | 'warm'
  | 'inFlight'
  | 'books'
  | 'orders'
  | 'ticking'
  | 'warmAfterLaunch'
  | 'policy'
  | 'log'
  | 'stopped'
  | 'prepareBooksAheadFrom'
> &
  Partial<Pick<ExecutorContext, 'warmAllowances' | 'batchBuyers'>>

export function createLaunchReadiness(
  ctx: LaunchReadinessContext,
  approvals?: BatchApprovals,
  /**
   * Where the prepared books' launch clearings are readied and their candidates held (the tick decider: its batch
   * planner and held candidates).
   */
  launches?: Partial<Pick<ReadyLaunches, 'readyLaunches' | 'forgetReadied'> & Pick<TickDecider, 'primeCandidates' | 'primedSpends' | 'forgetPrimed'>>,
): LaunchReadiness {
  const { log } = ctx
  const readying = new Set<ChainKey>()
  const warmingSends = new Set<ChainKey>()
  // Per chain: whether funded orders waited at the last block whose snapshot was read (see onProcessed).
  const fundedWaiting = new Map<ChainKey, boolean>()
  const waitingBefore = new Map<ChainKey, Set<number>>()
  const launchedBuyers = new Map<ChainKey, ReturnType<typeof createLaunchedBuyers>>()
  const buyersOf = (chain: ChainKey) => launchedBuyers.get(chain) ?? launchedBuyers.set(chain, createLaunchedBuyers()).get(chain)!
  /** Per chain, the last pass's list of the prepared books' wallets and the books' own lists it was joined from. */
  const aheadLists = new Map<ChainKey, { books: ReadonlyArray<readonly Address[]>; joined: readonly Address[] }>()
  /**
   * The wallets whose allowances a pass reads ahead: the prepared books' own wallet lists (book-wallets.ts, the arrays
   * their ticks ask with), one book's as it is and several joined into the same array while every book's list is
   * the same. The warm allowances then know such a list covered by its identity and scan none of it again
   * (warm-allowances.ts): a new list each pass had each block's read ahead look up every wallet of every waiting book
   * (5,000 `lowerWallet`s and lookups, ~2 ms a block), and the launch's own hint, asking with the book's list, again
   * between the launch log and its tick (the split bench's CPU profile, 2026-11-27).
   */
  const walletsAhead = (
    chain: ChainKey,
    books: ReadonlyArray<readonly Address[]>,
  ): { wallets: readonly Address[]; covers: ReadonlyArray<readonly Address[]> } => {
    if (books.length === 1) return { wallets: books[0]!, covers: [] }
    const last = aheadLists.get(chain)
    if (last && last.books.length === books.length && last.books.every((list, i) => list === books[i])) return { wallets: last.joined, covers: books }
    const joined = books.flat()
    aheadLists.set(chain, { books, joined })
    return { wallets: joined, covers: books }
  }
  /** Blocks with a launch processed so far, per chain. */
  const launchesSeen = new Map<ChainKey, number>()
  /**
   * What each waiting project's book was last prepared from (its orders array, as the warm snapshot hands it back
   * unchanged until a write, and its wallets' balances in order): unchanged, the book is not prepared again. With
   * hundreds of waiting projects and 100,000 orders, preparing every book on every block rebuilt 100,000 candidates
   * every 2 s for nothing (garbage-collector and event-loop time the API's latency paid for).
   */
  const preparedFrom = new Map<
    string,
    { orders: readonly LoadedOrder[]; walletsLower: readonly string[]; balances: bigint[]; candidates: readonly CandidateOrder[] }
  >()

  /**
   * A waiting project's order book, built (or brought up to date) from the warm snapshot before its launch: the launch
   * tick then plans on a book it already holds, with the planning code compiled.
   */
  function prepareBook(
    slug: string,
    orders: readonly LoadedOrder[],
    balances: ReadonlyMap<string, bigint>,
    ahead?: { chain: ChainKey; state: BalanceState | undefined },
  ): BookToReady | undefined {
    if (orders.length === 0) return undefined
    const last = preparedFrom.get(slug)
    // Lower-cased once per orders array (the snapshot hands the same array until a write): a map lookup per order each
    // block otherwise, twice more for the launch clearing's reservations and allowances (ready-launches.ts).
    const walletsLower = last?.orders === orders ? last.walletsLower : orders.map((c) => lowerWallet(c.wallet))
    const walletBalances = walletsLower.map((wallet) => balances.get(wallet) ?? 0n)
    // The launch tick's own held candidates brought to this block (decide-tick.ts primeCandidates), every block, and
    // the book prepared on them: the launch tick then takes the quiet step over them and its diff applies to the book
    // (a project never held built 5,000 candidates and wallet slots in its launch tick: 6-10 ms of the split bench's
    // launch log to first send; docs/execution.md §8, "The launch tick's candidates primed and its locks taken as one").
    // Undefined: built here.
    const primed = ahead ? launches?.primeCandidates?.(slug, orders, { known: balances, state: ahead.state }) : undefined
    if (last && last.orders === orders && sameBalances(last.balances, walletBalances)) {
      // The book follows the held candidates' every step (their diff applies only from the list it was brought to).
      try {
        if (primed) prepareOn(slug, primed)
      } catch (error) {
        return notPrepared(slug, error)
      }
      sameLaunchBuckets(orders, balances)
      return { slug, ...last }
    }
    // On a chain with a batch buyer, each order's batch entry form too (parsed amounts, order id, the batch record's
    // row: batch-entry-forms.ts), so the launch tick's split computes only what the price decides. Only orders not
    // formed since their last write cost more than a lookup.
    if (ahead !== undefined && ctx.batchBuyers?.[ahead.chain]) prepareBatchEntryForms(orders, ctx.orders.idOf)
    // The readied launch's candidates: a copy of the held ones, which the next step edits in place (a readying still
    // predicting on this block's must not see the next block's balances). Otherwise an object literal per order, not
    // `{ ...c, balanceAtoms }`: V8 gave each spread copy its own hidden class (~300 bytes and ~3 µs an order: 30 MB and
    // 300 ms for 100,000, measured), which the book then keeps until the next write.
    const candidates = primed ? primed.candidates.slice() : orders.map((c, i) => candidateOf(c, walletBalances[i]!))
    try {
      if (primed) prepareOn(slug, primed)
      else ctx.books.prepare(slug, { candidates, policy: ctx.policy })
      preparedFrom.set(slug, { orders, walletsLower, balances: walletBalances, candidates })
      // The reads ahead of its launch quote these buckets (launch-buckets.ts): computed here, not after the launch log;
      // and so does its launch tick, over the primed candidates they were computed on (held-spends.ts).
      const spends = candidateBuckets(candidates)
      rememberLaunchBuckets(orders, balances, spends)
      if (primed) launches?.primedSpends?.(slug, primed.diff.seq, spends)
      return { slug, orders, walletsLower, balances: walletBalances, candidates }
    } catch (error) {
      return notPrepared(slug, error)
    }
  }

  /** A book whose preparation failed: prepared afresh by the next pass, else built by its launch tick. */
  function notPrepared(slug: string, error: unknown): undefined {
    preparedFrom.delete(slug)
    log.debug({ err: error, slug }, 'preparing an order book ahead failed; the launch tick builds it')
    return undefined
  }

  /** The project's book brought to its primed candidates (the held array itself, with the step's diff). */
  function prepareOn(slug: string, primed: Primed): void {
    ctx.books.prepare(slug, { candidates: primed.candidates, policy: ctx.policy }, primed.diff)
  }

  /** Forgets a book the pass no longer prepares, with its readied clearing and primed candidates. */
  function forgetBook(chain: ChainKey, slug: string): void {
    ctx.books.forget(slug)
    launches?.forgetReadied?.(chain, slug)
    launches?.forgetPrimed?.(slug)
  }

  /**
   * Deploys and reads ahead the wallets waiting for a launch, then approves the batch buyer for them; skipped while the
   * previous block's readying runs.
   */
  async function readyWallets(
    chain: ChainKey,
    blockNumber: bigint,
    waiting: Set<number>,
    buying: ReadonlySet<number>,
    snapshot: ApprovalSource,
  ): Promise<void> {
    const { prepareAhead } = ctx.wallets
    if ((!prepareAhead && !approvals) || readying.has(chain)) return
    const before = waitingBefore.get(chain) ?? new Set<number>()
    waitingBefore.set(chain, waiting)
    // Approvals may also revoke for wallets no longer waiting: the pass runs with nobody waiting too.
    if (waiting.size === 0 && !approvals) return
    readying.add(chain)
    // A launch processed while the wallets are read is being bought: a deployment sent now would delay its buys.
    const launchesBefore = launchesSeen.get(chain) ?? 0
    const stillWanted = () => !ctx.stopped() && (launchesSeen.get(chain) ?? 0) === launchesBefore
    try {
      if (prepareAhead && waiting.size > 0) {
        await prepareAhead.call(ctx.wallets, chain, [...waiting], { deploy: [...waiting].filter((userIndex) => before.has(userIndex)), stillWanted })
      }
    } catch (error) {
      log.debug({ err: error, chain }, 'readying wallets ahead failed; a launch reads their state itself')
    }
    try {
      await approvals?.pass(chain, { blockNumber, orders: snapshot.orders, launched: snapshot.launched, waiting, buying, stillWanted })
    } catch (error) {
      log.debug({ err: error, chain }, 'approving the batch buyer ahead failed; the next block tries again')
    } finally {
      readying.delete(chain)
    }
  }

  /**
   * The batch buyer's allowances of the prepared books' wallets at this block, carried forward block by block by the
   * logs (warm-allowances.ts): the launch tick then reads one block's logs, not every wallet's allowance. Runs beside
   * the readying of the wallets; the block's pass (what the executor's idle() waits for) ends once it did, so a first
   * read of thousands of allowances (seconds on a loaded node: 2.5 s for 5,000 in the split bench) is seen to finish.
   */
  async function readAllowancesAhead(
    chain: ChainKey,
    blockNumber: bigint,
    books: ReadonlyArray<readonly Address[]>,
  ): Promise<ReadonlyMap<string, bigint> | undefined> {
    const spender = ctx.batchBuyers?.[chain]
    if (!spender || !ctx.warmAllowances || books.length === 0) return undefined
    const { wallets, covers } = walletsAhead(chain, books)
    try {
      // Undefined when a later block's read (or a tick's) superseded it before it ran: that one carries the wallets.
      return await ctx.warmAllowances.ahead(chain, spender, wallets, blockNumber, covers)
    } catch (error) {
      log.debug({ err: error, chain }, 'reading allowances ahead failed; the launch tick reads them')
      return undefined
    }
  }

  /**
   * The send path's fees, block and pending nonces read on every processed block while funded orders wait (issue 23
   * item 3), apart from the readying of the wallets: that pass is skipped while the previous one runs (seconds for
   * thousands of wallets) and may be absent (no `prepareAhead`), and a launch's first send then read them itself
   * first (chain-now.ts: the cache lives 8 s, a nonce check 2 s), several round trips before its request (~90 ms in
   * the split bench at load ~1: docs/execution.md §8, "The first send without a read before it"). One at a time per
   * chain; the wallet layer shares it with prepareAhead's own warm-up of the same block.
   */
  async function warmSends(chain: ChainKey, anyoneWaiting: boolean): Promise<void> {
    const warm = ctx.wallets.warmSends
    if (!warm || !anyoneWaiting || warmingSends.has(chain)) return
    warmingSends.add(chain)
    try {
      await warm.call(ctx.wallets, chain)
    } catch (error) {
      log.debug({ err: error, chain }, 'reading the send path ahead failed; a launch send reads it itself')
    } finally {
      warmingSends.delete(chain)
    }
  }

  return {
    async onProcessed(chain, blockNumber, launchedNow) {
      if (launchedNow.length > 0) launchesSeen.set(chain, (launchesSeen.get(chain) ?? 0) + 1)
      if (launchedNow.length > 0 || ctx.stopped()) return
      const snapshot = await ctx.warm.snapshot(chain, blockNumber)
      // No snapshot of this block (a later block's refresh started before this pass asked: a loaded host, a slow
      // node): the send path is read all the same, on what the last snapshot said. It used to be skipped with the
      // rest of the pass, and a launch after a few such blocks found the senders' nonce check past its 2 s and waited
      // one round trip for it after its commit (the latency bench's socket runs, 2026-11-27: log -> first tx 73-186
      // ms against 15-31; docs/execution.md §5).
      if (!snapshot) return warmSends(chain, fundedWaiting.get(chain) ?? false)
      const launched = new Set<string>()
      for (const [slug, c] of ctx.ticking) if (c === chain) launched.add(slug)
      // Launched, kept warm for their first tick (warm-slugs.ts): never readied as waiting.
      for (const slug of ctx.warmAfterLaunch(chain)) launched.add(slug)
      const waiting = new Set<number>()
      // A launched project's book is the ticks' to change: prepared again from scratch if it ever waits again (a reorg).
      for (const slug of launched) preparedFrom.delete(slug)
      const allowancesAhead: Array<readonly Address[]> = []
      const booksToReady: BookToReady[] = []
      const launchedOrders: Array<readonly LoadedOrder[]> = []
      for (const [slug, orders] of snapshot.orders) {
        if (launched.has(slug)) {
          launchedOrders.push(orders)
          continue
        }
        if (orders.length >= ctx.prepareBooksAheadFrom) {
          const book = prepareBook(slug, orders, snapshot.balances, { chain, state: snapshot.state })
          if (book) booksToReady.push(book)
          allowancesAhead.push(bookWallets(orders).wallets)
        } else if (preparedFrom.delete(slug)) {
          forgetBook(chain, slug)
        }
        for (const loaded of orders) if ((snapshot.balances.get(lowerWallet(loaded.wallet)) ?? 0n) > 0n) waiting.add(loaded.userIndex)
      }
      // The same set while the launched projects' order lists are the same arrays (launched-buyers.ts).
      let buying = buyersOf(chain)(launchedOrders)
      const allowancesRead = readAllowancesAhead(chain, blockNumber, allowancesAhead)
      // Each prepared book's launch clearing, on the allowances this pass read at its block (decide-tick.ts
      // readyLaunches): the launch tick then prices the walk instead of doing it. Part of the block's pass (idle() waits
      // for it); no read of its own, one at a time per chain, within a time budget (ready-launches.ts). Nothing when the
      // read was superseded by a later block's: that block's pass readies them.
      const launchesBefore = launchesSeen.get(chain) ?? 0
      const launchesReadied =
        launches?.readyLaunches && ctx.batchBuyers?.[chain] && booksToReady.length > 0
          ? allowancesRead.then((allowances) =>
              allowances
                ? launches.readyLaunches?.(chain, blockNumber, booksToReady, {
                    allowances,
                    stillWanted: () => !ctx.stopped() && (launchesSeen.get(chain) ?? 0) === launchesBefore,
                  })
                : undefined,
            )
          : Promise.resolve()
      // A wallet whose order is executing (in flight: a batch's entry or a UserOperation) is buying too, though its order
      // is no longer active (not in the snapshot) and its project may have left `ticking` (no active order left): an
      // approval sent now (to 0, its orders being gone from the waiting projects) could land before the batch pulls and
      // make the batch skip it (observed in the 500-buyer bench, 2026-11-26: 4 buyers skipped, bought 14 blocks later;
      // after a restart the released orders would buy one by one instead of in the batch).
      if (approvals) {
        const executing = (await ctx.inFlight.of(chain)).entries.filter((entry) => !buying.has(entry.userIndex))
        if (executing.length > 0) buying = new Set([...buying, ...executing.map((entry) => entry.userIndex)])
      }
      for (const userIndex of waiting) if (buying.has(userIndex)) waiting.delete(userIndex)
      fundedWaiting.set(chain, waiting.size > 0)
      const sendsWarmed = warmSends(chain, waiting.size > 0)
      await readyWallets(chain, blockNumber, waiting, buying, { orders: snapshot.orders, launched })
      await allowancesRead
      await launchesReadied
      await sendsWarmed
    },
    async prepareLaunchedBooks() {
      for (const chain of CHAIN_KEYS) {
        for (const slug of await projectSlugs(ctx.store, chain, 'launched')) {
          if (ctx.stopped()) return
          if (ctx.books.lastUse(slug) !== undefined) continue
          const orders = await ctx.orders.load(slug)
          // A tick may have built the book while the orders were read.
          if (ctx.books.lastUse(slug) === undefined) prepareBook(slug, orders, new Map())
        }
      }
    },
  }
}

/** What an approval pass reads of the block's warm snapshot. */
interface ApprovalSource {
  orders: ReadonlyMap<string, readonly LoadedOrder[]>
  launched: ReadonlySet<string>
}

const sameBalances = (a: readonly bigint[], b: readonly bigint[]): boolean => a.length === b.length && a.every((value, i) => value === b[i])
