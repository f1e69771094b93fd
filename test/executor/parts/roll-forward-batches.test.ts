import type { Address } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { executionOrderId } from '../../../daemon/executor/build-buy-calls.ts'
import { rollForwardCommittedBatches } from '../../../daemon/executor/roll-forward-batches.ts'
import { settleExecutedBatch } from '../../../daemon/executor/settle-batch.ts'
import { allocateBatch } from '../../../src/domain/batch/batch-allocation.ts'
import { batchIdOf } from '../../../src/domain/batch/batch-id.ts'
import type { OrderRecord } from '../../../src/domain/records.ts'
import type { BatchRecord } from '../../../src/journal/batch-records.ts'
import { orderWriteOps } from '../../../src/store/order-writes.ts'
import { type ExecutorFixture, keyIdOf, SLUG, startExecutorFixture, TOKEN, txHash, walletOf } from './executor-fixture.ts'

const USDC = 1_000_000n
const BATCH_BUYER = '0x00000000000000000000000000000000000000bb' as Address

/** A batch record as the launch tick commits it: written alone, before its sends, its orders still active. */
function committed(orders: readonly OrderRecord[], sequence: number): BatchRecord {
  return {
    batchId: batchIdOf(SLUG, '10', sequence),
    chain: 'base',
    slug: SLUG,
    launchBlock: '10',
    sequence,
    tickBlock: '11',
    batchBuyer: BATCH_BUYER,
    token: TOKEN,
    lowestLimitFdv: null,
    predictedTokensOut: '0',
    included: orders.map((o, rank) => ({
      keyId: o.keyId,
      slug: o.slug,
      userIndex: rank,
      wallet: walletOf(rank),
      orderId: executionOrderId(o),
      spendAtoms: (BigInt(o.maxSpendUsdc) * USDC).toString(),
      rank,
      predicted: { gross: '0', fee: '0', net: '0' },
    })),
    excluded: [],
    state: 'sent',
    at: 4_000_000,
    swept: 0,
  }
}

