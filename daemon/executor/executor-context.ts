import { createReorgEpochs, type ReorgEpochs } from './reorg-epochs.ts'
import { allowanceChangesReader, createWarmAllowances, type WarmAllowances } from './warm-allowances.ts'
import type { Address, PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { createKeyedMutex, type KeyGroup, keyGroup } from '../../src/common/keyed-mutex.ts'
import { createWarmSlugs } from './warm-slugs.ts'
import type { Logger } from '../../src/common/logger.ts'
import { type PrioritisationPolicy, spendThenLimitPolicy } from '../../src/domain/execution/prioritisation.ts'
import type { Journal } from '../../src/journal/journal.ts'
import { orderLockName } from '../../src/services/order-service.ts'
import type { Store } from '../../src/store/open-store.ts'
import { heldProjectSlugs } from '../../src/store/project-index.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'
import type { TickBus } from '../indexer/tick-bus.ts'
import { createExecutorChainReads, type ExecutorChainReads } from './executor-chain-reads.ts'
import { createOrderLoader, type OrderLoader } from './load-orders.ts'
import { type BookCache, createBookCache } from '../../src/domain/execution/book-cache.ts'
import { createWarmBooks, type WarmBooks } from './warm-books.ts'
import { createInFlightReservations, type InFlightReservations } from './in-flight-reservations.ts'
import { PriceBackoff } from '../../src/domain/execution/price-backoff.ts'
import { createBuyQuoter } from '../../src/launchpads/quote-buy.ts'
import { createTickQuotes, type QuoteDisagreement, type TickQuotes } from './tick-quotes.ts'
import { type BatchChainReads, createBatchChainReads } from './batch-chain-reads.ts'
import { type BatchJournal, createBatchJournal } from '../../src/journal/batch-journal.ts'
import { createPreparedEntries, type PreparedEntries } from './prepared-entries.ts'
import type { PrebuyWalletService } from '../../src/wallets/create-wallet-service.ts'
import { type BatchOperators, createBatchOperators } from './batch-operators.ts'
import { createSplitChainReads, type SplitChainReads } from './split-chain-reads.ts'
import type { ExecutorFailStop } from './batch-writes.ts'
import { type BatchDeadlineBlocks, batchDeadlineOf } from '../../src/domain/batch/batch-deadline.ts'
import { createSupersededBatches, type SupersededBatches } from './superseded-batches.ts'
import type { TickKind } from './tick-kind.ts'

/** An option accepted must be honoured: a maxBuyersPerTransaction that is not a positive integer is refused. */
function checkedBuyersPerTransaction(value: number | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`maxBuyersPerTransaction must be a positive integer, got ${value}.`)
  return value
}

