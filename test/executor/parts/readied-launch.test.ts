import type { Address } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import type { SendBatch } from '../../../daemon/executor/batch-writes.ts'
import { createTickDecider } from '../../../daemon/executor/decide-tick.ts'
import type { ExecutorContext } from '../../../daemon/executor/executor-context.ts'
import { createPreparedEntries } from '../../../daemon/executor/prepared-entries.ts'
import { candidateOf, createWarmBooks } from '../../../daemon/executor/warm-books.ts'
import { lowerWallet } from '../../../src/domain/execution/wallet-index.ts'
import type { OrderRecord } from '../../../src/domain/records.ts'
import type { PriceTick } from '../../../src/journal/journal-records.ts'
import type { StoreOperation } from '../../../src/store/open-store.ts'
import { type ExecutorFixture, keyIdOf, launch, SLUG, startExecutorFixture, tickAt, walletOf } from './executor-fixture.ts'
import { createBuyerService } from '../../../src/services/buyer-service.ts'
import { buyerIndexKey, buyersPrefix } from '../../../src/store/order-index.ts'
import { readAll } from '../../../src/store/paginate.ts'

const USDC = 1_000_000n
const BATCH_BUYER = '0x00000000000000000000000000000000000000bb' as Address
const BUYERS = 6
const AT = 7_000_000

/**
 * The launch committed on its readied walk (readied-launch.ts; docs/execution.md §8, "The launch committed on its
 * readied walk"): the real decider, warm books, prepared entries and LevelDB; a batch buyer every wallet approved, the
 * formula pool, a sender that records when it is handed the committed batch. The tick's plan is counted.
 */
