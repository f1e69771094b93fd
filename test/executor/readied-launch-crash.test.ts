import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COLLECTION_CANCELLED, COLLECTION_COLLECTING } from '../../daemon/executor/split-chain-reads.ts'
import { checkReplays, replayAll, replayBatches } from '../../src/console/replay/replay-check.ts'
import { type FlowHarness, startFlowHarness } from './flow-harness.ts'
import { BUYERS, PER_TX, preparedLaunchChecks, spendOf, USDC } from './prepared-launch-checks.ts'

/**
 * The launch committed on its readied walk (readied-launch.ts; docs/execution.md §8, "The launch committed on its
 * readied walk"): a readied launch's tick commits and sends before its plan, which runs after the sends. Its crash
 * windows, on the real devnet, wallets and LevelDB: the process "dies" where the test holds a send back (the plan
 * then never ran, nothing of the tick but the commit was written), and a new executor starts on the same store.
 */
describe('the launch committed on its readied walk: crashes before its plan ran', () => {
  let h: FlowHarness
  // The executor's stages, in order (reset per test): which path the launch tick took.
  const stages: string[] = []
  beforeAll(async () => {
    h = await startFlowHarness({
      batchBuyer: true,
      approvalsAhead: false,
      senderAccounts: 2,
      maxBuyersPerTransaction: PER_TX,
      onStage: (stage) => stages.push(stage),
    })
    h.startMining()
    await h.waitFor('every sender an operator', async () => h.executor.batchOperatorsReady('base'), 60_000)
    await h.stopMining()
  }, 180_000)
  afterAll(async () => {
    await h?.stop()
  })

  const { batchOf, fullOf, commitsOf, ordersOf, events, statusOf, buyersWithOrders, launchPrepared, withSends, expectFilledOnce, expectWrittenOut } =
    preparedLaunchChecks(() => h)

  /** The launch tick took the readied path: committed on the walk, its plan not run (yet) when the crash came. */
  function expectCommittedBeforeAnyPlan() {
    const cleared = stages.indexOf('executor.readiedLaunch.cleared')
    expect(cleared).toBeGreaterThanOrEqual(0)
    expect(stages.indexOf('executor.committed')).toBeGreaterThan(cleared)
    expect(stages).not.toContain('executor.planned')
    expect(stages).not.toContain('executor.executingWritten')
  }

  it('a crash after the readied commit, before its first collect was sent: nothing but the commit written; the restart releases it, every order bought once', async () => {
    const { slug, creator } = await h.newProject('readied-unsent', 'doppler')
    const buyers = await buyersWithOrders(slug)
    let asked = false
    await h.crashExecutor(
      withSends(() => {
        asked = true
        return new Promise(() => undefined)
      }),
    )
    stages.length = 0
    await launchPrepared(slug, creator)
    await h.waitFor('a collect about to be sent', async () => asked, 120_000)
    await h.stopMining()
    expectCommittedBeforeAnyPlan()
    expect(await commitsOf(slug)).toHaveLength(1)
    expect(await fullOf(slug)).toEqual([])
    const committed = (await batchOf(slug, 0))!
    expect(committed.state).toBe('journaled')
    expect(committed.included).toHaveLength(BUYERS)
    expect((await ordersOf(buyers, slug)).map((o) => o?.status)).toEqual(buyers.map(() => 'active'))
    expect(await h.journal.inFlight('base')).toEqual([])
    expect(await h.journal.decisionsOf(slug)).toEqual([])

    h.startMining()
    await h.crashExecutor()
    await h.waitFor('the committed batch released', async () => (await batchOf(slug, 0))?.state === 'released', 120_000)
    await expectFilledOnce(slug, buyers, committed)
    await h.stopMining()
    await expectWrittenOut(slug)
  }, 300_000)

  it("a crash after the first collect landed, before the plan's writes: the restart cancels it, refunds the collected exactly, every order bought once", async () => {
    const { slug, creator } = await h.newProject('readied-collected', 'doppler')
    const buyers = await buyersWithOrders(slug)
    let collects = 0
    await h.crashExecutor(
      withSends(
        (real) => (collects++ === 0 ? real() : new Promise(() => undefined)),
        () => new Promise(() => undefined),
      ),
    )
    stages.length = 0
    await launchPrepared(slug, creator)
    const record = await h.waitFor('the split batch committed', async () => batchOf(slug, 0), 120_000)
    expect(record.split?.chunks).toHaveLength(3)
    const collected = async () =>
      (await events('ChunkCollected')).filter((l) => (l as unknown as { args: { batchId: string } }).args.batchId === record.batchId)
    await h.waitFor('the first collect mined', async () => (await collected()).length === 1, 120_000)
    await h.stopMining()
    expectCommittedBeforeAnyPlan()
    expect(await statusOf(record.batchId)).toBe(COLLECTION_COLLECTING)
    expect((await ordersOf(buyers, slug)).map((o) => o?.status)).toEqual(buyers.map(() => 'active'))
    expect(await h.journal.inFlight('base')).toEqual([])
    // The first chunk's buyers paid into the contract; the others not.
    const first = record.split!.chunks[0]!
    const paid = new Set(record.included.slice(first.from, first.to).map((e) => e.wallet.toLowerCase()))
    expect(paid.size).toBe(first.to - first.from)
    for (const [i, buyer] of buyers.entries())
      expect(await h.usdcOf(buyer.wallet)).toBe(paid.has(buyer.wallet.toLowerCase()) ? 100n * USDC - spendOf(i) : 100n * USDC)

    h.startMining()
    await h.crashExecutor()
    await h.waitFor('the first batch released', async () => (await batchOf(slug, 0))?.state === 'released', 120_000)
    expect(await statusOf(record.batchId)).toBe(COLLECTION_CANCELLED)
    const refunded = (await events('ChunkRefunded')).filter((l) => (l as unknown as { args: { batchId: string } }).args.batchId === record.batchId)
    const total = record.included.slice(first.from, first.to).reduce((sum, e) => sum + BigInt(e.spendAtoms), 0n)
    expect(refunded.reduce((sum, l) => sum + (l as unknown as { args: { amount: bigint } }).args.amount, 0n)).toBe(total)
    await expectFilledOnce(slug, buyers, record)
    await h.stopMining()
    await expectWrittenOut(slug)
  }, 300_000)

  it('runs to the end without a crash: the plan after the sends builds the committed record, every order filled once, and executions replay --check reproduces the batch', async () => {
    const { slug, creator } = await h.newProject('readied-replayed', 'doppler')
    const buyers = await buyersWithOrders(slug)
    await h.crashExecutor()
    stages.length = 0
    await launchPrepared(slug, creator)
    await expectFilledOnce(slug, buyers)
    await h.stopMining()
    // Committed on the readied walk, the plan run after the commit, its record checked equal to the committed one.
    const committed = stages.indexOf('executor.committed')
    expect(stages.indexOf('executor.readiedLaunch.cleared')).toBeGreaterThanOrEqual(0)
    expect(stages.indexOf('executor.readiedLaunch.cleared')).toBeLessThan(committed)
    expect(stages.indexOf('executor.planned')).toBeGreaterThan(committed)
    expect(stages.indexOf('executor.readiedLaunch.checked')).toBeGreaterThan(committed)
    expect(h.executor.failure()).toBeUndefined()
    const journal = await h.services.executions.journalOf(slug)
    const check = checkReplays(slug, replayAll(journal), replayBatches(journal))
    expect(check.batches.differing).toEqual([])
    expect(check.batches.allocationsChecked).toBeGreaterThan(0)
    await expectWrittenOut(slug)
  }, 300_000)
})
