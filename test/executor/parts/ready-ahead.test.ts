import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ApprovalPassInput, BatchApprovals } from '../../../daemon/executor/approve-ahead.ts'
import { createLaunchReadiness } from '../../../daemon/executor/ready-ahead.ts'
import { createTickDecider } from '../../../daemon/executor/decide-tick.ts'
import { type LoadedOrder, type WarmBooks, withBalances } from '../../../daemon/executor/warm-books.ts'
import { launchBucketsOf } from '../../../daemon/executor/launch-buckets.ts'
import { candidateBuckets } from '../../../daemon/executor/tick-quotes.ts'
import type { BuyQuoter } from '../../../src/launchpads/quote-buy.ts'
import { bookWallets } from '../../../daemon/executor/book-wallets.ts'
import { withResolvers } from '../../../src/common/with-resolvers.ts'
import {
  bucketsRecordingQuotes,
  coldWarmBooks,
  type ExecutorFixture,
  keyIdOf,
  launch,
  SLUG,
  startExecutorFixture,
  tickAt,
  walletOf,
} from './executor-fixture.ts'

const USDC = 1_000_000n

/** An approvals pass that records what each pass was asked, and sends nothing. */
function recordingApprovals(): { passes: ApprovalPassInput[]; approvals: BatchApprovals } {
  const passes: ApprovalPassInput[] = []
  const approvals: BatchApprovals = {
    async pass(_chain, input) {
      passes.push(input)
      return { read: 0, sent: 0 }
    },
    forget: () => undefined,
    settled: async () => undefined,
  }
  return { passes, approvals }
}
describe('readying wallets and books ahead of launches (ready-ahead.ts)', () => {
  let f: ExecutorFixture
  let calls: Array<{ chain: string; userIndexes: readonly number[]; deploy: readonly number[] | undefined }>
  let snapshot: { orders: Map<string, LoadedOrder[]>; balances: Map<string, bigint> }
  beforeEach(async () => {
    f = await startExecutorFixture()
    calls = []
    snapshot = { orders: new Map(), balances: new Map() }
    const warm: WarmBooks = { ...coldWarmBooks, snapshot: async () => snapshot }
    f.ctx.warm = warm
    f.ctx.wallets = {
      ...f.ctx.wallets,
      async prepareAhead(chain, userIndexes, options) {
        calls.push({ chain, userIndexes, deploy: options?.deploy })
        return { read: userIndexes.length, undeployed: 0, deployed: 0 }
      },
    }
  })
  afterEach(() => f.close())

  const loaded = (userIndex: number, slug = SLUG): LoadedOrder => ({
    order: { keyId: keyIdOf(userIndex), slug, status: 'active', maxSpendUsdc: '10', maxFdvUsdc: null, expiresInMs: 60_000, createdAt: 1, updatedAt: 1 },
    userIndex,
    followers: 0,
    wallet: walletOf(userIndex),
  })

  it("prepares a waiting project's book and readies its funded buyers, deploying only those already waiting a block earlier", async () => {
    snapshot.orders.set(SLUG, [loaded(1), loaded(2)])
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    const readiness = createLaunchReadiness(f.ctx)
    await readiness.onProcessed('base', 20n, [])
    expect(f.ctx.books.lastUse(SLUG)).toBe('rebuilt')
    snapshot.orders.set(SLUG, [loaded(1), loaded(2), loaded(3)])
    snapshot.balances.set(walletOf(3).toLowerCase(), 5n * USDC)
    await readiness.onProcessed('base', 21n, [])
    expect(calls).toEqual([
      { chain: 'base', userIndexes: [1], deploy: [] },
      { chain: 'base', userIndexes: [1, 3], deploy: [1] },
    ])
    expect(f.ctx.books.lastUse(SLUG)).toBe('incremental')
  })

  it("prepares a waiting book again only when its orders or its wallets' balances changed", async () => {
    const orders = [loaded(1), loaded(2)]
    snapshot.orders.set(SLUG, orders)
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    const prepared: string[] = []
    const prepare = f.ctx.books.prepare.bind(f.ctx.books)
    f.ctx.books.prepare = (slug, input) => {
      prepared.push(slug)
      return prepare(slug, input)
    }
    const readiness = createLaunchReadiness(f.ctx)
    await readiness.onProcessed('base', 20n, [])
    // Same orders (the warm snapshot hands back the same array until a write), same balances: nothing to do.
    snapshot.balances = new Map(snapshot.balances)
    await readiness.onProcessed('base', 21n, [])
    expect(prepared).toEqual([SLUG])
    // A balance of one of its wallets moved: prepared again (the book's balances are the tick's).
    snapshot.balances.set(walletOf(2).toLowerCase(), 1n)
    await readiness.onProcessed('base', 22n, [])
    // An order was written: the snapshot's array is a new one.
    snapshot.orders.set(SLUG, [...orders])
    await readiness.onProcessed('base', 23n, [])
    expect(prepared).toEqual([SLUG, SLUG, SLUG])
  })

  it("brings the tick decider's held candidates of a prepared waiting book to every block: its launch tick takes the quiet step over them; a ticked project's are left alone", async () => {
    const decider = createTickDecider(f.ctx)
    const orders = [loaded(1), loaded(2), loaded(3)]
    snapshot.orders.set(SLUG, orders)
    for (const w of [1, 2, 3]) snapshot.balances.set(walletOf(w).toLowerCase(), 5n * USDC)
    const states = [{ serial: 1 }, { serial: 2, since: { serial: 1, changed: new Set<string>() } }]
    const readiness = createLaunchReadiness(f.ctx, undefined, decider)
    for (const [i, state] of states.entries()) {
      ;(snapshot as { state?: unknown }).state = state
      await readiness.onProcessed('base', 20n + BigInt(i), [])
    }
    // The launch block's state derives from the last primed one: nothing arrives, nothing is read, the same array.
    const launch = decider.primeCandidates!(SLUG, orders, { known: snapshot.balances, state: { serial: 3, since: { serial: 2, changed: new Set() } } })!
    expect(launch.diff.arrived).toEqual([])
    expect(launch.diff.rebalanced).toEqual([])
    expect(launch.diff.from).toBe(launch.candidates)
    expect(launch.candidates.map((c) => c.balanceAtoms)).toEqual([5n * USDC, 5n * USDC, 5n * USDC])
    // Once the project is ticked its candidates are the ticks' own: neither primed nor forgotten by the pass.
    f.ctx.ticking.set(SLUG, 'base')
    expect(decider.primeCandidates!(SLUG, orders, { known: snapshot.balances, state: { serial: 4 } })).toBeUndefined()
  })

  it('a launch tick over the primed candidates quotes the buckets the readying pass computed for them, unless the launch block moved a balance of the book', async () => {
    // A quoter at 1,500 against limits of 1,000: every tick is quiet (nothing bought, nothing written but its record).
    const quoter: BuyQuoter = {
      quoteBuy: async (_l, spendAtoms) => ({
        kind: 'quoted',
        spendAtoms,
        pairedIn: 1n,
        tokensOut: (spendAtoms * BigInt(launch.totalSupply)) / (1_500n * USDC),
      }),
    }
    const { quotes, given } = bucketsRecordingQuotes(quoter)
    f.ctx.quotes = quotes
    const limited = (userIndex: number): LoadedOrder => {
      const o = loaded(userIndex)
      return { ...o, order: { ...o.order, maxFdvUsdc: '1000' } }
    }
    const run = async (moved: boolean) => {
      // A project seen for the first time: a new decider, no book held, not ticked.
      f.ctx.books.forget(SLUG)
      f.ctx.ticking.delete(SLUG)
      const decider = createTickDecider(f.ctx)
      const orders = [limited(1), limited(2), limited(3)]
      snapshot = { orders: new Map([[SLUG, orders]]), balances: new Map() }
      for (const w of [1, 2, 3]) snapshot.balances.set(walletOf(w).toLowerCase(), 5n * USDC)
      const readiness = createLaunchReadiness(f.ctx, undefined, decider)
      for (const [i, state] of [{ serial: 1 }, { serial: 2, since: { serial: 1, changed: new Set<string>() } }].entries()) {
        ;(snapshot as { state?: unknown }).state = state
        await readiness.onProcessed('base', 20n + BigInt(i), [])
      }
      const computed = launchBucketsOf(orders, snapshot.balances)!
      expect(computed).toEqual([2n ** 23n])
      // The launch block's snapshot: the same orders; wallet 1 at 1 USDC when `moved` (its Transfer log in the block).
      const balances = new Map(snapshot.balances)
      if (moved) balances.set(walletOf(1).toLowerCase(), USDC)
      const changed = new Set(moved ? [walletOf(1).toLowerCase()] : [])
      f.ctx.warm = { ...f.ctx.warm, take: async () => ({ orders, balances, state: { serial: 3, since: { serial: 2, changed } }, ordersVersion: 0 }) }
      await decider.decide(tickAt(22, 1_000), { ...launch, slug: SLUG }, () => undefined)
      return { computed, quoted: given.at(-1) }
    }
    const still = await run(false)
    // The very list the readying pass computed: the launch tick did not walk the candidates for it.
    expect(still.quoted).toBe(still.computed)
    const moved = await run(true)
    expect(moved.quoted).toEqual([2n ** 20n, 2n ** 23n])
  })

  it('a book that fails to follow its primed candidates (an unchanged book) is dropped, not the pass: prepared afresh by the next one', async () => {
    const decider = createTickDecider(f.ctx)
    const orders = [loaded(1), loaded(2)]
    snapshot.orders.set(SLUG, orders)
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    const readiness = createLaunchReadiness(f.ctx, undefined, decider)
    ;(snapshot as { state?: unknown }).state = { serial: 1 }
    await readiness.onProcessed('base', 20n, [])
    const prepare = f.ctx.books.prepare.bind(f.ctx.books)
    let fail = true
    const prepared: string[] = []
    f.ctx.books.prepare = (slug, input, diff) => {
      prepared.push(fail ? 'failed' : 'prepared')
      if (fail) throw new Error('book refused')
      return prepare(slug, input, diff)
    }
    // The same orders and balances: only the book's step after the prime, which fails.
    ;(snapshot as { state?: unknown }).state = { serial: 2, since: { serial: 1, changed: new Set() } }
    await readiness.onProcessed('base', 21n, [])
    fail = false
    ;(snapshot as { state?: unknown }).state = { serial: 3, since: { serial: 2, changed: new Set() } }
    await readiness.onProcessed('base', 22n, [])
    expect(prepared).toEqual(['failed', 'prepared'])
  })

  it("keeps a prepared book's spend buckets for the reads ahead of its launch, for exactly the balances it was prepared on or found equal to", async () => {
    const orders = [loaded(1), loaded(2)]
    snapshot.orders.set(SLUG, orders)
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    const readiness = createLaunchReadiness(f.ctx)
    await readiness.onProcessed('base', 20n, [])
    // The buckets of the book's candidates (tick-quotes.ts candidateBuckets): what the hint would compute.
    const expected = candidateBuckets(withBalances(orders, new Map(), snapshot.balances))
    expect(expected.length).toBeGreaterThan(0)
    expect(launchBucketsOf(orders, snapshot.balances)).toEqual(expected)
    // A later block's map, equal on every wallet of the book: the buckets hold for it (not prepared again).
    const first = snapshot.balances
    snapshot.balances = new Map(snapshot.balances)
    expect(launchBucketsOf(orders, snapshot.balances)).toBeUndefined()
    await readiness.onProcessed('base', 21n, [])
    expect(launchBucketsOf(orders, snapshot.balances)).toEqual(expected)
    expect(launchBucketsOf(orders, first)).toBeUndefined()
    // A balance moved: prepared again, the buckets of the new balances.
    snapshot.balances = new Map(snapshot.balances)
    snapshot.balances.set(walletOf(2).toLowerCase(), 3n * USDC)
    await readiness.onProcessed('base', 22n, [])
    expect(launchBucketsOf(orders, snapshot.balances)).toEqual(candidateBuckets(withBalances(orders, new Map(), snapshot.balances)))
    // Another orders array (a write): nothing kept for it until it is prepared.
    expect(launchBucketsOf([...orders], snapshot.balances)).toBeUndefined()
  })

  it("reads the allowances ahead with the books' own wallet lists: one book's as it is, several joined into the same array while they are unchanged", async () => {
    const asked: Array<{ wallets: readonly unknown[]; block: bigint; covers: ReadonlyArray<readonly unknown[]> | undefined }> = []
    f.ctx.batchBuyers = { base: walletOf(900) }
    f.ctx.warmAllowances = {
      at: async () => new Map(),
      async ahead(_chain, _spender, wallets, block, covers) {
        asked.push({ wallets, block, covers })
        return new Map()
      },
      forget: () => undefined,
    }
    const book = [loaded(1), loaded(2), loaded(1)]
    snapshot.orders.set(SLUG, book)
    const readiness = createLaunchReadiness(f.ctx)
    await readiness.onProcessed('base', 30n, [])
    await readiness.onProcessed('base', 31n, [])
    // The very array the book's ticks (and its launch's hint) ask with: the warm allowances know it covered.
    expect(asked.map((a) => a.wallets)).toEqual([bookWallets(book).wallets, bookWallets(book).wallets])
    expect(asked[0]!.wallets).toBe(bookWallets(book).wallets)
    expect(asked[1]!.wallets).toBe(asked[0]!.wallets)
    const other = [loaded(3, 'other'), loaded(4, 'other')]
    snapshot.orders.set('other', other)
    await readiness.onProcessed('base', 32n, [])
    await readiness.onProcessed('base', 33n, [])
    const [joined, again] = asked.slice(2)
    expect(joined!.wallets).toEqual([walletOf(1), walletOf(2), walletOf(3), walletOf(4)])
    expect(again!.wallets).toBe(joined!.wallets)
    expect(joined!.covers).toEqual([bookWallets(book).wallets, bookWallets(other).wallets])
    expect(joined!.covers![1]).toBe(bookWallets(other).wallets)
    // A book written (a new orders array): joined anew.
    snapshot.orders.set('other', [...other, loaded(5, 'other')])
    await readiness.onProcessed('base', 34n, [])
    expect(asked.at(-1)!.wallets).not.toBe(joined!.wallets)
    expect(asked.at(-1)!.wallets).toEqual([walletOf(1), walletOf(2), walletOf(3), walletOf(4), walletOf(5)])
  })

  it('prepares ahead only the books of waiting projects with prepareBooksAheadFrom orders or more, and drops one that shrank below; wallets are readied either way', async () => {
    f.ctx.prepareBooksAheadFrom = 3
    snapshot.orders.set(SLUG, [loaded(1), loaded(2), loaded(3)])
    snapshot.orders.set('small', [loaded(4, 'small'), loaded(5, 'small')])
    snapshot.balances.set(walletOf(4).toLowerCase(), 5n * USDC)
    const readiness = createLaunchReadiness(f.ctx)
    await readiness.onProcessed('base', 20n, [])
    expect(f.ctx.books.lastUse(SLUG)).toBe('rebuilt')
    expect(f.ctx.books.lastUse('small')).toBeUndefined()
    expect(calls).toEqual([{ chain: 'base', userIndexes: [4], deploy: [] }])
    snapshot.orders.set(SLUG, [loaded(1), loaded(2)])
    await readiness.onProcessed('base', 21n, [])
    expect(f.ctx.books.lastUse(SLUG)).toBeUndefined()
    // Grown back to the threshold: prepared again.
    snapshot.orders.set(SLUG, [loaded(1), loaded(2), loaded(6)])
    await readiness.onProcessed('base', 22n, [])
    expect(f.ctx.books.lastUse(SLUG)).toBe('rebuilt')
  })

  it('does nothing in a block where something launched', async () => {
    snapshot.orders.set(SLUG, [loaded(1)])
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    await createLaunchReadiness(f.ctx).onProcessed('base', 20n, ['elsewhere'])
    expect(calls).toEqual([])
    expect(f.ctx.books.lastUse(SLUG)).toBeUndefined()
  })

  it('never readies a wallet that may be buying in a launched project right now, nor rebuilds that book from the snapshot', async () => {
    f.ctx.ticking.set('launched', 'base')
    snapshot.orders.set(SLUG, [loaded(1), loaded(2)])
    snapshot.orders.set('launched', [loaded(1, 'launched')])
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    snapshot.balances.set(walletOf(2).toLowerCase(), 5n * USDC)
    await createLaunchReadiness(f.ctx).onProcessed('base', 20n, [])
    expect(calls).toEqual([{ chain: 'base', userIndexes: [2], deploy: [] }])
    expect(f.ctx.books.lastUse('launched')).toBeUndefined()
  })

  it('skips readying wallets while the previous block’s readying is still running; books are prepared anyway', async () => {
    const slow = withResolvers<void>()
    let started = 0
    f.ctx.wallets = {
      ...f.ctx.wallets,
      async prepareAhead() {
        started++
        await slow.promise
        return { read: 0, undeployed: 0, deployed: 0 }
      },
    }
    snapshot.orders.set(SLUG, [loaded(1)])
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    const readiness = createLaunchReadiness(f.ctx)
    const first = readiness.onProcessed('base', 20n, [])
    await new Promise((resolve) => setImmediate(resolve))
    snapshot.orders.set('second', [loaded(4, 'second')])
    await readiness.onProcessed('base', 21n, [])
    expect(started).toBe(1)
    expect(f.ctx.books.lastUse('second')).toBe('rebuilt')
    slow.resolve()
    await first
  })

  it('reads the send path ahead on every processed block while funded orders wait, even while the readying of the wallets is still running; not with nobody waiting nor in a launch block', async () => {
    const slow = withResolvers<void>()
    const warmed: Array<{ chain: string; block: number }> = []
    let block = 0
    f.ctx.wallets = {
      ...f.ctx.wallets,
      async prepareAhead() {
        await slow.promise
        return { read: 0, undeployed: 0, deployed: 0 }
      },
      async warmSends(chain) {
        warmed.push({ chain, block })
      },
    }
    const readiness = createLaunchReadiness(f.ctx)
    // An order without funds: nobody could buy at a launch, nothing to warm.
    snapshot.orders.set(SLUG, [loaded(1)])
    block = 19
    await readiness.onProcessed('base', 19n, [])
    expect(warmed).toEqual([])
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    block = 20
    const first = readiness.onProcessed('base', 20n, [])
    await new Promise((resolve) => setImmediate(resolve))
    // The readying of block 20 still runs (prepareAhead held): block 21's pass skips it, but reads the send path.
    block = 21
    await readiness.onProcessed('base', 21n, [])
    block = 22
    await readiness.onProcessed('base', 22n, [SLUG])
    expect(warmed).toEqual([
      { chain: 'base', block: 20 },
      { chain: 'base', block: 21 },
    ])
    slow.resolve()
    await first
  })

  it("reads the send path on a block whose snapshot is gone (a later block's refresh started first), on what the last snapshot said", async () => {
    const warmed: number[] = []
    let block = 0
    f.ctx.wallets = {
      ...f.ctx.wallets,
      async warmSends() {
        warmed.push(block)
      },
    }
    let current: typeof snapshot | undefined = snapshot
    f.ctx.warm = { ...coldWarmBooks, snapshot: async () => current }
    const readiness = createLaunchReadiness(f.ctx)
    // No snapshot yet: nothing known to wait, nothing read.
    current = undefined
    block = 19
    await readiness.onProcessed('base', 19n, [])
    // A funded order waiting, then two blocks without their snapshot: the send path is read on each.
    current = snapshot
    snapshot.orders.set(SLUG, [loaded(1)])
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    block = 20
    await readiness.onProcessed('base', 20n, [])
    current = undefined
    block = 21
    await readiness.onProcessed('base', 21n, [])
    block = 22
    await readiness.onProcessed('base', 22n, [])
    // Nobody funded at the last snapshot: not read on a block without one.
    current = snapshot
    snapshot.balances.set(walletOf(1).toLowerCase(), 0n)
    block = 23
    await readiness.onProcessed('base', 23n, [])
    current = undefined
    block = 24
    await readiness.onProcessed('base', 24n, [])
    expect(warmed).toEqual([20, 21, 22])
  })

  it('reads the send path one at a time per chain, and a failed read does not fail the pass', async () => {
    const held = withResolvers<void>()
    let calls = 0
    f.ctx.wallets = {
      ...f.ctx.wallets,
      async warmSends() {
        calls++
        if (calls === 1) await held.promise
        else throw new Error('node down')
      },
    }
    snapshot.orders.set(SLUG, [loaded(1)])
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    const readiness = createLaunchReadiness(f.ctx)
    const first = readiness.onProcessed('base', 20n, [])
    await new Promise((resolve) => setImmediate(resolve))
    await readiness.onProcessed('base', 21n, [])
    expect(calls).toBe(1)
    held.resolve()
    await first
    await readiness.onProcessed('base', 22n, [])
    expect(calls).toBe(2)
  })

  it('sends no deployment once a launch on the chain was processed while the wallets were read', async () => {
    const reading = withResolvers<void>()
    const wanted: boolean[] = []
    f.ctx.wallets = {
      ...f.ctx.wallets,
      async prepareAhead(_chain, _userIndexes, options) {
        wanted.push(options?.stillWanted?.() ?? true)
        await reading.promise
        wanted.push(options?.stillWanted?.() ?? true)
        return { read: 0, undeployed: 0, deployed: 0 }
      },
    }
    snapshot.orders.set(SLUG, [loaded(1)])
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    const readiness = createLaunchReadiness(f.ctx)
    await readiness.onProcessed('base', 19n, ['old-launch'])
    const readying = readiness.onProcessed('base', 20n, [])
    await new Promise((resolve) => setImmediate(resolve))
    // A launch on the other chain does not matter; one on this chain does.
    await readiness.onProcessed('second_chain', 7n, ['elsewhere'])
    expect(wanted).toEqual([true])
    await readiness.onProcessed('base', 21n, ['new-launch'])
    reading.resolve()
    await readying
    expect(wanted).toEqual([true, false])
  })

  it('runs the approvals pass after the readying, with nobody waiting too (revocations), never in a block with a launch, buyers of a launched project apart', async () => {
    const { passes, approvals } = recordingApprovals()
    f.ctx.ticking.set('launched', 'base')
    snapshot.orders.set(SLUG, [loaded(1), loaded(2)])
    snapshot.orders.set('launched', [loaded(2, 'launched')])
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    snapshot.balances.set(walletOf(2).toLowerCase(), 5n * USDC)
    const readiness = createLaunchReadiness(f.ctx, approvals)
    await readiness.onProcessed('base', 20n, [])
    expect(passes).toHaveLength(1)
    expect(passes[0]).toMatchObject({ blockNumber: 20n, waiting: new Set([1]), buying: new Set([2]), launched: new Set(['launched']) })
    expect(passes[0]!.stillWanted()).toBe(true)
    expect([...passes[0]!.orders.keys()].sort()).toEqual(['launched', SLUG].sort())
    await readiness.onProcessed('base', 21n, ['new-launch'])
    expect(passes).toHaveLength(1)
    // The pass asked after a launch was processed sends nothing.
    expect(passes[0]!.stillWanted()).toBe(false)
    snapshot.orders.clear()
    snapshot.balances.clear()
    f.ctx.ticking.clear()
    await readiness.onProcessed('base', 22n, [])
    expect(passes).toHaveLength(2)
    expect(passes[1]).toMatchObject({ waiting: new Set(), buying: new Set() })
  })

  it("a launched project's buyers are gathered again only when its orders were written: the same set block after block", async () => {
    const { passes, approvals } = recordingApprovals()
    f.ctx.ticking.set('launched', 'base')
    const held = [loaded(2, 'launched'), loaded(4, 'launched')]
    snapshot.orders.set('launched', held)
    snapshot.orders.set(SLUG, [loaded(1), loaded(2)])
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    snapshot.balances.set(walletOf(2).toLowerCase(), 5n * USDC)
    const readiness = createLaunchReadiness(f.ctx, approvals)
    await readiness.onProcessed('base', 20n, [])
    await readiness.onProcessed('base', 21n, [])
    expect(passes).toHaveLength(2)
    expect(passes[0]).toMatchObject({ waiting: new Set([1]), buying: new Set([2, 4]) })
    // The held book's orders are the same array: the same set, not 17,000 user indices added to a new one every block.
    expect(passes[1]!.buying).toBe(passes[0]!.buying)
    // A PATCH of a held order: a new array, one entry another object of the same buyer: the same set.
    const edited = { ...held[1]!, order: { ...held[1]!.order, maxSpendUsdc: '20', updatedAt: 2 } }
    snapshot.orders.set('launched', [held[0]!, edited])
    await readiness.onProcessed('base', 22n, [])
    expect(passes[2]!.buying).toBe(passes[0]!.buying)
    // An order placed in the launched project (another length): its buyers gathered again.
    snapshot.orders.set('launched', [...held, loaded(5, 'launched')])
    await readiness.onProcessed('base', 23n, [])
    expect(passes[3]!.buying).not.toBe(passes[0]!.buying)
    expect(passes[3]).toMatchObject({ waiting: new Set([1]), buying: new Set([2, 4, 5]) })
    // A buyer's order replaced by another buyer's in the same place: gathered again.
    snapshot.orders.set('launched', [held[0]!, loaded(6, 'launched')])
    await readiness.onProcessed('base', 24n, [])
    expect(passes[4]).toMatchObject({ buying: new Set([2, 6]) })
    expect(passes[0]!.buying).toEqual(new Set([2, 4]))
  })

  it('a wallet whose order is executing (in flight, e.g. in a batch) counts as buying, though its project no longer ticks', async () => {
    const { passes, approvals } = recordingApprovals()
    // Wallet 3's only order is executing in a batch: not active (not in the snapshot), its project out of `ticking`
    // (no active order left). Without it in `buying`, the pass would revoke its allowance while the batch pulls.
    await f.store.batch([
      f.journal.putInFlight({
        keyId: keyIdOf(3),
        slug: 'launched',
        chain: 'base',
        userIndex: 3,
        wallet: walletOf(3),
        spendAtoms: '10000000',
        minTokensOut: '0',
        token: walletOf(99),
        orderId: `0x${'ab'.repeat(32)}`,
        submittedAt: 0,
        fromBlock: '20',
        batchId: `0x${'cd'.repeat(32)}`,
      }),
    ])
    snapshot.orders.set(SLUG, [loaded(1)])
    snapshot.balances.set(walletOf(1).toLowerCase(), 5n * USDC)
    await createLaunchReadiness(f.ctx, approvals).onProcessed('base', 21n, [])
    expect(passes).toHaveLength(1)
    expect(passes[0]).toMatchObject({ waiting: new Set([1]), buying: new Set([3]) })
  })

  it('prepareLaunchedBooks builds the books of launched projects with active orders, not of waiting ones', async () => {
    await f.addProject(SLUG, { chain: 'base', tokenAddress: walletOf(99), symbol: 'X', name: 'X', decimals: 18, launchedAt: 1 })
    await f.addProject('waiting', null)
    await f.addOrder(1, 10, null)
    await createLaunchReadiness(f.ctx).prepareLaunchedBooks()
    expect(f.ctx.books.lastUse(SLUG)).toBe('rebuilt')
    expect(f.ctx.books.lastUse('waiting')).toBeUndefined()
  })
})