describe('the launch committed on its readied walk, before the plan (decide-tick.ts, readied-launch.ts)', () => {
  const open: ExecutorFixture[] = []
  afterEach(async () => {
    for (const f of open.splice(0)) await f.close()
  })

  async function launchFixture(allowanceAt: (wallet: string, block: bigint) => bigint = () => 10n ** 30n) {
    const f = await startExecutorFixture()
    open.push(f)
    const events: string[] = []
    const stages: string[] = []
    const ctx = f.ctx
    const realWallets = ctx.wallets
    ctx.wallets = {
      ...realWallets,
      operatorAddress: () => '0x00000000000000000000000000000000000000aa' as Address,
      sendCall: async () => '0x',
    } as unknown as ExecutorContext['wallets']
    ctx.batchBuyers = { base: BATCH_BUYER } as ExecutorContext['batchBuyers']
    ctx.chains = { base: {} } as unknown as ExecutorContext['chains']
    ctx.batchReads = {
      ...ctx.batchReads,
      allowances: async (_c, _s, wallets, block) => new Map(wallets.map((w) => [w.toLowerCase(), allowanceAt(w.toLowerCase(), block)])),
    }
    ctx.now = () => AT
    const failures: unknown[] = []
    ctx.failStop = (failure) => failures.push(failure)
    ctx.stage = (name) => stages.push(name)
    // How the orders' locks were taken: one by one, or as the readied walk's group.
    const locks: string[] = []
    const { withOrderLocks, withOrderLockGroup } = ctx
    ctx.withOrderLocks = (keyIds, fn) => {
      locks.push(`each:${keyIds.length}`)
      return withOrderLocks(keyIds, fn)
    }
    ctx.withOrderLockGroup = (group, fn) => {
      locks.push(`group:${group.keys.size}`)
      return withOrderLockGroup(group, fn)
    }
    const store = f.store
    const journal = ctx.batchJournal
    ctx.store = {
      ...store,
      batch: async (ops: readonly StoreOperation[]) => {
        if (ops.some((op) => op.sublevel === journal.commitsSub)) events.push('commit:compact')
        else if (ops.some((op) => op.sublevel === journal.sub)) events.push('commit:full')
        else if (ops.some((op) => op.sublevel === journal.preparedSub)) events.push('prepared')
        else events.push(`write:${ops.length}`)
        await store.batch(ops)
      },
    }
    ctx.preparedEntries = createPreparedEntries({ store: f.store, batchJournal: journal, log: ctx.log, everyMs: 0 })
    const books = ctx.books
    const plan = books.plan.bind(books)
    books.plan = ((...args: Parameters<typeof books.plan>) => {
      events.push('plan')
      return plan(...args)
    }) as typeof books.plan
    const send: SendBatch = async (record, writes) => {
      await writes.committed
      events.push(`collect:${record.included.length}`)
    }
    return { f, ctx, events, stages, send, failures, locks }
  }

  async function buyersOf(f: ExecutorFixture, extra: (i: number) => Partial<OrderRecord> = () => ({})): Promise<void> {
    for (let i = 0; i < BUYERS; i++) {
      await f.addOrder(i, 10 + i, null, extra(i))
      f.chain.balanceOf.set(walletOf(i), 1_000n * USDC)
    }
  }

  /** The warm books at `block`, the decider, and (with `ready`) its readying pass over the waiting book at that block. */
  async function readied(x: Awaited<ReturnType<typeof launchFixture>>, ready: boolean) {
    const { f, ctx } = x
    const warm = createWarmBooks({
      store: f.store,
      slugsOf: async () => [SLUG],
      loadOrders: (slug, previous) => ctx.orders.load(slug, previous),
      readBalances: (chain, wallets) => f.chain.balances(chain, wallets),
    })
    ctx.warm = warm
    open.push({ close: async () => warm.stop() } as ExecutorFixture)
    warm.refresh('base', 10n)
    const snapshot = (await warm.snapshot('base', 10n))!
    const orders = snapshot.orders.get(SLUG)!
    const decider = createTickDecider(ctx)
    if (ready) {
      // The readying pass's own check of its walk (ready-launches.ts checkReadied) accepts it: nothing warned.
      const warned: unknown[] = []
      const warn = ctx.log.warn.bind(ctx.log)
      ctx.log.warn = ((...args: Parameters<typeof warn>) => {
        warned.push(args)
        return warn(...args)
      }) as typeof ctx.log.warn
      const walletsLower = orders.map((o) => lowerWallet(o.wallet))
      const balances = walletsLower.map((w) => snapshot.balances.get(w) ?? 0n)
      const allowances = await ctx.batchReads.allowances(
        'base',
        BATCH_BUYER,
        orders.map((o) => o.wallet),
        10n,
      )
      await decider.readyLaunches!(
        'base',
        10n,
        [{ slug: SLUG, orders, walletsLower, balances, candidates: orders.map((o, i) => candidateOf(o, balances[i]!)) }],
        {
          allowances,
          stillWanted: () => true,
        },
      )
      expect(decider.readiedLaunch!('base', SLUG)?.walked).toBeDefined()
      expect(warned).toEqual([])
      ctx.log.warn = warn
      await ctx.preparedEntries!.idle()
    }
    warm.refresh('base', 11n)
    expect((await warm.snapshot('base', 11n))?.orders.get(SLUG)).toBe(orders)
    x.events.length = 0
    return decider
  }

  const decideAt = async (
    x: Awaited<ReturnType<typeof launchFixture>>,
    decider: ReturnType<typeof createTickDecider>,
    tick: PriceTick = tickAt(11, 1_000_000),
  ) => decider.decide(tick, launch, () => undefined, x.send)

  const storedBatch = (x: Awaited<ReturnType<typeof launchFixture>>) => x.ctx.batchJournal.get('base', SLUG, launch.blockNumber, 0)

  it('commits and hands the first collect to the sender before the plan runs; the record is the one the old path writes', async () => {
    const fast = await launchFixture()
    await buyersOf(fast.f)
    await decideAt(fast, await readied(fast, true))
    // The commit (compact: it names the entries written ahead), the batch handed to the sender, then the plan; the
    // orders' moves and the decision after it.
    expect(fast.events).toEqual(['commit:compact', `collect:${BUYERS}`, 'plan', expect.stringMatching(/^write:/)])
    expect(fast.stages).toContain('executor.readiedLaunch.checked')
    // Its compact commit written straight from the walk (no entry compared before the send), and checked after it.
    expect(fast.stages.indexOf('executor.commitFromWalk')).toBeGreaterThan(-1)
    expect(fast.stages.indexOf('executor.commitFromWalk.checked')).toBeGreaterThan(fast.stages.indexOf('executor.readiedLaunch.checked'))
    expect(fast.failures).toEqual([])
    // Its orders' locks taken as the walk's group, built by the readying pass (one per order otherwise).
    expect(fast.locks).toEqual([`group:${BUYERS}`])

    // The same launch without a readied walk: the old path (plan, then a full commit, then the send).
    const old = await launchFixture()
    await buyersOf(old.f)
    await decideAt(old, await readied(old, false))
    expect(old.events).toEqual(['plan', 'commit:full', `collect:${BUYERS}`, expect.stringMatching(/^write:/)])
    expect(old.stages).not.toContain('executor.readiedLaunch.cleared')
    expect(old.locks).toEqual([`each:${BUYERS}`])

    // The committed record, as every reader sees it (the compact commit expanded over its prepared entries), is the
    // old path's, byte for byte; the orders moved and the decision written alike.
    const committed = await storedBatch(fast)
    expect(committed?.included).toHaveLength(BUYERS)
    expect(JSON.stringify(committed)).toBe(JSON.stringify(await storedBatch(old)))
    for (let i = 0; i < BUYERS; i++) expect((await fast.f.order(i))?.status).toBe('executing')
    expect((await fast.f.journal.inFlight('base')).length).toBe(BUYERS)
    expect(JSON.stringify(await fast.f.journal.decisionsOf(SLUG))).toBe(JSON.stringify(await old.f.journal.decisionsOf(SLUG)))
  })

  it('a plan that builds another record than the one committed fail-stops the executor: no moves written, the commit kept for the roll forward', async () => {
    const x = await launchFixture()
    await buyersOf(x.f)
    const decider = await readied(x, true)
    // A planner that (wrongly) leaves its first buy out after the commit: what the check is there for.
    const books = x.ctx.books
    const plan = books.plan.bind(books)
    books.plan = ((...args: Parameters<typeof books.plan>) => {
      const planned = plan(...args)
      return { ...planned, buys: planned.buys.slice(1) }
    }) as typeof books.plan
    await decideAt(x, decider)
    expect(x.failures).toEqual([expect.objectContaining({ kind: 'readied_launch_mismatch', slug: SLUG })])
    expect(x.events).toEqual(['commit:compact', `collect:${BUYERS}`, 'plan'])
    for (let i = 0; i < BUYERS; i++) expect((await x.f.order(i))?.status).toBe('active')
    expect(await x.f.journal.inFlight('base')).toEqual([])
    expect((await storedBatch(x))?.included).toHaveLength(BUYERS)
  })

  it("a commit written from the walk that does not expand to the record sent (by a test's hand) fail-stops after the sends: no moves written", async () => {
    const x = await launchFixture()
    await buyersOf(x.f)
    const decider = await readied(x, true)
    const prepared = x.ctx.preparedEntries!
    const fromWalk = prepared.commitFromWalk.bind(prepared)
    prepared.commitFromWalk = (record, byRank) => {
      const made = fromWalk(record, byRank)
      // Two entries named the wrong way round: what the check after the sends is there for.
      if (made) made.commit.included.reverse()
      return made
    }
    await decideAt(x, decider)
    expect(x.stages).toContain('executor.commitFromWalk')
    expect(x.stages).toContain('executor.readiedLaunch.checked')
    expect(x.failures).toEqual([expect.objectContaining({ kind: 'readied_launch_mismatch', slug: SLUG })])
    expect(x.events).toEqual(['commit:compact', `collect:${BUYERS}`, 'plan'])
    for (let i = 0; i < BUYERS; i++) expect((await x.f.order(i))?.status).toBe('active')
    expect(await x.f.journal.inFlight('base')).toEqual([])
  })

  const misses: Array<[string, (x: Awaited<ReturnType<typeof launchFixture>>) => Promise<PriceTick | undefined>, ((i: number) => Partial<OrderRecord>)?]> = [
    [
      'backing_off',
      async (x) => {
        x.ctx.backoff.attempted('someone', null, 5n)
        x.ctx.backoff.priceReverted('someone')
        return undefined
      },
    ],
    // The last order expires by the tick's next block (the readying pass knows no launch time).
    ['expiring_order', async () => undefined, (i) => (i === BUYERS - 1 ? { expiresInMs: 1_000 } : {})],
    // A limited order whose wallet has nothing: never walked, but the planner looks at its limit.
    [
      'limited_order',
      async (x) => {
        x.f.chain.balanceOf.set(walletOf(BUYERS - 1), 0n)
        return undefined
      },
      (i) => (i === BUYERS - 1 ? { maxFdvUsdc: '5' } : {}),
    ],
    ['swaps_not_allowed', async () => tickAt(11, 1_000_000, { swapsAllowed: false })],
  ]
  for (const [reason, breakIt, extra] of misses)
    it(`takes the old path when the tick breaks a condition: ${reason}`, async () => {
      const x = await launchFixture()
      await buyersOf(x.f, extra)
      if (reason === 'limited_order') x.f.chain.balanceOf.set(walletOf(BUYERS - 1), 0n)
      const decider = await readied(x, true)
      const tick = await breakIt(x)
      await decideAt(x, decider, tick)
      expect(x.stages).toContain(`executor.readiedLaunch.missed.${reason}`)
      expect(x.stages).not.toContain('executor.readiedLaunch.cleared')
      // Planned first, as always; committed after the plan if anything buys.
      expect(x.events[0]).toBe('plan')
      if (reason !== 'swaps_not_allowed') expect(x.events.slice(1, 3)).toEqual(['commit:compact', expect.stringMatching(/^collect:/)])
    })

  it("takes the old path when an allowance moved between the readied block and the tick's (the readied inputs differ)", async () => {
    const x = await launchFixture((wallet, block) => (block === 11n && wallet === walletOf(2).toLowerCase() ? 10n ** 29n : 10n ** 30n))
    await buyersOf(x.f)
    await decideAt(x, await readied(x, true))
    expect(x.stages).toContain('executor.readiedLaunch.missed.inputs_changed')
    expect(x.events.slice(0, 3)).toEqual(['plan', 'commit:compact', `collect:${BUYERS}`])
  })

  it('takes the old path when a buyer’s follower count changed between the snapshot and the locks (written_since): one buyer index entry per buyer', async () => {
    const x = await launchFixture()
    await buyersOf(x.f)
    const decider = await readied(x, true)
    // The operator links a buyer's social profile (its index entries move to the new count) right before the readied
    // walk takes the orders' locks: its moves planned with the old count would write a second entry.
    const group = x.ctx.withOrderLockGroup!
    let linked = false
    x.ctx.withOrderLockGroup = async (keys, fn) => {
      if (!linked) {
        linked = true
        await createBuyerService({ store: x.f.store }).setSocialProfile(keyIdOf(1), {
          socialId: 7,
          socialUsername: 'b',
          socialUrl: 'https://x.test/b',
          followerCount: 500,
        })
      }
      return group(keys, fn)
    }
    await decideAt(x, decider)
    expect(x.stages).toContain('executor.readiedLaunch.missed.written_since')
    const entries = await readAll(x.f.store.sub.buyersByProject, buyersPrefix(SLUG))
    expect(entries.filter((e) => e.value === keyIdOf(1)).map((e) => e.key)).toEqual([buyerIndexKey(SLUG, 500, keyIdOf(1))])
    expect(entries).toHaveLength(BUYERS)
  })
})