export interface ExecutorDeps {
  store: Store
  journal: Journal
  wallets: ExecutorWallets
  chains: Record<ChainKey, ChainConfig>
  clients: Record<ChainKey, PublicClient>
  /** The PrebuyBuyRouter on each chain (ensureBuyRouter deploys it on devnet). */
  buyRouters: Record<ChainKey, Address>
  /**
   * The PrebuyBatchBuyer on each chain (batch-buyer-address.ts; ensureBatchBuyer deploys it on devnet): waiting wallets
   * approve it ahead of launches where it has code (approve-ahead.ts), and approved wallets buy through it, one swap per
   * block at one price (docs/execution.md §8). A chain without one buys per wallet only.
   */
  batchBuyers?: Partial<Record<ChainKey, Address>>
  /**
   * Whether waiting wallets approve the batch buyer ahead (default true: the daemon always does). Only a test of the
   * tick path alone turns it off, to decide itself which wallets are approved (a readying pass racing its own
   * approvals would make that a matter of timing).
   */
  approvalsAhead?: boolean
  /** Receives the 3% platform fee in the bought token. */
  feeRecipient: Address
  ticks: TickBus
  logger: Logger
  policy?: PrioritisationPolicy
  /** Consecutive non-price reverts after which an order is `failed` (default 3). Price reverts retry until expiry. */
  maxFailedAttempts?: number
  /** Most buys submitted per tick (default DEFAULT_MAX_BUYS); the rest are deferred to the next tick. */
  maxBuysPerTick?: number
  /**
   * Most buyers one batch transaction holds (an executeBatch, or one collect of a split batch). Default: computed from
   * the chain's per-transaction gas cap (batchMaxBuyers: 679 under 2^24); a lower value makes a smaller book split into
   * collects and a settle (tests, docs/execution.md §8 "The split batch through the executor"). Refused unless a
   * positive integer.
   */
  maxBuyersPerTransaction?: number
  /**
   * Each chain's block time in seconds (chainBlockSeconds of the config; default ON_DEMAND_NOMINAL_BLOCK_SECONDS): a
   * batch's last block and the depth it must reach before the batch is given up are counted from it
   * (src/domain/batch/batch-deadline.ts, docs/execution.md §8 "A last block for every pull").
   */
  blockSeconds?: Partial<Record<ChainKey, number>>
  /**
   * Overrides of those figures in blocks, for every chain (a test whose miner runs the chain's clock faster than the
   * wall clock gives its batches more blocks to land in). Refused unless positive integers.
   */
  batchDeadline?: Partial<BatchDeadlineBlocks>
  now?: () => number
  /** Formula-vs-quote tolerance, basis points (default DEFAULT_QUOTE_TOLERANCE_BPS). */
  quoteToleranceBps?: number
  /** Metrics hook: formula and quote of the real swap disagreed on a launch (counted per launchpad). */
  onQuoteDisagreement?: (disagreement: QuoteDisagreement) => void
  /** Metrics hook: a quote of the real swap was not answered (that tick was decided on the formula). */
  onQuoteFailure?: (chain: ChainKey) => void
  /** Metrics hook: a stage of a tick finished (performance.now() time), for the launch-latency benchmark. */
  onStage?: (stage: string, at: number) => void
  /**
   * Metrics hook: a tick's decision took `seconds` (run-tick.ts), by what it did (tick-kind.ts); `afterReads` of them
   * followed its reads' answers (its planning and recording; undefined: it never got there).
   */
  onTick?: (chain: ChainKey, kind: TickKind, seconds: number, afterReads: number | undefined) => void
  /** Waiting projects get their order book prepared ahead from this many active orders (default PREPARE_BOOKS_AHEAD_FROM). */
  prepareBooksAheadFrom?: number
  /**
   * Up to this many wallets, a tick reads the batch buyer's allowances directly at its block (one multicall, overlapped
   * with its quote) instead of carrying the snapshot read ahead (warm-allowances.ts, DIRECT_READ_MAX_WALLETS by default;
   * 0: always carried, as a large book is). Refused unless a non-negative integer.
   */
  allowancesDirectUpTo?: number
  /**
   * Called once if the executor stops itself (a committed batch's orders could not be moved: batch-writes.ts); the
   * daemon stops with it, so a restart rolls the batch forward instead of ticking on. Logged either way.
   */
  onFailStop?: (failure: ExecutorFailStop) => void
}

/**
 * A waiting project's order book is prepared ahead of its launch (ready-ahead.ts) once it has this many active orders:
 * below, the launch tick builds it in about a millisecond (prepareBook: ~36 ms per 100,000 orders, docs/execution.md),
 * and holding a book per small project costs memory for nothing (500 waiting projects of 200 orders: ~30 MB of books,
 * typed arrays and candidates, and their merges' garbage on every write; docs/reliability.md, "Memory").
 */
export const PREPARE_BOOKS_AHEAD_FROM = 2_000

/** What the executor asks of the wallet layer. */
export type ExecutorWallets = Pick<WalletService, 'walletAddress' | 'submitUserOperations'> &
  Partial<Pick<WalletService, 'prepareAhead' | 'forgetAhead' | 'sendCall' | 'operatorAddress'>> &
  Partial<Pick<PrebuyWalletService, 'sendFromPool' | 'senderAddresses' | 'sendFromAccount' | 'warmSends'>>

/**
 * What the executor's parts share: its dependencies, the settings with their defaults applied, and the state that
 * outlives one tick (locks, prepared order books, the warm snapshots, the projects being ticked). Each part takes the
 * slice it needs (a Pick of this), so it can be built and tested alone with fakes.
 */
