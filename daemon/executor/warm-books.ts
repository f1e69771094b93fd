import type { Address } from 'viem'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { OrderRecord, UserRecord } from '../../src/domain/records.ts'
import type { Store } from '../../src/store/open-store.ts'
import { orderWrittenBy } from '../../src/store/order-writes.ts'
import { lowerWallet } from '../../src/domain/execution/wallet-index.ts'
import type { BalanceState } from '../../src/domain/execution/held-candidates.ts'
import { bookWallets, inheritBookWallets, sameWallets, staleWallets } from './book-wallets.ts'
import { indexOfKey } from './index-of-key.ts'

/** An active order with its buyer, as the executor loads it (no balance yet). */
export interface LoadedOrder {
  order: OrderRecord
  userIndex: number
  followers: number
  wallet: Address
}

/**
 * A loaded order with its wallet's balance, as the book takes it: an object literal of one shape. A spread copy
 * (`{ ...loaded, balanceAtoms }`) got a hidden class of its own in V8, ~300 bytes and ~3 µs per order (30 MB and 300 ms
 * at 100,000 orders, measured 2026-11-26), kept by the book until the next write.
 */
export function candidateOf(loaded: LoadedOrder, balanceAtoms: bigint): LoadedOrder & { balanceAtoms: bigint } {
  return { order: loaded.order, userIndex: loaded.userIndex, followers: loaded.followers, wallet: loaded.wallet, balanceAtoms }
}

/**
 * The tick's candidates: each loaded order with its wallet's balance from `fresh` (read for this tick), else from the
 * warm snapshot's `known`, else 0. Wallets are looked up lower-cased through lowerWallet (one shared string per
 * wallet, no new string per order and tick: 100,000 orders are 100,000 lookups per tick).
 */
export function withBalances(
  orders: readonly LoadedOrder[],
  fresh: ReadonlyMap<string, bigint>,
  known: ReadonlyMap<string, bigint> | undefined,
): Array<LoadedOrder & { balanceAtoms: bigint }> {
  const out: Array<LoadedOrder & { balanceAtoms: bigint }> = new Array(orders.length)
  for (let i = 0; i < orders.length; i++) {
    const c = orders[i]!
    const key = lowerWallet(c.wallet)
    out[i] = candidateOf(c, fresh.get(key) ?? known?.get(key) ?? 0n)
  }
  return out
}

/**
 * Up to this many wallets, a tick whose block has no refresh reads its book's balances at the block in one multicall;
 * more are carried from the newest refresh by the Transfer logs (carriedTake). As warm-allowances.ts
 * DIRECT_READ_MAX_WALLETS: a multicall's encoding and decoding cost ~0.1 ms a wallet, under a round trip up to 256.
 */
export const DIRECT_BALANCES_MAX_WALLETS = 256

/** Blocks a refresh carries balances over by the Transfer logs; a larger gap reads every balance again. */
export const MAX_CARRIED_BALANCE_BLOCKS = 64n

export interface WarmBooksDeps {
  store: Store
  /** The projects to keep warm on a chain: registered ones waiting to launch, and launched ones being ticked. */
  slugsOf(chain: ChainKey): Promise<readonly string[]>
  /** A project's active orders with their buyers, from the store; unchanged entries of `previous` handed back as they are. */
  loadOrders(slug: string, previous?: readonly LoadedOrder[]): Promise<LoadedOrder[]>
  /**
   * A project's orders as loaded (`list`) with the orders of a write set to their written records (load-orders.ts
   * `patch`: idempotent). When given, an order write patches the project's orders held here instead of dropping them,
   * so neither the next refresh nor a tick after the write reads the whole project from the store again.
   */
  patchOrders?(
    list: readonly LoadedOrder[],
    orders: ReadonlyMap<string, OrderRecord | null>,
    users: ReadonlyMap<string, UserRecord | null>,
  ): Promise<LoadedOrder[]>
  /** Stablecoin balances of the wallets at a block, by lower-cased address. */
  readBalances(chain: ChainKey, wallets: readonly Address[], blockNumber: bigint): Promise<Map<string, bigint>>
  /**
   * Lower-cased addresses whose stablecoin balance may have changed in this block, or in [fromBlock, blockNumber]
   * (the token's Transfer logs). When given, a refresh following an earlier one (at most MAX_CARRIED_BALANCE_BLOCKS
   * back) re-reads only those wallets (and ones it never read): one small log query instead of a balance read of every
   * wallet, which would compete with the indexer's launch reads.
   */
  changedWallets?(chain: ChainKey, blockNumber: bigint, fromBlock?: bigint): Promise<ReadonlySet<string>>
  onError?: (error: unknown) => void
  /**
   * After an order or user write touching a warm project, its orders are reloaded this much later (debounced, default
   * 50 ms), so orders placed or edited in the last seconds before a launch are loaded before the launch block arrives.
   */
  reloadDelayMs?: number
}

