import type { Address, Hash, PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import type { Logger } from '../../src/common/logger.ts'
import { formatDecimal } from '../../src/domain/decimal.ts'
import { splitPlatformFee } from '../../src/domain/execution/platform-fee.ts'
import { spendThenLimitPolicy, type PrioritisationPolicy } from '../../src/domain/execution/prioritisation.ts'
import { USDC_DECIMALS } from '../../src/domain/order-bounds.ts'
import type { OrderRecord, OrderStatus } from '../../src/domain/records.ts'
import type { Journal } from '../../src/journal/journal.ts'
import type { InFlightExecution, LaunchRecord, OrderEvent, PriceTick } from '../../src/journal/journal-records.ts'
import { orderLockName } from '../../src/services/order-service.ts'
import { orderKey, orderWriteOps, projectStatusPrefix } from '../../src/store/order-index.ts'
import type { Store, StoreOperation } from '../../src/store/open-store.ts'
import { readAll } from '../../src/store/paginate.ts'
import type { UserOperationResult, WalletService } from '../../src/wallets/wallet-service.ts'
import type { IndexerSignal, TickBus } from '../indexer/tick-bus.ts'
import { buildBuyCalls, executionOrderId } from './build-buy-calls.ts'
import { findBuyInTransaction, findBuyOnChain, type BuyOutcome } from './find-buy.ts'
import { planExecution, type CandidateOrder, type PlannedBuy } from './plan-tick.ts'
import { readStablecoinBalances } from './read-stablecoin-balances.ts'

export interface ExecutorDeps {
  store: Store
  journal: Journal
  wallets: Pick<WalletService, 'walletAddress' | 'submitUserOperations'>
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
  now?: () => number
}

export interface Executor {
  /** Processes one tick now (the bus path queues to this); resolves when its buys have a final state. */
  handleTick(tick: PriceTick, launch: LaunchRecord): Promise<void>
  /** Settles every in-flight execution from the chain (run at start: a crash between submission and receipt). */
  reconcile(): Promise<void>
  /** Resolves when every queued tick has been processed. */
  idle(): Promise<void>
  stop(): Promise<void>
}

const SELECTOR_TOO_LITTLE = 'TooLittleReceived'

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
  let stopped = false

  // Planning (balances, reservations, state writes) is serialised per chain so two launches never size one wallet's
  // balance twice; submissions run concurrently.
  const chainLocks = new Map<ChainKey, Promise<unknown>>()
  const withChainLock = <T>(chain: ChainKey, fn: () => Promise<T>): Promise<T> => {
    const previous = chainLocks.get(chain) ?? Promise.resolve()
    const run = previous.then(fn, fn)
    chainLocks.set(chain, run.catch(() => undefined))
    return run
  }

  /** Runs fn holding the order-service locks of every key, in a fixed order (no deadlock with single-key holders). */
  const withOrderLocks = async <T>(keyIds: readonly string[], fn: () => Promise<T>): Promise<T> => {
    const sorted = [...new Set(keyIds)].sort()
    const acquire = (i: number): Promise<T> => (i === sorted.length ? fn() : store.mutex.run(orderLockName(sorted[i]!), () => acquire(i + 1)))
    return acquire(0)
  }

  const readOrder = async (keyId: string, slug: string): Promise<OrderRecord | undefined> =>
    (await store.sub.orders.get(orderKey(keyId, slug))) as OrderRecord | undefined
  const followersOf = async (keyId: string): Promise<number> => (await store.sub.users.get(keyId))?.social?.followerCount ?? 0

  const transition = async (
    previous: OrderRecord,
    status: OrderStatus,
    at: number,
    event: Omit<OrderEvent, 'keyId' | 'slug' | 'from' | 'to' | 'at'>,
    patch: Partial<OrderRecord> = {},
  ): Promise<{ ops: StoreOperation[]; next: OrderRecord }> => {
    const next: OrderRecord = { ...previous, ...patch, status, updatedAt: at }
    const ops = orderWriteOps(store, previous, next, await followersOf(previous.keyId))
    ops.push(journal.putOrderEvent({ keyId: previous.keyId, slug: previous.slug, from: previous.status, to: status, at, ...event }))
    return { ops, next }
  }

  async function loadCandidates(launch: LaunchRecord): Promise<CandidateOrder[]> {
    const entries = await readAll(store.sub.ordersByProject, projectStatusPrefix(launch.slug, 'active'))
    const loaded = await Promise.all(
      entries.map(async ({ value: keyId }) => {
        const [order, user] = await Promise.all([readOrder(keyId, launch.slug), store.sub.users.get(keyId)])
        if (!order || order.status !== 'active' || !user) return undefined
        return { order, userIndex: user.userIndex, wallet: await deps.wallets.walletAddress(user.userIndex) }
      }),
    )
    const present = loaded.filter((c): c is NonNullable<typeof c> => c !== undefined)
    const chain = deps.chains[launch.chain]
    const balances = await readStablecoinBalances(
      deps.clients[launch.chain],
      chain.addresses.multicall3,
      chain.addresses.stablecoin,
      present.map((c) => c.wallet),
    )
    return present.map((c) => ({ ...c, balanceAtoms: balances.get(c.wallet.toLowerCase()) ?? 0n }))
  }

  async function reservations(chain: ChainKey): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>()
    for (const entry of await journal.inFlight(chain)) {
      const key = entry.wallet.toLowerCase()
      out.set(key, (out.get(key) ?? 0n) + BigInt(entry.spendAtoms))
    }
    return out
  }

  /** Phase 1 (under the chain lock): decide, and write decision + transitions + in-flight entries in one batch. */
  async function decide(tick: PriceTick, launch: LaunchRecord): Promise<Array<{ buy: PlannedBuy; entry: InFlightExecution }>> {
    const candidates = await loadCandidates(launch)
    if (candidates.length === 0) return []
    const reserved = await reservations(launch.chain)
    const plan = planExecution({
      tick,
      launchedAt: launch.launchedAt,
      // A buy lands in the next block: an order whose expiry falls before that block may not buy any more.
      now: tick.nextBlockTimestamp * 1000,
      totalSupply: BigInt(launch.totalSupply),
      candidates,
      reservedByWallet: reserved,
      policy,
    })
    if (plan.buys.length === 0 && plan.expired.length === 0 && plan.decisions.every((d) => d.verdict !== 'submitted')) {
      await store.batch([journal.putDecision({ slug: launch.slug, chain: launch.chain, tick, policy: policy.name, orders: plan.decisions, at: now() })])
      return []
    }
    const at = now()
    const fromBlock = tick.blockNumber
    const keyIds = [...plan.expired.map((o) => o.keyId), ...plan.buys.map((b) => b.candidate.order.keyId)]
    return withOrderLocks(keyIds, async () => {
      const ops: StoreOperation[] = []
      const submitted: Array<{ buy: PlannedBuy; entry: InFlightExecution }> = []
      const decisions = [...plan.decisions]
      const changed = (keyId: string) => decisions.find((d) => d.keyId === keyId)
      for (const order of plan.expired) {
        const current = await readOrder(order.keyId, order.slug)
        if (current?.status !== 'active') continue
        ops.push(...(await transition(current, 'expired', at, { reason: 'expired after launch' })).ops)
      }
      for (const buy of plan.buys) {
        const { order } = buy.candidate
        const current = await readOrder(order.keyId, order.slug)
        // A PATCH or DELETE landed between planning and now: skip this tick, the next tick plans with the new values.
        if (!current || current.status !== 'active' || current.updatedAt !== order.updatedAt) {
          const decision = changed(order.keyId)
          if (decision) decision.verdict = 'in_flight'
          continue
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
          orderId: executionOrderId(order),
          submittedAt: at,
          fromBlock,
        }
        ops.push(...(await transition(current, 'executing', at, { spendAtoms: entry.spendAtoms, reason: `rank ${buy.rank}` })).ops)
        ops.push(journal.putInFlight(entry))
        submitted.push({ buy, entry })
      }
      ops.push(journal.putDecision({ slug: launch.slug, chain: launch.chain, tick, policy: policy.name, orders: decisions, at }))
      await store.batch(ops)
      return submitted
    })
  }

  /** Settles one in-flight order: filled from a known outcome, else back to active (or failed) — in one batch. */
  async function settle(entry: InFlightExecution, outcome: BuyOutcome | undefined, failure: { reason: string; priceMoved: boolean } | undefined, extra: { userOpHash?: Hash; txHash?: Hash } = {}) {
    await withOrderLocks([entry.keyId], async () => {
      const current = await readOrder(entry.keyId, entry.slug)
      const ops: StoreOperation[] = [journal.deleteInFlight(entry)]
      if (current && current.status === 'executing') {
        const at = now()
        if (outcome) {
          const split = splitPlatformFee(outcome.tokensReceived)
          ops.push(
            ...(
              await transition(
                current,
                'filled',
                at,
                {
                  txHash: outcome.txHash,
                  blockNumber: outcome.blockNumber.toString(),
                  spendAtoms: outcome.amountIn.toString(),
                  tokensReceived: split.buyer.toString(),
                  feeTokens: outcome.fee.toString(),
                  ...(extra.userOpHash ? { userOpHash: extra.userOpHash } : {}),
                },
                {
                  execution: {
                    spentUsdc: formatDecimal(outcome.amountIn, USDC_DECIMALS),
                    tokensReceived: (outcome.tokensReceived - outcome.fee).toString(),
                    feeTokens: outcome.fee.toString(),
                    txHash: outcome.txHash,
                    executedAt: at,
                  },
                },
              )
            ).ops,
          )
        } else {
          const reason = failure?.reason ?? 'not executed'
          const attempts = failure?.priceMoved ? 0 : await consecutiveFailures(entry)
          const giveUp = !failure?.priceMoved && attempts + 1 >= maxFailedAttempts
          const status: OrderStatus = giveUp ? 'failed' : 'active'
          ops.push(
            ...(
              await transition(
                current,
                status,
                at,
                { reason, ...(extra.userOpHash ? { userOpHash: extra.userOpHash } : {}), ...(extra.txHash ? { txHash: extra.txHash } : {}) },
                giveUp ? { execution: { spentUsdc: '0', tokensReceived: '0', feeTokens: '0', txHash: extra.txHash ?? '', executedAt: at, failureReason: reason } } : {},
              )
            ).ops,
          )
        }
      }
      await store.batch(ops)
    })
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

  async function settleFromChain(entry: InFlightExecution, hint?: { reason: string; priceMoved: boolean }, extra: { userOpHash?: Hash; txHash?: Hash } = {}) {
    const outcome = await findBuyOnChain(deps.clients[entry.chain], router(entry.chain), entry.wallet, entry.orderId, BigInt(entry.fromBlock))
    await settle(entry, outcome, outcome ? undefined : (hint ?? { reason: 'not found on chain after restart', priceMoved: false }), extra)
  }

  async function handleTick(tick: PriceTick, launch: LaunchRecord): Promise<void> {
    if (stopped) return
    const submitted = await withChainLock(launch.chain, () => decide(tick, launch))
    if (submitted.length === 0) return
    const chain = deps.chains[launch.chain]
    const requests = submitted.map(({ buy, entry }) => ({
      id: `${entry.keyId}!${entry.slug}`,
      userIndex: entry.userIndex,
      calls: buildBuyCalls({
        orderId: entry.orderId,
        buyRouter: router(launch.chain),
        stablecoin: chain.addresses.stablecoin,
        weth: chain.addresses.weth,
        ethUsdPool: chain.addresses.ethUsdPool,
        poolKey: launch.poolKey,
        token: launch.token,
        spendAtoms: buy.spendAtoms,
        minTokensOut: buy.minTokensOut,
        feeRecipient: deps.feeRecipient,
      }),
    }))
    log.info({ slug: launch.slug, chain: launch.chain, block: tick.blockNumber, buys: requests.length }, 'submitting buys')
    let results: UserOperationResult[]
    try {
      results = await deps.wallets.submitUserOperations(launch.chain, requests)
    } catch (error) {
      log.warn({ err: error, slug: launch.slug }, 'submission failed; settling from the chain')
      for (const { entry } of submitted) await withChainLock(launch.chain, () => settleFromChain(entry, { reason: 'submission failed', priceMoved: false }))
      return
    }
    const byId = new Map(results.map((r) => [r.id, r]))
    await withChainLock(launch.chain, async () => {
      for (const { entry } of submitted) {
        const result = byId.get(`${entry.keyId}!${entry.slug}`)
        if (!result) {
          await settleFromChain(entry, { reason: 'no result from the bundler', priceMoved: false })
          continue
        }
        const extra = { userOpHash: result.userOpHash, txHash: result.txHash }
        if (result.success) {
          const outcome = await findBuyInTransaction(deps.clients[entry.chain], router(entry.chain), result.txHash, entry.wallet, entry.orderId)
          if (outcome) await settle(entry, outcome, undefined, extra)
          else await settleFromChain(entry, undefined, extra)
        } else {
          const reason = result.revertReason ?? 'reverted'
          // An AlreadyExecuted revert means an earlier attempt bought: the chain has the amounts.
          await settleFromChain(entry, { reason, priceMoved: reason.includes(SELECTOR_TOO_LITTLE) }, extra)
        }
      }
    })
  }

  async function reconcile(): Promise<void> {
    for (const entry of await journal.inFlight()) {
      await withChainLock(entry.chain, () => settleFromChain(entry))
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
  const onSignal = (signal: IndexerSignal) => {
    if (signal.type !== 'tick' || stopped) return
    pending.set(signal.launch.slug, { tick: signal.tick, launch: signal.launch })
    if (!running.has(signal.launch.slug)) void drain(signal.launch.slug)
  }

  await reconcile()
  const unsubscribe = deps.ticks.subscribe(onSignal)

  return {
    handleTick,
    reconcile,
    async idle() {
      while (running.size > 0) await Promise.all([...running.values()])
    },
    async stop() {
      stopped = true
      unsubscribe()
      pending.clear()
      // In-flight submissions finish (their state is recorded); anything cut off is settled by the next start.
      await Promise.all([...running.values()])
    },
  }
}

export const assertRouterConfigured = (routers: Partial<Record<ChainKey, Address>>, chain: ChainKey): Address => {
  const address = routers[chain]
  if (!address) throw new PrebuyError('internal', 'buy_router_missing', `No buy router configured for ${chain}`)
  return address
}
