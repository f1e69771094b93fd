import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExecutorWallets } from '../../daemon/executor/executor-context.ts'
import { lazyLookupsBuilt } from '../../daemon/executor/lazy-lookup.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { Store, StoreOperation } from '../../src/store/open-store.ts'
import type { SentCall } from '../../src/wallets/bundler/bundler.ts'
import { type FlowHarness, startFlowHarness } from './flow-harness.ts'
import { PER_TX, preparedLaunchChecks } from './prepared-launch-checks.ts'

/**
 * The launch tick's batch in two writes (docs/execution.md §8, "The commit record"): the batch record alone before the
 * sends, the orders' moves after them; and the crash windows between (real devnet, wallets, LevelDB; the process "dies"
 * where the test holds a send back or fails a write, and a new executor starts on the same store).
 */
describe('the commit record: one small write before the sends, the orders moved after them, rolled forward across a crash', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true, approvalsAhead: false, senderAccounts: 2, maxBuyersPerTransaction: PER_TX })
    h.startMining()
    await h.waitFor('every sender an operator', async () => h.executor.batchOperatorsReady('base'), 60_000)
    await h.stopMining()
  }, 180_000)
  afterAll(async () => {
    await h?.stop()
  })

  const { batchOf, ordersOf, buyersWithOrders, withSends, expectFilledOnce } = preparedLaunchChecks(() => h)

  /** The real store, every batch first shown to `seen` (which may refuse it: a failed write). */
  function watchedStore(seen: (ops: readonly StoreOperation[]) => void): Store {
    return new Proxy(h.store, {
      get(target, prop) {
        if (prop === 'batch')
          return async (ops: readonly StoreOperation[]) => {
            seen(ops)
            return target.batch(ops)
          }
        const value = Reflect.get(target, prop, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  }

  /** What a write touches of the batch path: `batch`, `inFlight`, `order` (sorted, with its op count); `other` else. */
  function describeWrite(ops: readonly StoreOperation[]): string {
    const kinds = new Set<string>()
    for (const op of ops) {
      // The record, or its compact commit (its entries written ahead: batch-compact-commit.test.ts).
      if (op.sublevel === createBatchJournal(h.store).sub || op.sublevel === createBatchJournal(h.store).commitsSub) kinds.add('batch')
      else if (op.sublevel === h.journal.sub.inFlight) kinds.add('inFlight')
      else if (op.sublevel === h.store.sub.orders) kinds.add('order')
    }
    return kinds.size === 0 ? 'other' : `${[...kinds].sort().join('+')}:${ops.length}`
  }

  /** The harness's wallets, a collect's send first shown to `collect` (which may hold it back for ever). */
  const withCollects = (collect: (real: () => Promise<SentCall>) => Promise<SentCall>, onSettle: () => void = () => undefined): ExecutorWallets =>
    withSends(collect, (real) => {
      onSettle()
      return real()
    })

  it("the launch tick writes the batch record alone (one store operation) before its first collect is sent, the orders' moves after", async () => {
    const { slug, creator } = await h.newProject('commit-write', 'doppler')
    const buyers = await buyersWithOrders(slug)
    const events: string[] = []
    const lookupsAtCollect: number[] = []
    await h.crashExecutor(
      withCollects(
        (real) => {
          events.push('collect')
          lookupsAtCollect.push(lazyLookupsBuilt() - lookupsBefore)
          return real()
        },
        () => events.push('settle'),
      ),
      { store: watchedStore((ops) => events.push(describeWrite(ops))) },
    )
    const lookupsBefore = lazyLookupsBuilt()
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    await expectFilledOnce(slug, buyers)
    await h.stopMining()
    // The tick's maps by key id (followers, decisions) are built after the sends, never before the first collect
    // (docs/execution.md §8, "The launch tick's CPU from its start to the first collect, profiled"); the moves then need the followers.
    expect(lookupsAtCollect[0]).toBe(0)
    expect(lazyLookupsBuilt() - lookupsBefore).toBeGreaterThan(0)
    const first = events.indexOf('collect')
    expect(first).toBeGreaterThan(0)
    // Before the first send: nothing of the batch path but the commit, and that one write is a single operation.
    expect(events.slice(0, first).filter((e) => e !== 'other')).toEqual(['batch:1'])
    // After every send (the settle too: building the moves never delays it), the orders' moves with their in-flight
    // entries in one write (the decision with them).
    const moves = events.findIndex((e) => e.startsWith('inFlight+order:'))
    expect(events.filter((e) => e === 'collect')).toHaveLength(3)
    expect(moves).toBeGreaterThan(events.lastIndexOf('collect'))
    expect(moves).toBeGreaterThan(events.indexOf('settle'))
    expect(events.indexOf('settle')).toBeGreaterThan(first)
  }, 300_000)

  it('a crash after the commit, before any collect was sent: the orders are still active with no entry; the restart rolls them forward, cancels the batch and they buy once in a new one', async () => {
    const { slug, creator } = await h.newProject('commit-unsent', 'doppler')
    const buyers = await buyersWithOrders(slug)
    let asked = false
    await h.crashExecutor(
      withCollects(() => {
        asked = true
        return new Promise(() => undefined)
      }),
    )
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    await h.waitFor('a collect about to be sent', async () => asked, 120_000)
    await h.stopMining()
    const committed = (await batchOf(slug, 0))!
    expect(committed.state).toBe('journaled')
    expect((await ordersOf(buyers, slug)).map((o) => o?.status)).toEqual(buyers.map(() => 'active'))
    expect(await h.journal.inFlight('base')).toEqual([])

    h.startMining()
    await h.crashExecutor() // the restart, with the real wallets: rolled forward, then reconciled from the chain
    await h.waitFor('the committed batch released', async () => (await batchOf(slug, 0))?.state === 'released', 120_000)
    const orders = await expectFilledOnce(slug, buyers)
    expect(orders.every((o) => o?.execution?.batch?.batchId !== committed.batchId)).toBe(true)
    const events = await h.journal.orderEventsOf(buyers[0]!.keyId, slug)
    expect(events.some((e) => e.to === 'executing' && e.reason?.includes('rolled forward'))).toBe(true)
    await h.stopMining()
  }, 300_000)

  it("the orders' moves fail to write after the sends: the executor fail-stops (ticks no more with their money collected); the restart rolls them forward and fills them from the chain, one pull each", async () => {
    const { slug, creator } = await h.newProject('commit-moves-failed', 'doppler')
    const buyers = await buyersWithOrders(slug)
    let refused = 0
    const failing = watchedStore((ops) => {
      if (ops.some((op) => op.type === 'put' && op.sublevel === h.journal.sub.inFlight && (op.value as { batchId?: string }).batchId !== undefined)) {
        refused++
        throw new Error('disk refused the write (test)')
      }
    })
    await h.crashExecutor(undefined, { store: failing })
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    const failure = await h.waitFor('the executor fail-stopped', async () => h.executor.failure(), 120_000)
    const record = (await batchOf(slug, 0))!
    expect(failure).toMatchObject({ kind: 'batch_moves_not_written', batchId: record.batchId, slug })
    expect(refused).toBe(1)
    // The sends went out regardless: the settle lands; the stopped executor settles nothing and starts no new batch.
    await h.waitFor('the settle recorded as sent', async () => (await batchOf(slug, 0))?.txHash, 120_000)
    const settleHash = (await batchOf(slug, 0))!.txHash!
    await h.waitFor('the settle mined', async () => (await h.client.getTransactionReceipt({ hash: settleHash }).catch(() => undefined)) !== undefined, 120_000)
    await h.mine(5)
    await h.stopMining()
    expect((await ordersOf(buyers, slug)).map((o) => o?.status)).toEqual(buyers.map(() => 'active'))
    expect(await h.journal.inFlight('base')).toEqual([])
    expect(await batchOf(slug, 1)).toBeUndefined()

    h.startMining()
    await h.crashExecutor() // the restart on the real store
    const orders = await expectFilledOnce(slug, buyers)
    expect(new Set(orders.map((o) => o?.execution?.batch?.batchId))).toEqual(new Set([record.batchId]))
    expect(new Set(orders.map((o) => o?.execution?.txHash))).toEqual(new Set([settleHash]))
    await h.stopMining()
  }, 300_000)
})