export interface WarmSnapshot {
  /** The project's active orders, when no order or user write landed since they were read; else undefined (reload). */
  orders: LoadedOrder[] | undefined
  /** Balances at the snapshot's block, by lower-cased wallet (the wallets of every warm project of the chain). */
  balances: ReadonlyMap<string, bigint>
  /**
   * Which balance state these are (a serial per refresh) and, when this refresh started from the previous block's
   * balances, that refresh's serial and the wallets it re-read (the block's Transfer logs): every other wallet's balance
   * is the previous state's. What lets the executor keep balances between ticks (held-candidates.ts); absent: nothing
   * is carried, every balance is looked up.
   */
  state?: BalanceState
  /**
   * With `orders`: the project's order-write version they were read at (every order write of the project since, through
   * `store.batch`, makes `ordersVersion(slug)` differ). What lets the tick skip its re-read under the orders' locks.
   */
  ordersVersion?: number
  /**
   * With `orders`: the user-write version they were read at (usersVersion()): their buyers' follower counts are the
   * stored ones while it is unchanged (a follower count moves the buyer index keys the tick's writes use).
   */
  usersVersion?: number
}

export interface WarmBooks {
  /** A new block on the chain: read the warm projects' orders (store) and their wallets' balances at that block. */
  refresh(chain: ChainKey, blockNumber: bigint): void
  /** What the refresh of exactly this block holds for the project (awaits it if still running); undefined if none. */
  take(chain: ChainKey, slug: string, blockNumber: bigint): Promise<WarmSnapshot | undefined>
  /**
   * Everything the refresh of exactly this block read (awaits it if still running), whether or not a write landed
   * since: for work ahead of launches, not for sizing buys. Undefined if that block's refresh is gone or failed.
   */
  snapshot(
    chain: ChainKey,
    blockNumber: bigint,
  ): Promise<{ orders: ReadonlyMap<string, LoadedOrder[]>; balances: ReadonlyMap<string, bigint>; state?: BalanceState } | undefined>
  /** A reorg on the chain: forget the snapshots (the next refresh reads every balance again). */
  reset(chain: ChainKey): void
  /**
   * The project's order-write version now (bumped after each successful `store.batch` writing one of its orders, before
   * the batch's promise resolves). Optional: a wallet-less fake has none, and the tick then always re-reads.
   */
  ordersVersion?(slug: string): number
  /** The user-write version now (bumped by every `store.batch` writing a user record, before its promise resolves). */
  usersVersion?(): number
  /**
   * The project's active orders as of now: the load under way when no write landed since it started, else the one load
   * waiting behind it (shared with the refreshes and the reloads after writes). Optional: the tests' stand-ins have none.
   */
  orders?(slug: string): Promise<LoadedOrder[]>
  stop(): void
}

/**
 * A project's orders as held: the write versions they are exact at (once `started`: a queued load's are taken when its
 * read starts), the read (or patch), its list once read.
 */
interface Held {
  started: boolean
  version: number
  usersVersion: number
  orders: Promise<LoadedOrder[]>
  settled?: LoadedOrder[]
}

const NO_CHANGES: ReadonlyMap<string, never> = new Map<string, never>()

/** Whether a list in keyId order (as loaded) holds an order of `keyId` (binary search). */
function holdsKey(list: readonly LoadedOrder[], keyId: string): boolean {
  return indexOfKey(list, keyId) >= 0
}

interface Refresh {
  block: bigint
  /** Order-write versions per project (and of the users) when the refresh started reading. */
  versions: Map<string, number>
  usersVersion: number
  done: Promise<{ orders: Map<string, LoadedOrder[]>; balances: Map<string, bigint>; state: BalanceState } | undefined>
}