export interface ExecutorContext {
  store: Store
  journal: Journal
  wallets: ExecutorWallets
  chains: Record<ChainKey, ChainConfig>
  buyRouters: Record<ChainKey, Address>
  batchBuyers: Partial<Record<ChainKey, Address>>
  feeRecipient: Address
  policy: PrioritisationPolicy
  maxFailedAttempts: number
  maxBuysPerTick: number | undefined
  /** ExecutorDeps.maxBuyersPerTransaction (undefined: from the gas cap). */
  maxBuyersPerTransaction?: number | undefined
  /** The split batch's chain reads (collections, chunks, ChunkCollected, BatchSettled); without them, no split batch. */
  splitReads?: SplitChainReads
  /** A chain's batch deadline figures: the last block a batch may pull in, and how deep it must be before a release. */
  batchDeadline(chain: ChainKey): BatchDeadlineBlocks
  now: () => number
  log: Logger
  /** Marks the end of a stage of a tick (the launch-latency benchmark's hook). */
  stage(name: string): void
  /** A tick's decision took `seconds`, `afterReads` of them after its reads (ExecutorDeps.onTick: the tick-time metric). */
  onTick?: (chain: ChainKey, kind: TickKind, seconds: number, afterReads: number | undefined) => void
  reads: ExecutorChainReads
  /** The batch path's chain reads (allowances, batches(batchId), BatchExecuted). */
  batchReads: BatchChainReads
  /** Allowances to the batch buyer carried from block to block, read ahead of launches (warm-allowances.ts). */
  warmAllowances?: WarmAllowances
  /** The batches journaled (the one write path of a batch record). */
  batchJournal: BatchJournal
  /** Waiting launches' batch entries written ahead for their compact commit (prepared-entries.ts); absent: full commits. */
  preparedEntries?: PreparedEntries
  /**
   * The released batches whose transaction could still land (mined and reverted, last block not final), per launch:
   * every later batch of the launch supersedes them (superseded-batches.ts; docs/execution.md §8).
   */
  supersededBatches?: SupersededBatches
  /** The sender accounts as batch operators: whether a chain's batches may go out from the pool (batch-operators.ts). */
  batchOperators: BatchOperators
  /**
   * Planning (balances, reservations, state writes) runs one at a time per chain, so two launches never size one
   * wallet's balance twice; submissions and receipts run concurrently.
   */
  withChainLock<T>(chain: ChainKey, fn: () => Promise<T>): Promise<T>
  /** The reorgs signalled per chain: a settle whose reads a reorg may have outdated is not written (reorg-epochs.ts). */
  reorgEpochs: ReorgEpochs
  /** Runs fn holding the order-service locks of every key (the same lock the order service takes for one key). */
  withOrderLocks<T>(keyIds: readonly string[], fn: () => Promise<T>): Promise<T>
  /**
   * The order-service locks of these keys as one group (keyed-mutex.ts `keyGroup`), built ahead of a launch by the
   * readying pass: `withOrderLockGroup` then takes them all with no step per key.
   */
  orderLockGroup(keyIds: readonly string[]): KeyGroup
  /** Runs fn holding every lock of the group, as withOrderLocks over its keys would (keyed-mutex.ts `runGroup`). */
  withOrderLockGroup<T>(group: KeyGroup, fn: () => Promise<T>): Promise<T>
  orders: OrderLoader
  /** Prepared order books between ticks: parsed and sorted again only when a project's orders change. */
  books: BookCache
  warm: WarmBooks
  /** The chains' in-flight executions and reservations, held until one of them is written (in-flight-reservations.ts). */
  inFlight: InFlightReservations
  /** Launched projects being ticked (they have a prepared book), with their chain; kept warm like waiting ones. */
  ticking: Map<string, ChainKey>
  /**
   * Launched projects the chain's last warm refresh still covered though they are not ticked yet (warm-slugs.ts): for
   * their launch tick's balances only, never readied as waiting.
   */
  warmAfterLaunch(chain: ChainKey): ReadonlySet<string>
  /** Quotes of the real swap that decide launched pools' buys, cached per launch and block (tick-quotes.ts). */
  quotes: TickQuotes
  /** Orders whose buys reverted for price at the same price: they wait before the next attempt at it. */
  backoff: PriceBackoff
  /** True once the executor is stopping: no new work starts. */
  stopped(): boolean
  /** Active orders from which a waiting project's book is prepared ahead (PREPARE_BOOKS_AHEAD_FROM by default). */
  prepareBooksAheadFrom: number
  /** Resolves once the executor is stopping (a tick waiting for a batch's sends gives up: the restart rolls it forward). */
  whenStopped?: Promise<void>
  /** Stops the executor for good in this process (batch-writes.ts ExecutorFailStop): set by start-executor.ts. */
  failStop?(failure: ExecutorFailStop): void
}

