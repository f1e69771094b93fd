import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTickDecider, type SubmittedBuy } from '../../../daemon/executor/decide-tick.ts'
import { createWarmBooks, type LoadedOrder } from '../../../daemon/executor/warm-books.ts'
import type { StoreOperation } from '../../../src/store/open-store.ts'
import { MAX_DELTAS_IN_A_ROW } from '../../../src/domain/execution/decision-delta.ts'
import type { InFlightExecution, TickDecision } from '../../../src/journal/journal-records.ts'
import { silentLogger } from '../../../src/common/logger.ts'
import { orderWriteOps } from '../../../src/store/order-writes.ts'
import { createBuyerService } from '../../../src/services/buyer-service.ts'
import { buyerIndexKey, buyersPrefix } from '../../../src/store/order-index.ts'
import { readAll } from '../../../src/store/paginate.ts'
import { type ExecutorFixture, keyIdOf, launch, SLUG, startExecutorFixture, tickAt, walletOf } from './executor-fixture.ts'

const USDC = 1_000_000n

/** An earlier buy of the buyer's wallet on another launch of the chain, still in flight for `spendAtoms`. */
const otherLaunchInFlight = (userIndex: number, spendAtoms: bigint): InFlightExecution => ({
  keyId: keyIdOf(userIndex),
  slug: 'other',
  chain: 'base',
  userIndex,
  wallet: walletOf(userIndex),
  spendAtoms: spendAtoms.toString(),
  minTokensOut: '0',
  token: launch.token,
  orderId: launch.txHash,
  submittedAt: 0,
  fromBlock: '5',
})

