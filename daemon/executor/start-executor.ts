import { parseAbiItem, zeroHash, type Address, type Hash, type PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import type { Logger } from '../../src/common/logger.ts'
import { createKeyedMutex } from '../../src/common/keyed-mutex.ts'
import { formatDecimal } from '../../src/domain/decimal.ts'
import { splitPlatformFee } from '../../src/domain/execution/platform-fee.ts'
import { spendThenLimitPolicy, type PrioritisationPolicy } from '../../src/domain/execution/prioritisation.ts'
import { USDC_DECIMALS } from '../../src/domain/order-bounds.ts'
import type { OrderRecord, OrderStatus } from '../../src/domain/records.ts'
import type { Journal } from '../../src/journal/journal.ts'
import type { InFlightExecution, LaunchRecord, OrderDecision, OrderEvent, PriceTick } from '../../src/journal/journal-records.ts'
import { orderLockName } from '../../src/services/order-service.ts'
import { orderKey, orderWriteOps, projectStatusPrefix } from '../../src/store/order-index.ts'
import type { Store, StoreOperation } from '../../src/store/open-store.ts'
import { readAll } from '../../src/store/paginate.ts'
import { withResolvers } from '../../src/common/with-resolvers.ts'
import { failureReason } from '../../src/wallets/failure-reason.ts'
import type { UserOperationResult, WalletService } from '../../src/wallets/wallet-service.ts'
import type { IndexerSignal, TickBus } from '../indexer/tick-bus.ts'
import { createBuyCallEncoder, executionOrderId } from './build-buy-calls.ts'
import { buyKey, findBuyOnChain, findBuysInTransaction, type BuyOutcome } from './find-buy.ts'
import { createBookCache } from './plan-book-cache.ts'
import { sameVerdicts, type CandidateOrder, type PlannedBuy } from './plan-tick.ts'
import { readStablecoinBalances } from './read-stablecoin-balances.ts'
import { createWarmBooks, type LoadedOrder } from './warm-books.ts'

export interface ExecutorDeps {
  store: Store
  journal: Journal
  wallets: Pick<WalletService, 'walletAddress' | 'submitUserOperations'> & Partial<Pick<WalletService, 'prepareAhead' | 'forgetAhead'>>
  chains: Record<ChainKey, ChainConfig>
  clients: Record<ChainKey, PublicClient>
  /** The PrebuyBuyRouter on each chain (ensureBuyRouter deploys it on devnet). */
  buyRouters: Record<ChainKey, Address>
  /** Receives the 3% platform fee in the bought token. */
  feeRecipient: Address
  ticks: TickBus
  logger: Logger
  policy?: PrioritisationPolicy
  /** Consecutive non-price reverts after which an order is `failed` (default 3). Price reverts retry until expiry. */
  maxFailedAttempts?: number
  /** Most buys submitted per tick (default DEFAULT_MAX_BUYS); the rest are deferred to the next tick. */
  maxBuysPerTick?: number
  now?: () => number
  /** Metrics hook: a stage of a tick finished (performance.now() time), for the launch-latency benchmark. */
  onStage?: (stage: string, at: number) => void
}

export interface Executor {
  /** Processes one tick now (the bus path queues to this); resolves when its buys have a final state. */
  handleTick(tick: PriceTick, launch: LaunchRecord): Promise<void>
  /** Settles every in-flight execution from the chain (run at start: a crash between submission and receipt). */
  reconcile(): Promise<void>
  /** Resolves when every queued tick has been processed. */
  idle(): Promise<void>
  /** Ticks and revalidations queued or in progress (0 = idle). */
  busy(): number
  stop(): Promise<void>
}

const SELECTOR_TOO_LITTLE = 'TooLittleReceived'
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

/**
 * The order executor: on each tick of a launched project, decides (pure planner), records the decision and every
 * transition in one atomic batch, submits one UserOperation per buy in priority order, and records the outcome.
 *
 * Exactly once: an order is bought through PrebuyBuyRouter with an order id the router accepts once per account, and
 * the `executing` state plus an in-flight entry are written before submission; after a crash the in-flight entries
 * are settled from the chain (the router's `executed` flag and PrebuyBuy log), never by buying again.
 */
export async function startExecutor(deps: ExecutorDeps): Promise<Executor> {
  const { store, journal, logger } = deps
  const policy = deps.policy ?? spendThenLimitPolicy
  const maxFailedAttempts = deps.maxFailedAttempts ?? 3
  const now = deps.now ?? Date.now
  const log = logger.child({ component: 'executor' })
  const stage = (name: string) => deps.onStage?.(name, performance.now())
  let stopped = false

  // Planning (balances, reservations, state writes) is serialised per chain so two launches never size one wallet's
  // balance twice; submissions run concurrently.
  const chainLocks = createKeyedMutex()
  const withChainLock = <T>(chain: ChainKey, fn: () => Promise<T>): Promise<T> => chainLocks.run(chain, fn)

  /** Runs fn holding the order-service locks of every key (the same locks the order service takes for one key). */
  const withOrderLocks = <T>(keyIds: readonly string[], fn: () => Promise<T>): Promise<T> => store.mutex.runAll(keyIds.map(orderLockName), fn)

  const readOrder = async (keyId: string, slug: string): Promise<OrderRecord | undefined> =>
    (await store.sub.orders.get(orderKey(keyId, slug))) as OrderRecord | undefined
  const followersOf = async (keyId: string): Promise<number> => (await store.sub.users.get(keyId))?.social?.followerCount ?? 0

  type TransitionEvent = Omit<OrderEvent, 'keyId' | 'slug' | 'from' | 'to' | 'at'>
  /** Ops of one transition: the record, its indexes (with the buyer's follower count) and its journal event. */
  const transitionOps = (
    previous: OrderRecord,
    status: OrderStatus,
    at: number,
    event: TransitionEvent,
    followers: number,
    patch: Partial<OrderRecord> = {},
  ) => {
    const next: OrderRecord = { ...previous, ...patch, status, updatedAt: at }
    const ops = orderWriteOps(store, previous, next, followers)
    ops.push(journal.putOrderEvent({ keyId: previous.keyId, slug: previous.slug, from: previous.status, to: status, at, ...event }))
    return ops
  }
  // Order ids (a keccak each) computed when orders are loaded, mostly by the warm refresh before launch, so the launch
  // tick's executing batch does not hash hundreds of them. Keyed by everything the id hashes.
  const orderIds = new Map<string, Hash>()
  const orderIdOf = (order: OrderRecord): Hash => {
    const key = `${order.keyId}!${order.slug}!${order.createdAt}`
    let id = orderIds.get(key)
    if (id === undefined) {
      id = executionOrderId(order)
      // A bound, not an eviction policy: the ids are recomputed on demand.
      if (orderIds.size >= 500_000) orderIds.clear()
      orderIds.set(key, id)
    }
    return id
  }

  async function loadOrders(slug: string): Promise<LoadedOrder[]> {
    const keyIds = (await readAll(store.sub.ordersByProject, projectStatusPrefix(slug, 'active'))).map((e) => e.value)
    // Two multi-gets instead of two reads per order: the launch tick is latency-critical.
    const [orders, users] = await Promise.all([
      store.sub.orders.getMany(keyIds.map((keyId) => orderKey(keyId, slug))) as Promise<Array<OrderRecord | undefined>>,
      store.sub.users.getMany(keyIds),
    ])
    const loaded = await Promise.all(
      keyIds.map(async (_keyId, i) => {
        const order = orders[i]
        const user = users[i]
        if (order?.status !== 'active' || !user) return undefined
        orderIdOf(order)
        return { order, userIndex: user.userIndex, followers: user.social?.followerCount ?? 0, wallet: await deps.wallets.walletAddress(user.userIndex) }
      }),
    )
    return loaded.filter((c): c is NonNullable<typeof c> => c !== undefined)
  }

  const readBalances = (chain: ChainKey, wallets: readonly Address[], blockNumber?: bigint) => {
    stage(`balances.read${blockNumber === undefined ? '' : '.warm'}.${wallets.length}`)
    return readStablecoinBalances(deps.clients[chain], deps.chains[chain].addresses.multicall3, deps.chains[chain].addresses.stablecoin, wallets, blockNumber)
  }

  // Launched projects being ticked (they have a prepared book), kept warm alongside the ones waiting to launch.
  const ticking = new Map<string, ChainKey>()
  const warm = createWarmBooks({
    store,
    async slugsOf(chain) {
      stage('warm.refreshStart')
      const out = new Set<string>()
      for (const { value } of await readAll(store.sub.projects, '')) if (value.chain === chain && value.launch === null) out.add(value.slug)
      for (const [slug, c] of ticking) if (c === chain) out.add(slug)
      stage('warm.slugs')
      return [...out]
    },
    loadOrders,
    readBalances,
    async changedWallets(chain, blockNumber) {
      const logs = await deps.clients[chain].getLogs({
        address: deps.chains[chain].addresses.stablecoin,
        event: TRANSFER,
        fromBlock: blockNumber,
        toBlock: blockNumber,
      })
      stage('warm.transferLogs')
      const out = new Set<string>()
      for (const entry of logs) {
        if (entry.args.from) out.add(entry.args.from.toLowerCase())
        if (entry.args.to) out.add(entry.args.to.toLowerCase())
      }
      return out
    },
    onError: (error) => log.debug({ err: error }, 'warm refresh failed; ticks read fresh'),
  })

  /**
   * Work ahead of launches, once the indexer has processed a block (and not in a block where something launched: that
   * launch is being bought, readying waits for the next block). Waiting projects' order books are brought up to date
   * from the warm snapshot. Wallets that could buy at a coming launch (an active order in a project waiting to launch,
   * stablecoin on the chain) are readied by the wallet layer: their nonces and deployment read
   * ahead, and the undeployed ones deployed by the service, so a launch buy carries no initCode (less gas: more buys
   * fit the first block) and reads nothing first. Only after the block is processed, so a deployment is never sent
   * for a launch of that block; and never for a wallet with an order in a launched project (a tick may be buying
   * for it right now, and must not wait for a deployment). A wallet is deployed only once it was already waiting at
   * an earlier processed block: a deployment sent for a wallet funded or ordered in the very block before a launch
   * could still be pending when the launch buys, and that buy would wait for it. One wallet readying at a time per
   * chain; a block arriving meanwhile skips it (its books are still prepared).
   */
  const readying = new Set<ChainKey>()
  const waitingBefore = new Map<ChainKey, Set<number>>()
  async function readyAhead(chain: ChainKey, blockNumber: bigint, launchedNow: readonly string[]): Promise<void> {
    // A launch in this block is being bought right now: readying others waits for the next block.
    if (launchedNow.length > 0 || stopped) return
    const snapshot = await warm.snapshot(chain, blockNumber)
    if (!snapshot) return
    const launched = new Set<string>()
    for (const [slug, c] of ticking) if (c === chain) launched.add(slug)
    const waiting = new Set<number>()
    const buying = new Set<number>()
    for (const [slug, orders] of snapshot.orders) {
      if (!launched.has(slug)) prepareBook(slug, orders, snapshot.balances)
      for (const loaded of orders) {
        if (launched.has(slug)) buying.add(loaded.userIndex)
        else if ((snapshot.balances.get(loaded.wallet.toLowerCase()) ?? 0n) > 0n) waiting.add(loaded.userIndex)
      }
    }
    const { prepareAhead } = deps.wallets
    // The previous block's readying may still wait for its deployments' receipts: this block's books are done anyway.
    if (!prepareAhead || readying.has(chain)) return
    for (const userIndex of buying) waiting.delete(userIndex)
    const before = waitingBefore.get(chain) ?? new Set<number>()
    waitingBefore.set(chain, waiting)
    if (waiting.size === 0) return
    readying.add(chain)
    try {
      await prepareAhead.call(deps.wallets, chain, [...waiting], { deploy: [...waiting].filter((userIndex) => before.has(userIndex)) })
    } catch (error) {
      log.debug({ err: error, chain }, 'readying wallets ahead failed; a launch reads their state itself')
    } finally {
      readying.delete(chain)
    }
  }

  /**
   * A waiting project's order book, built (or brought up to date) from the warm snapshot before its launch: the launch
   * tick then plans on a book it already holds, with the planning code compiled.
   */
  function prepareBook(slug: string, orders: readonly LoadedOrder[], balances: ReadonlyMap<string, bigint>): void {
    if (orders.length === 0) return
    const candidates = orders.map((c) => ({ ...c, balanceAtoms: balances.get(c.wallet.toLowerCase()) ?? 0n }))
    try {
      books.prepare(slug, { candidates, policy })
    } catch (error) {
      log.debug({ err: error, slug }, 'preparing an order book ahead failed; the launch tick builds it')
    }
  }

  /** The tick's orders and balances: from the warm snapshot of the tick's block when exact, else from the store/chain. */
  async function loadCandidates(launch: LaunchRecord, tick: PriceTick): Promise<Array<CandidateOrder & { followers: number }>> {
    stage('executor.tickStart')
    const snapshot = await warm.take(launch.chain, launch.slug, BigInt(tick.blockNumber))
    stage('executor.warmSnapshot')
    const present = snapshot?.orders ?? (await loadOrders(launch.slug))
    stage('executor.ordersUsersWallets')
    const known = snapshot?.balances
    const missing = known ? present.filter((c) => !known.has(c.wallet.toLowerCase())).map((c) => c.wallet) : present.map((c) => c.wallet)
    const fresh = missing.length > 0 ? await readBalances(launch.chain, missing) : new Map<string, bigint>()
    stage('executor.balances')
    return present.map((c) => {
      const key = c.wallet.toLowerCase()
      return { ...c, balanceAtoms: fresh.get(key) ?? known?.get(key) ?? 0n }
    })
  }

  const lastQuietDecisions = new Map<string, readonly OrderDecision[]>()
  // Prepared order books between ticks: parsed and sorted again only when a project's orders change.
  const books = createBookCache()

  async function reservations(chain: ChainKey): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>()
    for (const entry of await journal.inFlight(chain)) {
      const key = entry.wallet.toLowerCase()
      out.set(key, (out.get(key) ?? 0n) + BigInt(entry.spendAtoms))
    }
    return out
  }

  type Submitted = Array<{ buy: PlannedBuy; entry: InFlightExecution }>
  /**
   * Phase 1 (under the chain lock): decide, and write decision + transitions + in-flight entries in one batch.
   * `submit` is called with the buys as soon as the batch is built, together with the batch write's promise: the
   * wallet layer signs and simulates while the write runs and broadcasts nothing before it succeeded.
   */
  async function decide(tick: PriceTick, launch: LaunchRecord, submit: (buys: Submitted, written: Promise<void>) => void): Promise<Submitted> {
    const candidates = await loadCandidates(launch, tick)
    if (candidates.length === 0) {
      books.forget(launch.slug)
      ticking.delete(launch.slug)
      return []
    }
    ticking.set(launch.slug, launch.chain)
    const reserved = await reservations(launch.chain)
    stage('executor.reservations')
    const plan = books.plan(launch.slug, {
      tick,
      launchedAt: launch.launchedAt,
      // A buy lands in the next block: an order whose expiry falls before that block may not buy any more.
      now: tick.nextBlockTimestamp * 1000,
      totalSupply: BigInt(launch.totalSupply),
      candidates,
      reservedByWallet: reserved,
      policy,
      ...(deps.maxBuysPerTick === undefined ? {} : { maxBuys: deps.maxBuysPerTick }),
    })
    stage('executor.planned')
    stage(`executor.book.${books.lastUse(launch.slug) ?? 'none'}`)
    if (plan.buys.length === 0 && plan.expired.length === 0) {
      // Nothing happens this tick: journal it only when a verdict changed since the last recorded decision, so a quiet
      // book priced every block (fee decay, heartbeats) does not grow the journal with identical entries.
      const previous = lastQuietDecisions.get(launch.slug)
      if (previous && sameVerdicts(previous, plan.decisions)) return []
      lastQuietDecisions.set(launch.slug, plan.decisions)
      await store.batch([journal.putDecision({ slug: launch.slug, chain: launch.chain, tick, policy: policy.name, orders: plan.decisions, at: now() })])
      return []
    }
    lastQuietDecisions.delete(launch.slug)
    const at = now()
    const fromBlock = tick.blockNumber
    const keyIds = [...plan.expired.map((o) => o.keyId), ...plan.buys.map((b) => b.candidate.order.keyId)]
    const followers = new Map(candidates.map((c) => [c.order.keyId, c.followers]))
    return withOrderLocks(keyIds, async () => {
      stage('executor.locked')
      const ops: StoreOperation[] = []
      const submitted: Array<{ buy: PlannedBuy; entry: InFlightExecution }> = []
      const decisions = [...plan.decisions]
      const decisionOf = new Map(decisions.map((d) => [d.keyId, d]))
      // Re-read under the locks, all at once: a PATCH or DELETE that landed since planning wins.
      const currentOf = async (orders: readonly OrderRecord[]) =>
        (await store.sub.orders.getMany(orders.map((o) => orderKey(o.keyId, o.slug)))) as Array<OrderRecord | undefined>
      const [expiredNow, buyingNow] = await Promise.all([currentOf(plan.expired), currentOf(plan.buys.map((b) => b.candidate.order))])
      stage('executor.reread')
      plan.expired.forEach((order, i) => {
        const current = expiredNow[i]
        if (current?.status !== 'active') return
        ops.push(...transitionOps(current, 'expired', at, { reason: 'expired after launch' }, followers.get(order.keyId) ?? 0))
      })
      plan.buys.forEach((buy, i) => {
        const { order } = buy.candidate
        const current = buyingNow[i]
        if (current?.status !== 'active' || current.updatedAt !== order.updatedAt) {
          const decision = decisionOf.get(order.keyId)
          if (decision) decision.verdict = 'in_flight'
          return
        }
        const entry: InFlightExecution = {
          keyId: order.keyId,
          slug: order.slug,
          chain: launch.chain,
          userIndex: buy.candidate.userIndex,
          wallet: buy.candidate.wallet,
          spendAtoms: buy.spendAtoms.toString(),
          minTokensOut: buy.minTokensOut.toString(),
          token: launch.token,
          orderId: orderIdOf(order),
          submittedAt: at,
          fromBlock,
        }
        ops.push(...transitionOps(current, 'executing', at, { spendAtoms: entry.spendAtoms, reason: `rank ${buy.rank}` }, followers.get(order.keyId) ?? 0))
        ops.push(journal.putInFlight(entry))
        submitted.push({ buy, entry })
      })
      ops.push(journal.putDecision({ slug: launch.slug, chain: launch.chain, tick, policy: policy.name, orders: decisions, at }))
      stage('executor.executingOpsBuilt')
      const { promise: written, resolve: release, reject: refuse } = withResolvers<void>()
      written.catch(() => undefined)
      if (submitted.length > 0) {
        submit(submitted, written)
        // Handing the batch to LevelDB is synchronous (~10 ms for a 500-buy launch): let the wallet layer sign its
        // first chunk and start simulating it on the node before the write takes the thread.
        await new Promise((resolve) => setImmediate(resolve))
      }
      try {
        await store.batch(ops)
        release()
      } catch (error) {
        refuse(error)
        throw error
      }
      stage('executor.executingWritten')
      return submitted
    })
  }

  interface Settlement {
    entry: InFlightExecution
    /** The buy as the chain recorded it; absent when the order did not buy. */
    outcome?: BuyOutcome | undefined
    failure?: { reason: string; priceMoved: boolean } | undefined
    extra?: { userOpHash?: Hash; txHash?: Hash }
  }

  /**
   * Settles in-flight orders in one batch: filled from a known outcome, else back to active (or failed after repeated
   * non-price failures); the in-flight entries go in the same write.
   */
  async function settleMany(settlements: readonly Settlement[]): Promise<void> {
    if (settlements.length === 0) return
    await withOrderLocks(
      settlements.map((s) => s.entry.keyId),
      async () => {
        const currents = (await store.sub.orders.getMany(settlements.map((s) => orderKey(s.entry.keyId, s.entry.slug)))) as Array<OrderRecord | undefined>
        const followers = await Promise.all(settlements.map((s) => followersOf(s.entry.keyId)))
        const ops: StoreOperation[] = []
        const at = now()
        for (const [i, { entry, outcome, failure, extra = {} }] of settlements.entries()) {
          ops.push(journal.deleteInFlight(entry))
          const current = currents[i]
          if (current?.status !== 'executing') continue
          const hashes = { ...(extra.userOpHash ? { userOpHash: extra.userOpHash } : {}), ...(extra.txHash ? { txHash: extra.txHash } : {}) }
          if (outcome) {
            const split = splitPlatformFee(outcome.tokensReceived)
            ops.push(
              journal.putFill({
                chain: entry.chain,
                keyId: entry.keyId,
                slug: entry.slug,
                blockNumber: outcome.blockNumber.toString(),
                txHash: outcome.txHash,
                wallet: entry.wallet,
                orderId: entry.orderId,
                userIndex: entry.userIndex,
                spendAtoms: outcome.amountIn.toString(),
                token: entry.token,
              }),
            )
            ops.push(
              ...transitionOps(
                current,
                'filled',
                at,
                {
                  ...hashes,
                  txHash: outcome.txHash,
                  blockNumber: outcome.blockNumber.toString(),
                  spendAtoms: outcome.amountIn.toString(),
                  tokensReceived: split.buyer.toString(),
                  feeTokens: outcome.fee.toString(),
                },
                followers[i]!,
                {
                  execution: {
                    spentUsdc: formatDecimal(outcome.amountIn, USDC_DECIMALS),
                    tokensReceived: (outcome.tokensReceived - outcome.fee).toString(),
                    feeTokens: outcome.fee.toString(),
                    txHash: outcome.txHash,
                    executedAt: at,
                  },
                },
              ),
            )
            continue
          }
          const reason = failure?.reason ?? 'not executed'
          const giveUp = !failure?.priceMoved && (await consecutiveFailures(entry)) + 1 >= maxFailedAttempts
          ops.push(
            ...transitionOps(
              current,
              giveUp ? 'failed' : 'active',
              at,
              { reason, ...hashes },
              followers[i]!,
              giveUp
                ? { execution: { spentUsdc: '0', tokensReceived: '0', feeTokens: '0', txHash: extra.txHash ?? '', executedAt: at, failureReason: reason } }
                : {},
            ),
          )
        }
        await store.batch(ops)
      },
    )
  }

  /** Non-price failures since the order was last placed or filled, from the journal (retry rule: give up after N). */
  async function consecutiveFailures(entry: InFlightExecution): Promise<number> {
    const events = await journal.orderEventsOf(entry.keyId, entry.slug)
    let count = 0
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!
      if (e.from === 'executing' && e.to === 'active') {
        if (e.reason?.includes(SELECTOR_TOO_LITTLE)) break
        count++
      } else if (e.from === 'active' && e.to === 'executing') continue
      else break
    }
    return count
  }

  const router = (chain: ChainKey) => deps.buyRouters[chain]

  /** What the chain says about an in-flight order (router flag + PrebuyBuy log), as a settlement. */
  async function fromChain(entry: InFlightExecution, hint?: Settlement['failure'], extra: Settlement['extra'] = {}): Promise<Settlement> {
    const outcome = await findBuyOnChain(deps.clients[entry.chain], router(entry.chain), entry.wallet, entry.orderId, BigInt(entry.fromBlock))
    return { entry, outcome, failure: outcome ? undefined : (hint ?? { reason: 'not found on chain after restart', priceMoved: false }), extra }
  }

  async function handleTick(tick: PriceTick, launch: LaunchRecord): Promise<void> {
    if (stopped) return
    let submission: Promise<UserOperationResult[]> | undefined
    const submitted = await withChainLock(launch.chain, () =>
      decide(tick, launch, (buys, written) => {
        const chain = deps.chains[launch.chain]
        const encode = createBuyCallEncoder({
          buyRouter: router(launch.chain),
          stablecoin: chain.addresses.stablecoin,
          weth: chain.addresses.weth,
          ethUsdPool: chain.addresses.ethUsdPool,
          poolKey: launch.poolKey,
          token: launch.token,
          feeRecipient: deps.feeRecipient,
        })
        const requests = buys.map(({ buy, entry }) => ({
          id: `${entry.keyId}!${entry.slug}`,
          userIndex: entry.userIndex,
          calls: encode(entry.orderId, buy.spendAtoms, buy.minTokensOut),
        }))
        log.info({ slug: launch.slug, chain: launch.chain, block: tick.blockNumber, buys: requests.length }, 'submitting buys')
        stage('executor.submitCall')
        submission = deps.wallets.submitUserOperations(launch.chain, requests, { sendAfter: written })
        // A failed batch write rejects decide (below) and this submission, which then sent nothing.
        submission.catch(() => undefined)
      }),
    )
    if (submitted.length === 0 || !submission) return
    let results: UserOperationResult[]
    try {
      results = await submission
    } catch (error) {
      log.warn({ err: error, slug: launch.slug }, 'submission failed; settling from the chain')
      const settlements = await Promise.all(submitted.map(({ entry }) => fromChain(entry, { reason: 'submission failed', priceMoved: false })))
      await withChainLock(launch.chain, () => settleMany(settlements))
      return
    }
    const byId = new Map(results.map((r) => [r.id, r]))
    // One receipt per handleOps transaction, however many buys it carried.
    const receipts = new Map<Hash, Promise<Map<string, BuyOutcome>>>()
    const buysIn = (txHash: Hash) => {
      let found = receipts.get(txHash)
      if (!found) {
        found = findBuysInTransaction(deps.clients[launch.chain], router(launch.chain), txHash)
        receipts.set(txHash, found)
      }
      return found
    }
    const settlements = await Promise.all(
      submitted.map(async ({ entry }): Promise<Settlement> => {
        const result = byId.get(`${entry.keyId}!${entry.slug}`)
        if (!result) return fromChain(entry, { reason: 'no result from the bundler', priceMoved: false })
        // Zero hashes where the operation has none, as the journal has always recorded them.
        const extra = { userOpHash: result.userOpHash ?? zeroHash, txHash: 'txHash' in result ? result.txHash : zeroHash }
        if (result.status === 'included') {
          const outcome = (await buysIn(result.txHash)).get(buyKey(entry.wallet, entry.orderId))
          return outcome ? { entry, outcome, extra } : fromChain(entry, undefined, extra)
        }
        // Always asked of the chain: an AlreadyExecuted revert means an earlier attempt bought.
        const priceMoved = result.status === 'reverted' && result.revert.name === SELECTOR_TOO_LITTLE
        return fromChain(entry, { reason: failureReason(result), priceMoved }, extra)
      }),
    )
    await withChainLock(launch.chain, () => settleMany(settlements))
  }

  /**
   * After a reorg above `ancestor`: every buy mined above it is checked against the new chain. Still bought (the
   * transaction was re-included) -> the fill is re-pointed; undone -> the order is active again and buys on a later tick
   * (the router's order id still guarantees a single buy if the old transaction lands after all).
   */
  async function revalidateFills(chain: ChainKey, ancestor: bigint): Promise<void> {
    const fills = await journal.fillsAbove(chain, ancestor)
    if (fills.length === 0) return
    const outcomes = await Promise.all(fills.map((f) => findBuyOnChain(deps.clients[chain], router(chain), f.wallet, f.orderId, ancestor + 1n)))
    await withOrderLocks(
      fills.map((f) => f.keyId),
      async () => {
        const ops: StoreOperation[] = []
        const at = now()
        for (const [i, fill] of fills.entries()) {
          const outcome = outcomes[i]
          if (outcome && outcome.txHash === fill.txHash && outcome.blockNumber.toString() === fill.blockNumber) continue
          const current = await readOrder(fill.keyId, fill.slug)
          ops.push(journal.deleteFill(fill))
          if (current?.status !== 'filled') continue
          const followers = await followersOf(fill.keyId)
          if (outcome) {
            ops.push(journal.putFill({ ...fill, blockNumber: outcome.blockNumber.toString(), txHash: outcome.txHash, spendAtoms: outcome.amountIn.toString() }))
            const execution = {
              spentUsdc: formatDecimal(outcome.amountIn, USDC_DECIMALS),
              tokensReceived: (outcome.tokensReceived - outcome.fee).toString(),
              feeTokens: outcome.fee.toString(),
              txHash: outcome.txHash,
              executedAt: at,
            }
            ops.push(
              ...transitionOps(
                current,
                'filled',
                at,
                { reason: 'buy re-mined after a reorg', txHash: outcome.txHash, blockNumber: outcome.blockNumber.toString() },
                followers,
                { execution },
              ),
            )
          } else {
            const { execution: _undone, ...rest } = current
            ops.push(...transitionOps(rest, 'active', at, { reason: 'buy undone by a reorg', txHash: fill.txHash }, followers))
          }
        }
        await store.batch(ops)
      },
    )
    log.warn({ chain, ancestor: ancestor.toString(), fills: fills.length }, 'revalidated fills after a reorg')
  }

  async function reconcile(): Promise<void> {
    const settlements = await Promise.all((await journal.inFlight()).map((entry) => fromChain(entry)))
    for (const chain of new Set(settlements.map((s) => s.entry.chain))) {
      await withChainLock(chain, () => settleMany(settlements.filter((s) => s.entry.chain === chain)))
    }
  }

  // Ticks of one project are coalesced: while one is processed, only the newest waiting one is kept.
  const pending = new Map<string, { tick: PriceTick; launch: LaunchRecord }>()
  const running = new Map<string, Promise<void>>()
  const drain = (slug: string): Promise<void> => {
    const next = pending.get(slug)
    if (!next || stopped) {
      running.delete(slug)
      return Promise.resolve()
    }
    pending.delete(slug)
    const run = handleTick(next.tick, next.launch)
      .catch((error: unknown) => log.error({ err: error, slug }, 'tick failed'))
      .then(() => drain(slug))
    running.set(slug, run)
    return run
  }
  const background = new Set<Promise<void>>()
  const onSignal = (signal: IndexerSignal) => {
    if (stopped) return
    if (signal.type === 'reorg') {
      warm.reset(signal.chain)
      deps.wallets.forgetAhead?.(signal.chain)
      const run = withChainLock(signal.chain, () => revalidateFills(signal.chain, signal.ancestor))
        .catch((error: unknown) => log.error({ err: error, chain: signal.chain }, 'revalidating fills failed'))
        .finally(() => background.delete(run))
      background.add(run)
      return
    }
    if (signal.type === 'block') return warm.refresh(signal.chain, signal.blockNumber)
    if (signal.type === 'processed') return void readyAhead(signal.chain, signal.blockNumber, signal.launched)
    if (signal.type === 'launch_reverted') ticking.delete(signal.launch.slug)
    if (signal.type !== 'tick') return
    pending.set(signal.launch.slug, { tick: signal.tick, launch: signal.launch })
    if (!running.has(signal.launch.slug)) void drain(signal.launch.slug)
  }

  /**
   * After a (re)start, the order books of launched projects that still have active orders are built before their
   * first tick (the first block re-prices every launched pool): that tick then plans on a book it holds. Balances are
   * left at zero here; the tick brings its own (the cache's reuse path refreshes them without a rebuild).
   */
  async function prepareLaunchedBooks(): Promise<void> {
    for (const { value: project } of await readAll(store.sub.projects, '')) {
      if (stopped) return
      if (project.launch === null || books.lastUse(project.slug) !== undefined) continue
      const orders = await loadOrders(project.slug)
      // A tick may have built the book while the orders were read.
      if (books.lastUse(project.slug) === undefined) prepareBook(project.slug, orders, new Map())
    }
  }

  await reconcile()
  const unsubscribe = deps.ticks.subscribe(onSignal)
  const startupBooks: Promise<void> = prepareLaunchedBooks()
    .catch((error: unknown) => log.debug({ err: error }, 'preparing launched books at start failed; ticks build them'))
    .finally(() => background.delete(startupBooks))
  background.add(startupBooks)

  return {
    handleTick,
    reconcile,
    busy: () => running.size + pending.size + background.size,
    async idle() {
      while (running.size > 0 || background.size > 0) await Promise.all([...running.values(), ...background])
    },
    async stop() {
      stopped = true
      unsubscribe()
      warm.stop()
      pending.clear()
      // In-flight submissions finish (their state is recorded); anything cut off is settled by the next start.
      await Promise.all([...running.values(), ...background])
    },
  }
}