describe('roll forward of a committed batch at start (the orders moves were never written: killed between the commit and them)', () => {
  let f: ExecutorFixture
  beforeEach(async () => {
    f = await startExecutorFixture({ batchBuyers: { base: BATCH_BUYER } })
  })
  afterEach(async () => {
    await f.close()
  })

  it('moves every included order still as committed to executing with its in-flight entry, once; an order deleted since keeps its record and gets its entry', async () => {
    const orders = [await f.addOrder(0, 10, null), await f.addOrder(1, 20, null), await f.addOrder(2, 30, null)]
    const record = committed(orders, 0)
    await f.store.batch([f.ctx.batchJournal.put(record)])
    // Deleted after the commit (only possible once the locks were gone, i.e. across a crash): still accounted below.
    await f.store.batch(orderWriteOps(f.store, orders[2], { ...orders[2]!, status: 'deleted', updatedAt: 9 }, { writer: 'api', followers: 0 }))

    const outcome = await rollForwardCommittedBatches({ store: f.store, journal: f.journal, log: f.ctx.log, now: f.ctx.now })
    expect(outcome).toEqual({ batches: 1, moved: 2, unheld: 1 })
    expect((await f.order(0))?.status).toBe('executing')
    expect((await f.order(1))?.status).toBe('executing')
    expect((await f.order(2))?.status).toBe('deleted')
    const entries = await f.journal.inFlight('base')
    expect(entries.map((e) => [e.keyId, e.batchId, e.spendAtoms, e.fromBlock]).sort()).toEqual(
      record.included.map((e) => [e.keyId, record.batchId, e.spendAtoms, '11']).sort(),
    )
    const events = await f.journal.orderEventsOf(keyIdOf(0), SLUG)
    expect(events.at(-1)).toMatchObject({ from: 'active', to: 'executing', reason: expect.stringContaining('rolled forward') })

    // Idempotent: the daemon runs it before the API, the executor again before its reconcile.
    expect(await rollForwardCommittedBatches({ store: f.store, journal: f.journal, log: f.ctx.log, now: f.ctx.now })).toEqual({
      batches: 0,
      moved: 0,
      unheld: 0,
    })
  })

  it("then settles from the chain: the held orders filled, the deleted order's share recorded as its fill (never an unaccounted contribution)", async () => {
    const orders = [await f.addOrder(0, 10, null), await f.addOrder(1, 20, null), await f.addOrder(2, 30, null)]
    const record = committed(orders, 1)
    await f.store.batch([f.ctx.batchJournal.put(record)])
    await f.store.batch(orderWriteOps(f.store, orders[2], { ...orders[2]!, status: 'deleted', updatedAt: 9 }, { writer: 'api', followers: 0 }))
    await rollForwardCommittedBatches({ store: f.store, journal: f.journal, log: f.ctx.log, now: f.ctx.now })

    const tokensOut = 6_000_000n * 10n ** 18n
    const execution = {
      txHash: txHash(77),
      blockNumber: '12',
      totalIn: (60n * USDC).toString(),
      tokensOut: tokensOut.toString(),
      skipped: [],
      allocationHash: txHash(78),
    }
    const settled = await settleExecutedBatch(f.ctx, record, execution)
    expect(settled.state).toBe('executed')
    const shares = allocateBatch(tokensOut, [10n * USDC, 20n * USDC, 30n * USDC]).shares
    expect((await f.order(0))?.execution?.tokensReceived).toBe(shares[0]!.net.toString())
    expect((await f.order(1))?.status).toBe('filled')
    expect((await f.order(2))?.status).toBe('deleted')
    const fills = await f.journal.fillsAbove('base', 0n)
    expect(fills.map((fill) => fill.keyId).sort()).toEqual([keyIdOf(0), keyIdOf(1), keyIdOf(2)])
    expect(fills.find((fill) => fill.keyId === keyIdOf(2))).toMatchObject({ batchId: record.batchId, spendAtoms: (30n * USDC).toString() })
    const deletedEvents = await f.journal.orderEventsOf(keyIdOf(2), SLUG)
    expect(deletedEvents.find((e) => e.tokensReceived !== undefined)).toMatchObject({
      from: 'deleted',
      to: 'deleted',
      tokensReceived: shares[2]!.net.toString(),
    })
    expect(await f.journal.inFlight('base')).toEqual([])
  })

  it('leaves alone a batch whose moves were written (its entries exist) and one already settled', async () => {
    const orders = [await f.addOrder(0, 10, null)]
    const moved = committed(orders, 2)
    const entry = moved.included[0]!
    await f.store.batch([
      f.ctx.batchJournal.put(moved),
      ...orderWriteOps(f.store, orders[0], { ...orders[0]!, status: 'executing', updatedAt: 7 }, { writer: 'executor', followers: 0 }),
      f.journal.putInFlight({
        keyId: entry.keyId,
        slug: SLUG,
        chain: 'base',
        userIndex: 0,
        wallet: entry.wallet,
        spendAtoms: entry.spendAtoms,
        minTokensOut: '0',
        token: TOKEN,
        orderId: entry.orderId,
        submittedAt: 1,
        fromBlock: '11',
        batchId: moved.batchId,
      }),
    ])
    const other = await f.addOrder(1, 20, null)
    await f.store.batch([f.ctx.batchJournal.put({ ...committed([other], 3), state: 'released', releaseReason: 'test' })])
    expect(await rollForwardCommittedBatches({ store: f.store, journal: f.journal, log: f.ctx.log, now: f.ctx.now })).toEqual({
      batches: 0,
      moved: 0,
      unheld: 0,
    })
    expect((await f.order(1))?.status).toBe('active')
  })

  it('leaves alone a batch a reorg undid (sent again, `undone`): an entry without an in-flight entry is one it skipped, not a move never written', async () => {
    const skipped = await f.addOrder(4, 10, null)
    const held = { ...committed([skipped], 4), undone: { txHash: txHash(4), blockNumber: '12', at: 3 } }
    await f.store.batch([f.ctx.batchJournal.put(held)])
    expect(await rollForwardCommittedBatches({ store: f.store, journal: f.journal, log: f.ctx.log, now: f.ctx.now })).toEqual({
      batches: 0,
      moved: 0,
      unheld: 0,
    })
    expect((await f.order(4))?.status).toBe('active')
    expect(await f.journal.inFlight()).toEqual([])
  })
})
