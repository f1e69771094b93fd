import { createReorgEpochs } from '../../../daemon/executor/reorg-epochs.ts'
import { createInFlightReservations } from '../../../daemon/executor/in-flight-reservations.ts'
import { type Address, type Hash, zeroAddress } from 'viem'
import type { ChainConfig, ChainKey } from '../../../src/chain/chain-keys.ts'
import { createKeyedMutex, keyGroup } from '../../../src/common/keyed-mutex.ts'
import { silentLogger } from '../../../src/common/logger.ts'
import type { BuyQuoter } from '../../../src/launchpads/quote-buy.ts'
import { spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import type { LaunchInfo, OrderRecord, UserRecord } from '../../../src/domain/records.ts'
import { projectLaunchOps, projectWriteOps } from '../../../src/store/project-writes.ts'
import { createJournal, type Journal } from '../../../src/journal/journal.ts'
import type { LaunchRecord, PriceTick } from '../../../src/journal/journal-records.ts'
import { orderLockName } from '../../../src/services/order-service.ts'
import { put, type Store } from '../../../src/store/open-store.ts'
import type { ExecutorContext } from '../../../daemon/executor/executor-context.ts'
import type { ExecutorChainReads } from '../../../daemon/executor/executor-chain-reads.ts'
import type { BuyOutcome } from '../../../daemon/executor/find-buy.ts'
import { createOrderLoader } from '../../../daemon/executor/load-orders.ts'
import { createBookCache } from '../../../src/domain/execution/book-cache.ts'
import type { WarmBooks } from '../../../daemon/executor/warm-books.ts'
import { createTickQuotes, type TickQuotes } from '../../../daemon/executor/tick-quotes.ts'
import { PriceBackoff } from '../../../src/domain/execution/price-backoff.ts'
import { createBatchChainReads } from '../../../daemon/executor/batch-chain-reads.ts'
import { createBatchOperators } from '../../../daemon/executor/batch-operators.ts'
import { createBatchJournal } from '../../../src/journal/batch-journal.ts'
import { projectRecord } from '../../support/records.ts'
import { openTempStore } from '../../support/temp-store.ts'
import { writeOrderAs } from '../../support/write-order-as.ts'

export const SLUG = 'unit'
export const TOKEN = '0x00000000000000000000000000000000000000aa' as Address
export const walletOf = (userIndex: number) => `0x${(userIndex + 1).toString(16).padStart(40, '0')}` as Address
export const keyIdOf = (userIndex: number) => `key_${userIndex}`
export const txHash = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hash

/** A launch of SLUG on base at block 10 (time 1,000 s), 1,000,000 tokens of 18 decimals. */
export const launch: LaunchRecord = {
  slug: SLUG,
  chain: 'base',
  launchpad: 'clanker',
  token: TOKEN,
  symbol: 'UNIT',
  name: 'Unit',
  decimals: 18,
  totalSupply: (10n ** 24n).toString(),
  paired: { kind: 'weth', address: zeroAddress },
  feeSources: {},
  poolKey: { currency0: zeroAddress, currency1: TOKEN, fee: 0, tickSpacing: 60, hooks: zeroAddress },
  poolId: txHash(1),
  feeSchedule: null,
  blockNumber: '10',
  blockHash: txHash(2),
  txHash: txHash(3),
  launchedAt: 1_000_000,
}

/** A tick of the launch at `blockNumber`, with the effective cap (micro-USD) orders are compared with. */
export const tickAt = (blockNumber: number, effectiveCapUsd: number, options: { swapsAllowed?: boolean } = {}): PriceTick => ({
  slug: SLUG,
  chain: 'base',
  token: TOKEN,
  reason: 'block',
  blockNumber: String(blockNumber),
  blockHash: txHash(1_000 + blockNumber),
  logIndex: -1,
  sqrtPriceX96: '1',
  liquidity: '1',
  pairedUsdAtoms: '3000000000',
  nextBlockTimestamp: 1_000 + 2 * (blockNumber - 9),
  lpFeePips: 10_000,
  totalFeeFraction: 0.01,
  swapsAllowed: options.swapsAllowed ?? true,
  fdvUsdAtoms: String(effectiveCapUsd * 1_000_000),
  effectiveCapAtoms: String(effectiveCapUsd * 1_000_000),
  feeDecaying: false,
  at: 0,
})

/** A fake of every chain read, served from maps the test fills. */
export interface FakeChain extends ExecutorChainReads {
  balanceOf: Map<string, bigint>
  /** Buys the router recorded, by `${wallet lower-cased}!${orderId}`. */
  bought: Map<string, BuyOutcome>
  /** Router buys per transaction. */
  transactions: Map<Hash, Map<string, BuyOutcome>>
  receiptReads: Hash[]
  /** Blocks the fake Clanker auction module gates, as `${mevModule lower-cased}!${blockNumber}`. */
  auctionBlocks: Set<string>
}

export function fakeChain(): FakeChain {
  const balanceOf = new Map<string, bigint>()
  const bought = new Map<string, BuyOutcome>()
  const transactions = new Map<Hash, Map<string, BuyOutcome>>()
  const receiptReads: Hash[] = []
  const auctionBlocks = new Set<string>()
  return {
    auctionBlocks,
    auctionBlock: async (_chain, mevModule, _poolId, blockNumber) => auctionBlocks.has(`${mevModule.toLowerCase()}!${blockNumber}`),
    balanceOf,
    bought,
    transactions,
    receiptReads,
    balances: async (_chain, wallets) => new Map(wallets.map((w) => [w.toLowerCase(), balanceOf.get(w.toLowerCase()) ?? 0n])),
    changedWallets: async () => new Set(),
    // Like the router's PrebuyBuy log search: only a buy at or after `fromBlock` is found.
    buyOf: async (_chain, wallet, orderId, fromBlock) => {
      const outcome = bought.get(`${wallet.toLowerCase()}!${orderId}`)
      return outcome && outcome.blockNumber >= fromBlock ? outcome : undefined
    },
    async buysInTransaction(_chain, hash) {
      receiptReads.push(hash)
      return transactions.get(hash) ?? new Map()
    },
  }
}

/** Warm books that never hold a snapshot: the decider then reads the store and the (fake) chain itself. */
/** Tick quotes over `quoter` that record the spend buckets each `quotedCaps` was handed (held-spends.ts). */
export function bucketsRecordingQuotes(quoter: BuyQuoter): { quotes: TickQuotes; given: Array<readonly bigint[]> } {
  const real = createTickQuotes({ quoters: { base: quoter }, log: silentLogger })
  const given: Array<readonly bigint[]> = []
  const quotes: TickQuotes = {
    ...real,
    quotedCaps: (tick, l, buckets, also) => {
      given.push(buckets)
      return real.quotedCaps(tick, l, buckets, also)
    },
  }
  return { quotes, given }
}

export const coldWarmBooks: WarmBooks = {
  refresh: () => undefined,
  take: async () => undefined,
  snapshot: async () => undefined,
  reset: () => undefined,
  stop: () => undefined,
}

export interface ExecutorFixture {
  dir: string
  store: Store
  journal: Journal
  chain: FakeChain
  ctx: ExecutorContext
  /** A buyer with an active order on SLUG (spend and limit in whole USD; null limit = any price). */
  addOrder(userIndex: number, spendUsd: number, limitUsd: number | null, patch?: Partial<OrderRecord>): Promise<OrderRecord>
  order(userIndex: number): Promise<OrderRecord | undefined>
  /** An approved clanker project on base, launched (`launch` given) or waiting, written as the services and indexer do. */
  addProject(slug: string, launch: LaunchInfo | null): Promise<void>
  close(): Promise<void>
}

export async function startExecutorFixture(overrides: Partial<ExecutorContext> = {}): Promise<ExecutorFixture> {
  const { dir, store, remove } = await openTempStore('executor-parts')
  const journal = createJournal(store)
  const chain = fakeChain()
  const wallets = {
    walletAddress: async (userIndex: number) => walletOf(userIndex),
    submitUserOperations: async () => [],
  }
  const chainLocks = createKeyedMutex()
  let now = 5_000_000
  const ctx: ExecutorContext = {
    store,
    journal,
    wallets,
    chains: {} as Record<ChainKey, ChainConfig>,
    buyRouters: { base: zeroAddress, second_chain: zeroAddress },
    batchBuyers: {},
    feeRecipient: zeroAddress,
    policy: spendThenLimitPolicy,
    maxFailedAttempts: 3,
    maxBuysPerTick: undefined,
    now: () => now++,
    log: silentLogger,
    stage: () => undefined,
    reads: chain,
    batchReads: createBatchChainReads({ chains: {}, clients: {} }),
    batchJournal: createBatchJournal(store),
    // A batch's last block 5 blocks after its tick, final 3 blocks later (tests of the release set their own chain head).
    batchDeadline: () => ({ landingBlocks: 5, finalityBlocks: 3 }),
    batchOperators: createBatchOperators({ clients: {}, batchBuyers: {}, wallets: {}, log: silentLogger }),
    withChainLock: (key, fn) => chainLocks.run(key, fn),
    reorgEpochs: createReorgEpochs(),
    withOrderLocks: (keyIds, fn) => store.mutex.runAll(keyIds.map(orderLockName), fn),
    orderLockGroup: (keyIds) => keyGroup(keyIds.map(orderLockName)),
    withOrderLockGroup: (group, fn) => store.mutex.runGroup(group, fn),
    orders: createOrderLoader({ store, wallets }),
    books: createBookCache(),
    warm: coldWarmBooks,
    inFlight: createInFlightReservations(store, journal),
    ticking: new Map(),
    warmAfterLaunch: () => new Set(),
    // No quoter: ticks are decided on the formula (the quote path is covered by test/pricing/quote-vs-formula.test.ts).
    quotes: createTickQuotes({ quoters: {}, log: silentLogger }),
    backoff: new PriceBackoff(),
    stopped: () => false,
    // Every waiting book prepared ahead, however small (the daemon's threshold has its own test in ready-ahead.test.ts).
    prepareBooksAheadFrom: 0,
    ...overrides,
  }
  return {
    dir,
    store,
    journal,
    chain,
    ctx,
    async addOrder(userIndex, spendUsd, limitUsd, patch = {}) {
      const keyId = keyIdOf(userIndex)
      const user: UserRecord = { keyId, userIndex }
      const order: OrderRecord = {
        keyId,
        slug: SLUG,
        status: 'active',
        maxSpendUsdc: String(spendUsd),
        maxFdvUsdc: limitUsd === null ? null : String(limitUsd),
        expiresInMs: 3_600_000,
        createdAt: userIndex,
        updatedAt: userIndex,
        ...patch,
      }
      await store.batch([put(store.sub.users, keyId, user)])
      await writeOrderAs(store, order)
      return order
    },
    order: (userIndex) => store.sub.orders.get(`${keyIdOf(userIndex)}!${SLUG}`),
    async addProject(slug, launch) {
      const project = projectRecord(slug, { creatorAddress: walletOf(98) })
      await store.batch(projectWriteOps(store, undefined, project))
      if (launch) await store.batch(projectLaunchOps(store, project, launch, 2))
    },
    close: remove,
  }
}