/**
 * Keeps the launch tick off LevelDB and off the balance RPC: on every block the active orders of every project waiting
 * to launch (and of launched projects being ticked) are read, with their wallets' balances at that block, in the
 * background. The launch (or any) tick of block N then uses the snapshot of block N, which started when the block
 * arrived, while the indexer was still decoding the launch.
 *
 * Exact, not just warm: every store write goes through `store.batch`, whose listener bumps a version per project for
 * any order write (and a global one for user writes). The orders held are carried over each write, patched with the
 * written records (carryHeld); a snapshot whose project was written since it started reading hands back those, or,
 * without a patch (no `patchOrders`), only its balances, and the caller reloads the orders. Balances are those of
 * the tick's own block.
 */
export function createWarmBooks(deps: WarmBooksDeps): WarmBooks {
  const { store } = deps
  const versions = new Map<string, number>()
  let usersVersion = 0
  /**
   * Orders per project: the last load, with the write versions it was read at (captured when its read started), or one
   * queued behind the load under way (`started` false: it reads later, so it covers every write made before it starts),
   * or a load carried over writes since (carryHeld: exact at its versions). At most one load runs and one waits per
   * project: every call while one waits joins it. Each write used to queue a load of its own behind the one under way
   * (the debounced reload every 50 ms, every block's refresh), so with loads slower than that (17,000 orders: 0.5-2.6 s
   * at load 12) the queue grew without end, and a refresh, and the tick waiting for its block's refresh, waited behind
   * all of it: the held book that never ticked again (docs/execution.md §3, "The silent book: cause and fix").
   * `settled` is the list once read (what a write's patch looks into).
   */
  const cached = new Map<string, Held>()
  const hold = (slug: string, entry: Held): Held => {
    cached.set(slug, entry)
    entry.orders.then(
      (list) => {
        entry.settled = list
      },
      () => {
        if (cached.get(slug) === entry) cached.delete(slug)
      },
    )
    return entry
  }
  const ordersOf = (slug: string): Promise<LoadedOrder[]> => {
    const hit = cached.get(slug)
    if (hit && (!hit.started || (hit.version === (versions.get(slug) ?? 0) && hit.usersVersion === usersVersion))) return hit.orders
    // The previous load (when it succeeded) lets the loader hand back unchanged orders as the same objects.
    const prior = hit ? hit.orders.catch(() => undefined) : Promise.resolve(undefined)
    const entry: Held = { started: false, version: 0, usersVersion: 0, orders: Promise.resolve([]) }
    entry.orders = prior.then((previous) => {
      // The versions as the read starts: a write applied before this point is read (versions are bumped after a batch
      // is applied), one after it makes the entry stale.
      entry.started = true
      entry.version = versions.get(slug) ?? 0
      entry.usersVersion = usersVersion
      return deps.loadOrders(slug, previous)
    })
    return hold(slug, entry).orders
  }
  // Projects of the last refreshes, with their chain: a write to one of them schedules a reload of its orders.
  const warmSlugs = new Map<string, ChainKey>()
  /**
   * Reloads a project's orders after a write, and reads the balances of wallets the latest snapshot does not hold yet
   * at that snapshot's block (merged into it): the next block's refresh then needs only the Transfer logs.
   */
  async function reload(chain: ChainKey, slug: string): Promise<void> {
    const orders = await ordersOf(slug)
    const refresh = latest.get(chain)
    const result = refresh && (await refresh.done)
    if (!refresh || !result) return
    // A list whose wallets are those the snapshot was read for (a PATCH): nothing is missing.
    const missing = staleWallets([orders], result.balances, new Set(), sameWallets(orders, result.orders.get(slug)))
    if (missing.length === 0) return
    for (const [w, v] of await deps.readBalances(chain, missing, refresh.block)) result.balances.set(w, v)
  }
  const dirty = new Set<string>()
  let reloadTimer: NodeJS.Timeout | undefined
  const scheduleReload = () => {
    if (reloadTimer || stopped) return
    reloadTimer = setTimeout(() => {
      reloadTimer = undefined
      for (const slug of dirty) {
        const chain = warmSlugs.get(slug)
        if (chain !== undefined) void reload(chain, slug).catch((error: unknown) => deps.onError?.(error))
      }
      dirty.clear()
    }, deps.reloadDelayMs ?? 50)
    reloadTimer.unref()
  }
  /**
   * A project's held orders carried over a batch (`patchOrders`), instead of dropped: held at the versions before the
   * batch (no write missed), the new entry is the held list (a load or an earlier patch, already read) with the batch's
   * written orders set, and its buyers' written user records (a follower count moves the book's order) applied to their
   * orders. A user written with no order in a list already read carries the list over as it is (a new key: ~17,000
   * of them while a big book fills up; each used to drop every warm project's orders). Exact whether or not a load
   * still reading saw the writes: the patch sets each written order to its written state (idempotent), and every
   * write reaches this listener.
   */
  function carryHeld(
    slug: string,
    before: { version: number; usersVersion: number },
    orders: ReadonlyMap<string, OrderRecord | null> | undefined,
    users: ReadonlyMap<string, UserRecord | null> | undefined,
  ): void {
    const hit = cached.get(slug)
    const patchOrders = deps.patchOrders
    // A load still queued reads after these writes: it covers them as it is. Only a list already read is patched: one
    // patch at a time per project, never a chain of them (writes faster than patches, 17,000 placements while a big
    // book fills up, would queue without bound, as loads once did: "The silent book"). A write while a load or a patch
    // is under way leaves the entry stale; the next ask queues one load (ordersOf), which covers every write before it.
    const read = hit?.settled
    if (!patchOrders || !hit?.started || !read || hit.version !== before.version || hit.usersVersion !== before.usersVersion) return
    const buyers = users && new Map([...users].filter(([keyId]) => holdsKey(read, keyId)))
    const version = versions.get(slug) ?? 0
    if (!orders?.size && !buyers?.size) {
      hold(slug, { started: true, version, usersVersion, orders: hit.orders }).settled = read
      return
    }
    const patch = async (list: LoadedOrder[]) =>
      inheritBookWallets(list, await patchOrders(list, orders ?? NO_CHANGES, buyers ?? NO_CHANGES), orders?.keys() ?? [])
    hold(slug, { started: true, version, usersVersion, orders: hit.orders.then(patch) })
  }
  /** The project's orders held at its current write version (a load, or a patch of one), awaited; else undefined. */
  async function heldNow(slug: string): Promise<{ orders: LoadedOrder[]; ordersVersion: number; usersVersion: number } | undefined> {
    // A write landing while the held list is awaited moves it on (patched: held again at the new version).
    // A load still queued takes its versions when its read starts: checked once it is read.
    for (let tries = 0; tries < 3; tries++) {
      const hit = cached.get(slug)
      if (!deps.patchOrders || !hit || (hit.started && (hit.version !== (versions.get(slug) ?? 0) || hit.usersVersion !== usersVersion))) return undefined
      const orders = await hit.orders.catch(() => undefined)
      if (!orders) return undefined
      const exact = cached.get(slug) === hit && hit.started && hit.version === (versions.get(slug) ?? 0) && hit.usersVersion === usersVersion
      if (exact) return { orders, ordersVersion: hit.version, usersVersion: hit.usersVersion }
    }
    return undefined
  }
  const unsubscribe = store.onBatch((operations) => {
    // Per project: its version before this batch, and the orders the batch wrote (their record; null: deleted); the
    // users it wrote, by key id.
    let written: Map<string, { before: number; changes: Map<string, OrderRecord | null> }> | undefined
    let users: Map<string, UserRecord | null> | undefined
    const usersBefore = usersVersion
    for (const op of operations) {
      const order = orderWrittenBy(store, op)
      if (order) {
        const { slug } = order
        written ??= new Map()
        let project = written.get(slug)
        if (!project) {
          project = { before: versions.get(slug) ?? 0, changes: new Map() }
          written.set(slug, project)
        }
        // An active record as it is now, decoded from its JSON as a load decodes the store's (the patch runs later and
        // keeps it: its writer's object could still change), anything else as removed: all the patch needs of it.
        const record = op.type === 'put' ? (op.value as OrderRecord) : undefined
        project.changes.set(order.keyId, record?.status === 'active' ? (JSON.parse(JSON.stringify(record)) as OrderRecord) : null)
        versions.set(slug, (versions.get(slug) ?? 0) + 1)
        dirty.add(slug)
        scheduleReload()
      } else if (op.sublevel === store.sub.users) {
        usersVersion++
        users ??= new Map()
        users.set(op.key, op.type === 'put' ? (op.value as UserRecord) : null)
        for (const slug of warmSlugs.keys()) dirty.add(slug)
        scheduleReload()
      }
    }
    const carried = users ? [...cached.keys()] : written ? [...written.keys()] : []
    for (const slug of carried) {
      const project = written?.get(slug)
      carryHeld(slug, { version: project?.before ?? versions.get(slug) ?? 0, usersVersion: usersBefore }, project?.changes, users)
    }
  })
  const latest = new Map<ChainKey, Refresh>()
  /**
   * The newest refresh per chain that finished with a result (and its reorg epoch): a tick whose own block has no
   * refresh carries its balances from it (carriedTake).
   */
  const settled = new Map<ChainKey, { block: bigint; result: NonNullable<Awaited<Refresh['done']>> }>()
  const epochs = new Map<ChainKey, number>()
  // One refresh at a time per chain; a block arriving meanwhile waits, and only the newest waiting one runs.
  const running = new Map<ChainKey, Promise<unknown>>()
  const waiting = new Map<ChainKey, bigint>()
  let stopped = false
  let serials = 0

  function start(chain: ChainKey, block: bigint): Promise<unknown> {
    const previous = latest.get(chain)
    const refresh: Refresh = { block, versions: new Map(), usersVersion, done: Promise.resolve(undefined) }
    refresh.done = (async () => {
      const slugs = await deps.slugsOf(chain)
      if (slugs.length === 0) return undefined
      for (const slug of slugs) refresh.versions.set(slug, versions.get(slug) ?? 0)
      refresh.usersVersion = usersVersion
      for (const [slug, c] of warmSlugs) if (c === chain) warmSlugs.delete(slug)
      for (const slug of slugs) warmSlugs.set(slug, chain)
      // A project with no order or user write since its orders were last read keeps them: only balances are read
      // again (the launch block's refresh then competes as little as possible with the indexer's own reads).
      const loaded = await Promise.all(slugs.map((slug) => ordersOf(slug)))
      const before = previous && (await previous.done)
      const orders = new Map(slugs.map((slug, i) => [slug, loaded[i]!]))
      const serial = ++serials
      if (loaded.every((list) => bookWallets(list).wallets.length === 0)) return { orders, balances: new Map<string, bigint>(), state: { serial } }
      // Carried over the blocks since the previous refresh, not only from the block before: a block arriving while a
      // refresh runs skips the refreshes between (pump), and re-reading every balance then put a 5,000-wallet multicall
      // right after a launch (the split bench's profile, 2026-11-26); the Transfer logs of the gap say who changed.
      const gap = before !== undefined ? block - previous!.block : 0n
      const known = before !== undefined && gap >= 1n && gap <= MAX_CARRIED_BALANCE_BLOCKS && deps.changedWallets ? before.balances : undefined
      if (!known) return { orders, balances: await deps.readBalances(chain, staleWallets(loaded, new Map(), new Set(), false), block), state: { serial } }
      const changed = await deps.changedWallets!(chain, block, previous!.block + 1n)
      const sameAsKnown = slugs.every((slug, i) => sameWallets(loaded[i]!, before!.orders.get(slug)))
      const stale = staleWallets(loaded, known, changed, sameAsKnown)
      // Copied only when a balance is read again: no wallet of the books moved and none is new, the same map serves.
      const balances = stale.length === 0 ? known : new Map(known)
      if (stale.length > 0) for (const [w, v] of await deps.readBalances(chain, stale, block)) balances.set(w, v)
      // Every wallet but the changed ones has the previous block's balance (a balance moves only by a Transfer log).
      return { orders, balances, state: { serial, since: { serial: before!.state.serial, changed } } }
    })().catch((error: unknown) => {
      deps.onError?.(error)
      return undefined
    })
    latest.set(chain, refresh)
    const epoch = epochs.get(chain) ?? 0
    void refresh.done.then((result) => {
      const newest = settled.get(chain)
      if (result && (epochs.get(chain) ?? 0) === epoch && (!newest || newest.block < block)) settled.set(chain, { block, result })
    })
    return refresh.done
  }

  /**
   * A tick's snapshot when its block has no refresh: the refreshes run one at a time and a block arriving meanwhile skips
   * the ones between, so with a refresh slower than a block (a reload of a large book after a write) most blocks have
   * none. Such a tick used to read every balance of its book itself (17,000 wallets: 5-10 s at load 12, every tick, the
   * book ticked once in 40 blocks). Here its balances are carried from the newest finished refresh by the stablecoin's
   * Transfer logs since (as a refresh carries them: one log query, then only the changed and new wallets read at the
   * block), and its orders are the project's current load (shared with the refreshes, one at a time). Undefined when
   * nothing can be carried (no finished refresh, one at or after the block, a gap over MAX_CARRIED_BALANCE_BLOCKS, no log
   * reader): the tick reads its book itself, as before.
   */
  async function carriedTake(chain: ChainKey, slug: string, blockNumber: bigint): Promise<WarmSnapshot | undefined> {
    const base = settled.get(chain)
    if (!deps.changedWallets || !base || base.block >= blockNumber || blockNumber - base.block > MAX_CARRIED_BALANCE_BLOCKS) return undefined
    // Captured before the orders are asked for: exact only if no write landed since (as a refresh's versions).
    const version = versions.get(slug) ?? 0
    const users = usersVersion
    const epoch = epochs.get(chain) ?? 0
    const orders = await ordersOf(slug)
    const { wallets } = bookWallets(orders)
    let balances: ReadonlyMap<string, bigint>
    let state: BalanceState
    if (wallets.length <= DIRECT_BALANCES_MAX_WALLETS) {
      // A small book: its balances read at the block in one multicall, as its tick would (one round trip, like the
      // log query, and no copy of the chain's balances).
      balances = await deps.readBalances(chain, wallets, blockNumber)
      state = { serial: ++serials }
    } else {
      const changed = await deps.changedWallets(chain, blockNumber, base.block + 1n)
      const known = base.result.balances
      const stale = staleWallets([orders], known, changed, sameWallets(orders, base.result.orders.get(slug)))
      // No wallet moved and none is new: the base's balances are this block's (a balance moves only by a Transfer log).
      const carried = stale.length === 0 && changed.size === 0 ? known : new Map(known)
      if (stale.length > 0) for (const [w, v] of await deps.readBalances(chain, stale, blockNumber)) (carried as Map<string, bigint>).set(w, v)
      balances = carried
      // A state of its own, derived from the base's by re-reading the changed wallets (held-candidates.ts).
      state = { serial: ++serials, since: { serial: base.result.state.serial, changed } }
    }
    // A reorg while reading: the base may be gone from the chain.
    if ((epochs.get(chain) ?? 0) !== epoch) return undefined
    const exact = version === (versions.get(slug) ?? 0) && users === usersVersion
    return { orders: exact ? orders : undefined, balances, state, ...(exact ? { ordersVersion: version, usersVersion: users } : {}) }
  }

  const pump = (chain: ChainKey) => {
    const block = waiting.get(chain)
    if (block === undefined || stopped) {
      running.delete(chain)
      return
    }
    waiting.delete(chain)
    running.set(
      chain,
      start(chain, block).then(() => pump(chain)),
    )
  }

  return {
    refresh(chain, blockNumber) {
      // Once per block: a launch log pushed over the socket starts its block's refresh before the block's own signal
      // (launch-tick-reads-ahead.ts), which then finds it under way or done. After a reorg (reset) a block of the same
      // number is refreshed again.
      if (stopped || latest.get(chain)?.block === blockNumber) return
      waiting.set(chain, blockNumber)
      if (!running.has(chain)) pump(chain)
    },
    async take(chain, slug, blockNumber) {
      const refresh = latest.get(chain)
      if (!refresh || refresh.block !== blockNumber) return carriedTake(chain, slug, blockNumber)
      const result = await refresh.done
      const orders = result?.orders.get(slug)
      if (!result || !orders) return undefined
      if (refresh.versions.get(slug) === (versions.get(slug) ?? 0) && refresh.usersVersion === usersVersion)
        return { orders, balances: result.balances, state: result.state, ordersVersion: refresh.versions.get(slug)!, usersVersion }
      // Written since the refresh read them: the orders held now (the refresh's, patched by the writes since) when exact:
      // the tick after a PATCH does not read the whole project (85-290 ms at 5,000 orders, docs/execution.md §3).
      return { orders: undefined, balances: result.balances, state: result.state, ...(await heldNow(slug)) }
    },
    async snapshot(chain, blockNumber) {
      const refresh = latest.get(chain)
      if (!refresh || refresh.block !== blockNumber) return undefined
      return refresh.done
    },
    reset(chain) {
      latest.delete(chain)
      settled.delete(chain)
      epochs.set(chain, (epochs.get(chain) ?? 0) + 1)
    },
    ordersVersion: (slug) => versions.get(slug) ?? 0,
    usersVersion: () => usersVersion,
    orders: (slug) => ordersOf(slug),
    stop() {
      stopped = true
      if (reloadTimer) clearTimeout(reloadTimer)
      waiting.clear()
      unsubscribe()
    },
  }
}