export function createExecutorContext(deps: ExecutorDeps, stopped: () => boolean): ExecutorContext {
  const { store } = deps
  const log = deps.logger.child({ component: 'executor' })
  const stage = (name: string) => deps.onStage?.(name, performance.now())
  // An option accepted must be honoured: figures that are not positive integers are refused here, at start.
  const batchDeadline = batchDeadlineOf({ blockSeconds: deps.blockSeconds, override: deps.batchDeadline })
  const batchJournal = createBatchJournal(store)
  const reads = createExecutorChainReads({ chains: deps.chains, clients: deps.clients, buyRouters: deps.buyRouters, stage })
  const chainLocks = createKeyedMutex()
  const orders = createOrderLoader({ store, wallets: deps.wallets })
  const ticking = new Map<string, ChainKey>()
  const warmSlugs = createWarmSlugs()
  // The chain's waiting projects, held between blocks (held-reads.ts): every block's warm refresh starts with them, and
  // read from LevelDB each time the read queued behind whatever else the loop held. On a launch block that is the
  // indexer's detection of the launch, so the refresh's balances, which the launch tick waits for, came after it:
  // 'warm.slugs' 21-29 ms after the launch log in the split bench (2026-11-28), the tick then waiting 0.4-2.7 ms more.
  const waitingSlugs = heldProjectSlugs(store, 'waiting')
  const warm = createWarmBooks({
    store,
    async slugsOf(chain) {
      stage('warm.refreshStart')
      const waiting = await waitingSlugs.of(chain)
      const out = warmSlugs.next(
        chain,
        waiting,
        [...ticking].filter(([, c]) => c === chain).map(([slug]) => slug),
      )
      stage('warm.slugs')
      return out
    },
    loadOrders: orders.load,
    patchOrders: orders.patch,
    readBalances: reads.balances,
    changedWallets: reads.changedWallets,
    onError: (error) => log.debug({ err: error }, 'warm refresh failed; ticks read fresh'),
  })
  const quoters = Object.fromEntries(
    Object.entries(deps.clients).map(([key, client]) => [
      key,
      createBuyQuoter({
        client,
        v4Quoter: deps.chains[key as ChainKey].addresses.v4Quoter,
        multicall3: deps.chains[key as ChainKey].addresses.multicall3,
        onOverridesRefused: (error) =>
          log.warn({ err: error, chain: key }, 'the node refuses eth_call block overrides: buys are quoted in the latest block context'),
      }),
    ]),
  )
  const batchReads = createBatchChainReads({ chains: deps.chains, clients: deps.clients })
  const quotes = createTickQuotes({
    quoters,
    log,
    ...(deps.quoteToleranceBps === undefined ? {} : { toleranceBps: deps.quoteToleranceBps }),
    ...(deps.onQuoteDisagreement ? { onDisagreement: deps.onQuoteDisagreement } : {}),
    onQuoteFailure: (chain) => deps.onQuoteFailure?.(chain),
  })
  return {
    store,
    journal: deps.journal,
    wallets: deps.wallets,
    chains: deps.chains,
    buyRouters: deps.buyRouters,
    batchBuyers: deps.batchBuyers ?? {},
    feeRecipient: deps.feeRecipient,
    policy: deps.policy ?? spendThenLimitPolicy,
    maxFailedAttempts: deps.maxFailedAttempts ?? 3,
    maxBuysPerTick: deps.maxBuysPerTick,
    maxBuyersPerTransaction: checkedBuyersPerTransaction(deps.maxBuyersPerTransaction),
    splitReads: createSplitChainReads({ chains: deps.chains, clients: deps.clients }),
    batchDeadline,
    now: deps.now ?? Date.now,
    log,
    stage,
    ...(deps.onTick ? { onTick: deps.onTick } : {}),
    reads,
    batchReads,
    warmAllowances: createWarmAllowances({
      read: (chain, spender, wallets, block) => batchReads.allowances(chain, spender, wallets, block),
      changedOwners: allowanceChangesReader({ chains: deps.chains, clients: deps.clients }),
      ...(deps.allowancesDirectUpTo === undefined ? {} : { directUpTo: deps.allowancesDirectUpTo }),
    }),
    batchJournal,
    preparedEntries: createPreparedEntries({ store, batchJournal, log, now: deps.now ?? Date.now }),
    supersededBatches: createSupersededBatches({ batchJournal, batchDeadline }),
    batchOperators: createBatchOperators({ clients: deps.clients, batchBuyers: deps.batchBuyers ?? {}, wallets: deps.wallets, log }),
    withChainLock: (chain, fn) => chainLocks.run(chain, fn),
    reorgEpochs: createReorgEpochs(),
    withOrderLocks: (keyIds, fn) => store.mutex.runAll(keyIds.map(orderLockName), fn),
    orderLockGroup: (keyIds) => keyGroup(keyIds.map(orderLockName)),
    withOrderLockGroup: (group, fn) => store.mutex.runGroup(group, fn),
    orders,
    books: createBookCache(),
    // The held waiting slugs stop following the store's writes with the warm books they feed.
    warm: {
      ...warm,
      stop() {
        warm.stop()
        waitingSlugs.stop()
      },
    },
    inFlight: createInFlightReservations(store, deps.journal),
    ticking,
    warmAfterLaunch: (chain) => warmSlugs.carried(chain),
    quotes,
    backoff: new PriceBackoff(),
    stopped,
    prepareBooksAheadFrom: deps.prepareBooksAheadFrom ?? PREPARE_BOOKS_AHEAD_FROM,
  }
}
