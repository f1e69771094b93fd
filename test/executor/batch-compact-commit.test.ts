import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COLLECTION_CANCELLED, COLLECTION_COLLECTING } from '../../daemon/executor/split-chain-reads.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { type CompactBatchCommit, expandBatchCommit, type PreparedBatchEntries } from '../../src/journal/compact-batch-commit.ts'
import type { Store, StoreOperation } from '../../src/store/open-store.ts'
import { type FlowHarness, startFlowHarness } from './flow-harness.ts'
import { BUYERS, PER_TX, preparedLaunchChecks, spendOf, USDC } from './prepared-launch-checks.ts'

/**
 * The compact commit (docs/execution.md §8, "The compact commit"): a launch whose entries the readying pass wrote ahead
 * commits a record naming them before its first send; the full record follows the sends. Real devnet, wallets and
 * LevelDB; the process "dies" where the test holds a send back, and a new executor starts on the same store.
 */
describe('the compact commit: the launch record named by its entries written ahead, written out after the sends or at the restart', () => {
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

  const { journal, batchOf, fullOf, commitsOf, ordersOf, events, statusOf, buyersWithOrders, launchPrepared, withSends, expectFilledOnce, expectWrittenOut } =
    preparedLaunchChecks(() => h)

  /** The real store, every batch first shown to `seen`. */
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

  it('writes one small operation before the first collect, naming the entries written ahead; the full record, equal to it expanded, with the sends', async () => {
    const { slug, creator } = await h.newProject('compact-write', 'doppler')
    const buyers = await buyersWithOrders(slug)
    const j = journal()
    const writes: Array<{ at: number; ops: readonly StoreOperation[] }> = []
    const sends: string[] = []
    await h.crashExecutor(
      withSends(
        (real) => {
          sends.push(`collect@${writes.length}`)
          return real()
        },
        (real) => {
          sends.push(`settle@${writes.length}`)
          return real()
        },
      ),
      { store: watchedStore((ops) => writes.push({ at: writes.length, ops })) },
    )
    await launchPrepared(slug, creator)
    await expectFilledOnce(slug, buyers)
    await h.stopMining()
    const touches = (ops: readonly StoreOperation[]) => ops.some((op) => op.sublevel === j.sub || op.sublevel === j.commitsSub)
    const firstCollect = Number(sends[0]!.split('@')[1])
    // Before the first collect: of the batch path, the one compact commit (one operation), no full record.
    const before = writes.slice(0, firstCollect).filter((w) => touches(w.ops))
    expect(before).toHaveLength(1)
    const [commitOp] = before[0]!.ops
    expect(before[0]!.ops).toHaveLength(1)
    expect(commitOp!.sublevel).toBe(j.commitsSub)
    const commit = commitOp!.type === 'put' ? (commitOp!.value as CompactBatchCommit) : undefined
    expect(commit?.included.every((k) => k >= 0)).toBe(true)
    expect(commit?.writtenOut).toEqual([])
    // The prepared entries it names were written before the launch, by the readying pass.
    const preparedWrite = writes.find((w) => w.ops.some((op) => op.type === 'put' && op.sublevel === j.preparedSub && op.key === commit!.prepared))
    expect(preparedWrite!.at).toBeLessThan(before[0]!.at)
    const prepared = preparedWrite!.ops.find((op) => op.sublevel === j.preparedSub)! as { value: PreparedBatchEntries }
    // After every send: the full record, with the commit's and the prepared entries' deletions, in one write.
    const sentWrite = writes.find((w) => w.ops.some((op) => op.type === 'put' && op.sublevel === j.sub && (op.value as BatchRecord).state === 'sent'))!
    expect(sentWrite.at).toBeGreaterThanOrEqual(Number(sends.at(-1)!.split('@')[1]))
    expect(sentWrite.ops.filter((op) => op.type === 'del').map((op) => op.sublevel)).toEqual([j.commitsSub, j.preparedSub])
    const sent = (sentWrite.ops[0] as { value: BatchRecord }).value
    // The commit, expanded over what was stored ahead, is the record the tick sent (its sends' fields aside).
    const expanded = expandBatchCommit(JSON.parse(JSON.stringify(commit)), JSON.parse(JSON.stringify(prepared.value)))
    expect({ ...expanded, state: sent.state, split: sent.split, txHash: sent.txHash, from: sent.from }).toEqual(sent)
    // Its size, counted: a small part of the full record's JSON text (6 buyers: the head dominates both).
    expect(JSON.stringify(commit).length).toBeLessThan(JSON.stringify(expanded).length)
    await expectWrittenOut(slug)
  }, 300_000)

  it('a crash after the compact commit, before any collect was sent: read as the journaled record, written out at the restart, released, every order bought once', async () => {
    const { slug, creator } = await h.newProject('compact-unsent', 'doppler')
    const buyers = await buyersWithOrders(slug)
    let asked = false
    await h.crashExecutor(
      withSends(() => {
        asked = true
        return new Promise(() => undefined)
      }),
    )
    await launchPrepared(slug, creator)
    await h.waitFor('a collect about to be sent', async () => asked, 120_000)
    await h.stopMining()
    // Stored compact, no full record; every reader sees the journaled record, expanded.
    expect(await commitsOf(slug)).toHaveLength(1)
    expect(await fullOf(slug)).toEqual([])
    const committed = (await batchOf(slug, 0))!
    expect(committed.state).toBe('journaled')
    expect(committed.included).toHaveLength(BUYERS)
    expect((await journal().open('base')).some((b) => b.batchId === committed.batchId)).toBe(true)
    const launch = (await h.journal.getLaunchBySlug(slug))!
    expect(await journal().nextSequence('base', slug, launch.blockNumber)).toBe(1)
    expect((await ordersOf(buyers, slug)).map((o) => o?.status)).toEqual(buyers.map(() => 'active'))
    expect(await h.journal.inFlight('base')).toEqual([])

    h.startMining()
    await h.crashExecutor() // the restart: written out, rolled forward, reconciled from the chain
    await h.waitFor('the committed batch released', async () => (await batchOf(slug, 0))?.state === 'released', 120_000)
    await expectFilledOnce(slug, buyers, committed)
    const orderEvents = await h.journal.orderEventsOf(buyers[0]!.keyId, slug)
    expect(orderEvents.some((e) => e.to === 'executing' && e.reason?.includes('rolled forward'))).toBe(true)
    await h.stopMining()
    await expectWrittenOut(slug)
  }, 300_000)

  it('a crash after the collects landed, before the settle was sent and the full record written: written out at the restart, cancelled, refunded exactly, bought once', async () => {
    const { slug, creator } = await h.newProject('compact-collected', 'doppler')
    const buyers = await buyersWithOrders(slug)
    await h.crashExecutor(
      withSends(
        (real) => real(),
        () => new Promise(() => undefined),
      ),
    )
    await launchPrepared(slug, creator)
    const record = await h.waitFor('the split batch committed', async () => batchOf(slug, 0), 120_000)
    expect(record.split?.chunks).toHaveLength(3)
    await h.waitFor(
      'every collect mined',
      async () => (await events('ChunkCollected')).filter((l) => (l as unknown as { args: { batchId: string } }).args.batchId === record.batchId).length === 3,
      120_000,
    )
    await h.stopMining()
    expect(await statusOf(record.batchId)).toBe(COLLECTION_COLLECTING)
    // Still the compact commit alone: the full record follows every send, the settle's too.
    expect(await commitsOf(slug)).toHaveLength(1)
    expect(await fullOf(slug)).toEqual([])
    expect((await ordersOf(buyers, slug)).map((o) => o?.status)).toEqual(buyers.map(() => 'active'))
    for (const [i, buyer] of buyers.entries()) expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - spendOf(i))

    h.startMining()
    await h.crashExecutor()
    await h.waitFor('the first batch released', async () => (await batchOf(slug, 0))?.state === 'released', 120_000)
    expect(await statusOf(record.batchId)).toBe(COLLECTION_CANCELLED)
    const refunded = (await events('ChunkRefunded')).filter((l) => (l as unknown as { args: { batchId: string } }).args.batchId === record.batchId)
    const total = record.included.reduce((sum, e) => sum + BigInt(e.spendAtoms), 0n)
    expect(refunded.reduce((sum, l) => sum + (l as unknown as { args: { amount: bigint } }).args.amount, 0n)).toBe(total)
    await expectFilledOnce(slug, buyers, record)
    await h.stopMining()
    await expectWrittenOut(slug)
  }, 300_000)
})