describe('deciding a tick (decide-tick.ts)', () => {
  let f: ExecutorFixture
  beforeEach(async () => {
    f = await startExecutorFixture()
  })
  afterEach(() => f.close())

  /** Submissions as the decider hands them on, and the order of hand-offs and writes. */
  function recorder() {
    const events: string[] = []
    const handed: Array<{ buys: SubmittedBuy[]; written: Promise<void> }> = []
    const { store } = f
    f.ctx.store = {
      ...store,
      batch: async (ops: readonly StoreOperation[]) => {
        events.push(`batch:${ops.length}`)
        await store.batch(ops)
      },
    }
    const submit = (buys: SubmittedBuy[], written: Promise<void>) => {
      events.push('submit')
      handed.push({ buys, written })
    }
    return { events, handed, submit }
  }

  it('writes the executing moves, in-flight entries and the decision in one batch, handing the buys on before the write', async () => {
    await f.addOrder(1, 100, 2_000)
    await f.addOrder(2, 50, 500)
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    f.chain.balanceOf.set(walletOf(2), 1_000n * USDC)
    const { events, handed, submit } = recorder()
    const submitted = await createTickDecider(f.ctx).decide(tickAt(11, 1_000), launch, submit)

    expect(submitted.map((s) => s.entry.keyId)).toEqual([keyIdOf(1)])
    expect(submitted[0]?.entry).toMatchObject({ spendAtoms: (100n * USDC).toString(), wallet: walletOf(1), fromBlock: '11', token: launch.token })
    // One hand-off, before the one write; its gate opens once the write is done.
    expect(events).toEqual(['submit', expect.stringMatching(/^batch:/)])
    await expect(handed[0]?.written).resolves.toBeUndefined()
    expect((await f.order(1))?.status).toBe('executing')
    expect((await f.order(2))?.status).toBe('active')
    // The executing event keeps the attempt's block (where a later attempt's chain lookup starts).
    expect((await f.journal.orderEventsOf(keyIdOf(1), SLUG)).at(-1)).toMatchObject({ from: 'active', to: 'executing', blockNumber: '11' })
    expect((await f.journal.inFlight('base')).map((e) => e.keyId)).toEqual([keyIdOf(1)])
    const [decision] = await f.journal.decisionsOf(SLUG)
    // Every order has its verdict (skipped ones first, then the buys in rank order: the planner's order).
    expect(decision?.orders.map((o) => [o.keyId, o.verdict, o.rank])).toEqual([
      [keyIdOf(2), 'limit_below_cap', undefined],
      [keyIdOf(1), 'submitted', 0],
    ])
    expect(f.ctx.ticking.get(SLUG)).toBe('base')
  })

  it('journals a quiet tick only when a verdict changed since the last one it recorded', async () => {
    await f.addOrder(2, 50, 500)
    f.chain.balanceOf.set(walletOf(2), 1_000n * USDC)
    const decider = createTickDecider(f.ctx)
    const submit = () => expect.unreachable('nothing buys')
    await decider.decide(tickAt(11, 1_000), launch, submit)
    await decider.decide(tickAt(12, 900), launch, submit)
    // Quiet records are written behind their ticks (record-quiet-tick.ts).
    await decider.quietWritten?.()
    expect(await f.journal.decisionsOf(SLUG)).toHaveLength(1)
    await decider.decide(tickAt(13, 900, { swapsAllowed: false }), launch, submit)
    await decider.quietWritten?.()
    const decisions = await f.journal.decisionsOf(SLUG)
    expect(decisions.map((d) => d.orders[0]?.verdict)).toEqual(['limit_below_cap', 'swaps_not_allowed'])
  })

  it('journals a quiet tick after a PATCH as that order’s changes; the journal hands it back whole', async () => {
    // Ten orders waiting for the price (limits of 500-590 USD against a cap of 1,000), all funded.
    for (let i = 0; i < 10; i++) {
      await f.addOrder(i, 10 + i, 500 + 10 * i)
      f.chain.balanceOf.set(walletOf(i), 1_000n * USDC)
    }
    const decider = createTickDecider(f.ctx)
    const submit = () => expect.unreachable('nothing buys')
    await decider.decide(tickAt(11, 1_000), launch, submit)
    // One order PATCHed to a limit the cap meets, its wallet emptied (so nothing buys): its verdict changes. Another
    // wallet's balance moves: its row changes, not its verdict.
    await f.addOrder(3, 40, 1_500, { updatedAt: 100 })
    f.chain.balanceOf.set(walletOf(3), 0n)
    f.chain.balanceOf.set(walletOf(5), 500n * USDC)
    await decider.decide(tickAt(12, 1_000), launch, submit)
    await decider.quietWritten?.()
    const stored = []
    for await (const value of f.journal.sub.decisions.values()) stored.push(value)
    expect(stored).toHaveLength(2)
    expect(stored[0]?.delta).toBeUndefined()
    const [first, second] = stored
    // The second record: the PATCHed order's verdict and row, the other wallet's row, nothing else.
    expect(second?.delta?.removed).toEqual([])
    expect(second?.orders.map((o) => [o.keyId, o.verdict])).toEqual([[keyIdOf(3), 'no_balance']])
    expect(second?.inputs?.orders.map((r) => r[0]).sort()).toEqual([keyIdOf(3), keyIdOf(5)])
    // Read back whole: every order's verdict and row, as a whole record of that tick would hold them.
    const [, whole] = await f.journal.decisionsOf(SLUG)
    expect(whole?.delta).toBeUndefined()
    expect(whole?.orders).toHaveLength(10)
    expect(whole?.inputs?.orders).toHaveLength(10)
    const verdictOf = new Map(whole?.orders.map((o) => [o.keyId, o.verdict]))
    expect(verdictOf.get(keyIdOf(3))).toBe(second?.orders[0]?.verdict)
    for (let i = 0; i < 10; i++) if (i !== 3) expect(verdictOf.get(keyIdOf(i))).toBe(first?.orders.find((o) => o.keyId === keyIdOf(i))?.verdict)
    const rowOf = new Map(whole?.inputs?.orders.map((r) => [r[0], r]))
    expect(rowOf.get(keyIdOf(3))?.slice(2, 4)).toEqual(['40', '1500'])
    expect(rowOf.get(keyIdOf(3))?.[5]).toBe('0')
    expect(rowOf.get(keyIdOf(5))?.[5]).toBe((500n * USDC).toString())
    expect(rowOf.get(keyIdOf(7))?.[5]).toBe((1_000n * USDC).toString())
    expect((await f.journal.latestDecision(SLUG))?.orders).toEqual(whole?.orders)
  })

  it('journals PATCH after PATCH with no whole record after the first: a cumulative delta on it every 64; the journal reads each back whole', async () => {
    // 100 orders waiting for the price (limits of 500-599 USD against a cap of 1,000), no balance: nothing can buy.
    for (let i = 0; i < 100; i++) await f.addOrder(i, 10 + i, 500 + i)
    const decider = createTickDecider(f.ctx)
    const submit = () => expect.unreachable('nothing buys')
    await decider.decide(tickAt(11, 1_000), launch, submit)
    // 300 ticks, each after a PATCH that moves one order's limit over or under the cap: its verdict changes each time.
    // Over 256 records: the old reader walked back at most 4 x 64 records for a whole one.
    const ticks = 300
    const over = new Array<boolean>(10).fill(false)
    for (let step = 1; step <= ticks; step++) {
      const i = step % 10
      over[i] = !over[i]
      await f.addOrder(i, 10 + i, over[i] ? 1_500 : 500 + i, { updatedAt: 1_000 + step })
      await decider.decide(tickAt(11 + step, 1_000), launch, submit)
    }
    await decider.quietWritten?.()
    const stored: Array<{ key: string; value: TickDecision }> = []
    for await (const [key, value] of f.journal.sub.decisions.iterator()) stored.push({ key, value })
    expect(stored).toHaveLength(ticks + 1)
    // The book was written whole once, inside the first tick: never again (before: every 65th record, whole).
    expect(stored.filter((s) => s.value.delta === undefined).map((s) => s.key)).toEqual([stored[0]!.key])
    // A reader applies at most 64 deltas to any record; the cumulative ones (base: the whole record) hold every order
    // changed since it (the ten PATCHed ones here, a tenth of the book), the others the PATCHed order alone.
    const byKey = new Map(stored.map((s) => [s.key, s.value]))
    const onWhole: number[] = []
    stored.forEach(({ value }, index) => {
      if (index === 0) return
      let hops = 0
      for (let at = value; at.delta; at = byKey.get(at.delta.base)!) hops++
      expect(hops).toBeLessThanOrEqual(MAX_DELTAS_IN_A_ROW)
      if (value.delta?.base === stored[0]!.key) {
        onWhole.push(index)
        expect(value.orders.length).toBeLessThanOrEqual(10)
      } else expect(value.orders).toHaveLength(1)
    })
    // The first delta, then a cumulative one after every 64 deltas.
    expect(onWhole).toEqual([1, 65, 129, 193, 257])
    // Read back whole: every record holds the 100 orders, the last the verdicts of the last PATCHes.
    const whole = await f.journal.decisionsOf(SLUG)
    expect(whole).toHaveLength(ticks + 1)
    for (const decision of whole) {
      expect(decision.delta).toBeUndefined()
      expect(decision.orders).toHaveLength(100)
      expect(decision.inputs?.orders).toHaveLength(100)
    }
    const last = whole.at(-1)!
    const verdictOf = new Map(last.orders.map((o) => [o.keyId, o.verdict]))
    // Each of the ten PATCHed 30 times: back under the cap, as the others.
    for (let i = 0; i < 100; i++) expect(verdictOf.get(keyIdOf(i))).toBe('limit_below_cap')
    // The record before: order 0 still over the cap (its 29th PATCH, step 290; its 30th is step 300): no balance.
    expect(whole.at(-2)!.orders.find((o) => o.keyId === keyIdOf(0))?.verdict).toBe('no_balance')
    expect(await f.journal.latestDecision(SLUG)).toEqual(last)
  })

  it('writes a quiet record behind its tick: the next record waits for it; a failed write is logged, fails no tick, and makes the next record whole', async () => {
    for (let i = 0; i < 3; i++) await f.addOrder(i, 10 + i, 500 + i)
    const warnings: string[] = []
    f.ctx.log = Object.assign(Object.create(silentLogger) as typeof f.ctx.log, { warn: (_: unknown, message: string) => void warnings.push(message) })
    // The store's writes of decisions held until released, or refused.
    const batch = f.store.batch.bind(f.store)
    let gate: { release: () => void; refuse: () => void } | undefined
    const held: Promise<void>[] = []
    f.ctx.store = {
      ...f.store,
      batch: (ops) => {
        if (!ops.some((op) => op.sublevel === f.journal.sub.decisions)) return batch(ops)
        const write = new Promise<void>((resolve, reject) => {
          gate = { release: () => resolve(batch(ops)), refuse: () => reject(new Error('disk full')) }
        })
        held.push(write)
        return write
      },
    }
    const decider = createTickDecider(f.ctx)
    const submit = () => expect.unreachable('nothing buys')
    // The first tick ends with its record handed to the store, not written.
    await decider.decide(tickAt(11, 1_000), launch, submit)
    expect(held).toHaveLength(1)
    expect(decider.quietWriting?.()).toBe(1)
    expect(await f.journal.decisionsOf(SLUG)).toHaveLength(0)
    let written = false
    const allWritten = decider.quietWritten!().then(() => (written = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(written).toBe(false)
    // A PATCH, and the next tick: its record waits for the first one's write before it is built.
    await f.addOrder(1, 40, 1_500, { updatedAt: 100 })
    let second = false
    const secondTick = decider.decide(tickAt(12, 1_000), launch, submit).then(() => (second = true))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(second).toBe(false)
    expect(held).toHaveLength(1)
    gate!.release()
    await allWritten
    await secondTick
    expect(held).toHaveLength(2)
    // The second write refused: logged, no tick failed; the third record is whole again.
    gate!.refuse()
    await decider.quietWritten!()
    expect(warnings).toContain('writing a quiet decision failed; the next one is written whole')
    expect(decider.quietWriting?.()).toBe(0)
    await f.addOrder(1, 40, 500, { updatedAt: 200 })
    await decider.decide(tickAt(13, 1_000), launch, submit)
    gate!.release()
    await decider.quietWritten!()
    const stored: TickDecision[] = []
    for await (const value of f.journal.sub.decisions.values()) stored.push(value)
    expect(stored).toHaveLength(2)
    expect(stored.map((d) => d.delta === undefined)).toEqual([true, true])
  })

  it('a tick of the project waits for its quiet record in the write: an acting tick writes its decision after it, and the next quiet record is whole', async () => {
    // Three orders a cap of 400 meets, two it does not; all funded.
    for (let i = 0; i < 5; i++) {
      await f.addOrder(i, 10 + i, i < 3 ? 500 : 100)
      f.chain.balanceOf.set(walletOf(i), 1_000n * USDC)
    }
    // The quiet records' writes (one operation each) held until released.
    const batch = f.store.batch.bind(f.store)
    const releases: Array<() => void> = []
    f.ctx.store = {
      ...f.store,
      batch: (ops) =>
        ops.length === 1 && ops[0]!.sublevel === f.journal.sub.decisions
          ? new Promise<void>((resolve) => releases.push(() => resolve(batch(ops))))
          : batch(ops),
    }
    const decider = createTickDecider(f.ctx)
    await decider.decide(tickAt(11, 1_000), launch, () => expect.unreachable('nothing buys'))
    expect(releases).toHaveLength(1)
    // The next tick would buy three orders: it waits for the quiet record first.
    const handed: SubmittedBuy[] = []
    let done = false
    const acting = decider.decide(tickAt(12, 400), launch, (buys) => handed.push(...buys)).then(() => (done = true))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect([done, handed.length]).toEqual([false, 0])
    releases[0]!()
    await acting
    expect(handed).toHaveLength(3)
    // A quiet tick on the two left: its record is whole (the acting tick wrote its own decision, whole).
    await decider.decide(tickAt(13, 400, { swapsAllowed: false }), launch, () => expect.unreachable('nothing buys'))
    releases[1]!()
    await decider.quietWritten!()
    const stored: TickDecision[] = []
    for await (const value of f.journal.sub.decisions.values()) stored.push(value)
    expect(stored.map((d) => [d.tick.blockNumber, d.orders.length, d.delta === undefined])).toEqual([
      ['11', 5, true],
      ['12', 5, true],
      ['13', 2, true],
    ])
  })

  it('does not buy an order edited between planning and the executing batch (its verdict reads in_flight)', async () => {
    const planned = await f.addOrder(1, 100, null)
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    const { store } = f
    const withOrderLocks = f.ctx.withOrderLocks
    // A PATCH lands right before the decider takes the orders' locks.
    f.ctx.withOrderLocks = async (keyIds, fn) => {
      const edited = { ...planned, maxSpendUsdc: '60', updatedAt: planned.updatedAt + 1 }
      await store.batch(orderWriteOps(store, planned, edited, { writer: 'api', followers: 0 }))
      return withOrderLocks(keyIds, fn)
    }
    const { handed, submit } = recorder()
    expect(await createTickDecider(f.ctx).decide(tickAt(11, 1_000), launch, submit)).toEqual([])
    expect(handed).toEqual([])
    expect(await f.order(1)).toMatchObject({ status: 'active', maxSpendUsdc: '60' })
    expect((await f.journal.decisionsOf(SLUG))[0]?.orders[0]?.verdict).toBe('in_flight')
  })

  /**
   * The real warm books over the fixture's store, refreshed at the tick's block: the tick plans on their snapshot.
   * Counts the re-reads of orders (getMany) and the decider's stages.
   */
  async function warmAt(block: bigint, loadOrders = (slug: string, previous?: readonly LoadedOrder[]) => f.ctx.orders.load(slug, previous)) {
    const warm = createWarmBooks({
      store: f.store,
      slugsOf: async () => [SLUG],
      loadOrders,
      readBalances: (chain, wallets) => f.chain.balances(chain, wallets),
    })
    f.ctx.warm = warm
    warm.refresh('base', block)
    expect((await warm.snapshot('base', block))?.orders.get(SLUG)).toHaveLength(1)
    const stages: string[] = []
    f.ctx.stage = (name) => stages.push(name)
    const orders = f.store.sub.orders
    const getMany = orders.getMany.bind(orders)
    const reads = { count: 0 }
    orders.getMany = ((keys: string[]) => {
      reads.count++
      return getMany(keys)
    }) as typeof orders.getMany
    const restore = () => {
      orders.getMany = getMany
    }
    return { warm, stages, reads, restore }
  }

  it('skips the re-read under the locks when no order of the project was written since the warm snapshot it planned on', async () => {
    const planned = await f.addOrder(1, 100, null)
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    const { warm, stages, reads, restore } = await warmAt(11n)
    try {
      // An order write to another project does not count.
      const other = { ...planned, keyId: keyIdOf(2), slug: 'another' }
      await f.store.batch(orderWriteOps(f.store, undefined, other, { writer: 'api', followers: 0 }))
      const { submit } = recorder()
      const submitted = await createTickDecider(f.ctx).decide(tickAt(11, 1_000), launch, submit)
      expect(submitted.map((s) => s.entry.keyId)).toEqual([keyIdOf(1)])
      expect(stages).toContain('executor.rereadSkipped')
      expect(stages).not.toContain('executor.reread')
      expect(reads.count).toBe(0)
      expect((await f.order(1))?.status).toBe('executing')
    } finally {
      restore()
      warm.stop()
    }
  })

  it('an order written between the warm snapshot and the locks is re-read: planned on the old record, it is not bought', async () => {
    const planned = await f.addOrder(1, 100, null)
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    const { warm, stages, reads, restore } = await warmAt(11n)
    const { store } = f
    const withOrderLocks = f.ctx.withOrderLocks
    // A PATCH lands after the tick took the snapshot's orders, right before the decider takes the orders' locks.
    f.ctx.withOrderLocks = async (keyIds, fn) => {
      const edited = { ...planned, maxSpendUsdc: '60', updatedAt: planned.updatedAt + 1 }
      await store.batch(orderWriteOps(store, planned, edited, { writer: 'api', followers: 0 }))
      return withOrderLocks(keyIds, fn)
    }
    try {
      const { handed, submit } = recorder()
      expect(await createTickDecider(f.ctx).decide(tickAt(11, 1_000), launch, submit)).toEqual([])
      expect(handed).toEqual([])
      expect(stages).toContain('executor.reread')
      expect(stages).toContain('executor.ordersUsersWallets')
      expect(reads.count).toBeGreaterThan(0)
      expect(await f.order(1)).toMatchObject({ status: 'active', maxSpendUsdc: '60' })
      expect((await f.journal.decisionsOf(SLUG))[0]?.orders[0]?.verdict).toBe('in_flight')
    } finally {
      restore()
      warm.stop()
    }
  })

  it('a follower count changed between the warm snapshot and the locks: the move keys the buyer index with the stored count (one entry, no ghost)', async () => {
    await f.addOrder(1, 100, null)
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    const { warm, stages, restore } = await warmAt(11n)
    const withOrderLocks = f.ctx.withOrderLocks
    // The operator links the buyer's social profile after the tick planned on the snapshot (follower count 0), right
    // before the decider takes the orders' locks: the profile's index move takes the same order lock.
    f.ctx.withOrderLocks = async (keyIds, fn) => {
      await createBuyerService({ store: f.store }).setSocialProfile(keyIdOf(1), {
        socialId: 7,
        socialUsername: 'b',
        socialUrl: 'https://x.test/b',
        followerCount: 500,
      })
      return withOrderLocks(keyIds, fn)
    }
    try {
      const { submit } = recorder()
      const submitted = await createTickDecider(f.ctx).decide(tickAt(11, 1_000), launch, submit)
      expect(submitted.map((s) => s.entry.keyId)).toEqual([keyIdOf(1)])
      // No order was written: the orders' re-read is still skipped; only the follower counts are read again.
      expect(stages).toContain('executor.rereadSkipped')
      const entries = await readAll(f.store.sub.buyersByProject, buyersPrefix(SLUG))
      expect(entries.map((e) => e.key)).toEqual([buyerIndexKey(SLUG, 500, keyIdOf(1))])
    } finally {
      restore()
      warm.stop()
    }
  })

  it('a tick whose snapshot is not exact takes the warm books’ current load of the orders, not a load of its own', async () => {
    // The held-ticks bench at 17,000 orders (docs/execution.md §3, "The silent book: cause and fix"): after a PATCH the
    // tick loaded the whole book itself (0.6-2.6 s) beside the reload the PATCH had started.
    await f.addOrder(1, 100, null)
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    const load = f.ctx.orders.load
    let ownLoads = 0
    const { warm, restore } = await warmAt(11n, load)
    f.ctx.orders = {
      ...f.ctx.orders,
      load: (slug, previous) => {
        ownLoads++
        return load(slug, previous)
      },
    }
    try {
      // An order placed after the snapshot was read: the snapshot is not exact for the project.
      await f.addOrder(2, 50, null)
      f.chain.balanceOf.set(walletOf(2), 1_000n * USDC)
      const { submit } = recorder()
      const submitted = await createTickDecider(f.ctx).decide(tickAt(11, 1_000), launch, submit)
      // Both orders planned (the new one too), from the warm books' load; before, one load of the tick's own.
      expect(submitted.map((s) => s.entry.keyId).sort()).toEqual([keyIdOf(1), keyIdOf(2)].sort())
      expect(ownLoads).toBe(0)
    } finally {
      restore()
      warm.stop()
    }
  })

  it('a failed executing batch rejects the decision and the gate it handed on; nothing is recorded', async () => {
    await f.addOrder(1, 100, null)
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    const handed: Promise<void>[] = []
    f.ctx.store = {
      ...f.store,
      batch: async () => {
        throw new Error('disk full')
      },
    }
    await expect(createTickDecider(f.ctx).decide(tickAt(11, 1_000), launch, (_buys, written) => handed.push(written))).rejects.toThrow('disk full')
    expect(handed).toHaveLength(1)
    await expect(handed[0]).rejects.toThrow('disk full')
    expect((await f.order(1))?.status).toBe('active')
    expect(await f.journal.inFlight()).toEqual([])
  })

  it('moves orders past their validity to expired, in chain time counted from the launch', async () => {
    // Launched at 1,000 s; the tick's next block is at 1,004 s: valid for 3 s means expired.
    await f.addOrder(1, 100, null, { expiresInMs: 3_000 })
    await f.addOrder(2, 100, null, { expiresInMs: 10_000 })
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    f.chain.balanceOf.set(walletOf(2), 1_000n * USDC)
    const submitted = await createTickDecider(f.ctx).decide(tickAt(11, 1_000), launch, () => undefined)
    expect(submitted.map((s) => s.entry.keyId)).toEqual([keyIdOf(2)])
    expect((await f.order(1))?.status).toBe('expired')
    expect((await f.journal.orderEventsOf(keyIdOf(1), SLUG)).map((e) => [e.from, e.to, e.reason])).toEqual([['active', 'expired', 'expired after launch']])
  })

  it('sizes a buy with what other in-flight buys of the wallet have not reserved', async () => {
    await f.addOrder(1, 100, null)
    f.chain.balanceOf.set(walletOf(1), 100n * USDC)
    // An earlier buy of the same wallet (another launch on the chain) still in flight for 80 USDC.
    await f.store.batch([f.journal.putInFlight(otherLaunchInFlight(1, 80n * USDC))])
    const [buy] = await createTickDecider(f.ctx).decide(tickAt(11, 1_000), launch, () => undefined)
    expect(buy?.entry.spendAtoms).toBe((20n * USDC).toString())
  })

  it('holds the reservations between ticks and sees one written since: a later tick sizes its buy with it', async () => {
    await f.addOrder(1, 100, 500)
    f.chain.balanceOf.set(walletOf(1), 100n * USDC)
    const decider = createTickDecider(f.ctx)
    // Held by its limit: the tick reads the reservations (none) and buys nothing.
    expect(await decider.decide(tickAt(11, 1_000), launch, () => undefined)).toEqual([])
    // An earlier buy of the same wallet (another launch on the chain) put in flight since, for 80 USDC.
    await f.store.batch([f.journal.putInFlight(otherLaunchInFlight(1, 80n * USDC))])
    const [buy] = await decider.decide(tickAt(12, 400), launch, () => undefined)
    expect(buy?.entry.spendAtoms).toBe((20n * USDC).toString())
  })

  it('asks the chain’s in-flight reservations before it takes its candidates, so the store read overlaps them', async () => {
    // docs/execution.md §8, "The launch tick's split on the readied walk": asked after the candidates, the read's
    // answer came 2-6 ms after them at a 5,000-order launch (now held between writes: in-flight-reservations.ts, but
    // read from the store after any). The warm snapshot's answer is held here.
    await f.addOrder(1, 100, null)
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    const events: string[] = []
    const { inFlight, warm } = f.ctx
    f.ctx.inFlight = {
      ...inFlight,
      of: (chain) => {
        events.push('reservations')
        return inFlight.of(chain)
      },
    }
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    f.ctx.warm = {
      ...warm,
      take: async (...args: Parameters<typeof warm.take>) => {
        events.push('take')
        await held
        return warm.take(...args)
      },
    }
    const decided = createTickDecider(f.ctx).decide(tickAt(11, 1_000), launch, () => undefined)
    await new Promise((resolve) => setImmediate(resolve))
    expect(events).toEqual(['reservations', 'take'])
    release()
    const [buy] = await decided
    expect(buy?.entry.keyId).toBe(keyIdOf(1))
    // Asked once per tick, as before.
    expect(events).toEqual(['reservations', 'take'])
  })

  it('a project without active orders leaves the ticking set and forgets its book', async () => {
    await f.addOrder(1, 100, null)
    f.chain.balanceOf.set(walletOf(1), 1_000n * USDC)
    const decider = createTickDecider(f.ctx)
    await decider.decide(tickAt(11, 1_000), launch, () => undefined)
    expect(f.ctx.books.lastUse(SLUG)).toBeDefined()
    // The order is executing now: nothing active is left.
    expect(await decider.decide(tickAt(12, 1_000), launch, () => undefined)).toEqual([])
    expect(f.ctx.ticking.has(SLUG)).toBe(false)
    expect(f.ctx.books.lastUse(SLUG)).toBeUndefined()
  })
})
