import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExecutorWallets } from '../../daemon/executor/executor-context.ts'
import { COLLECTION_CANCELLED, COLLECTION_COLLECTING, COLLECTION_SETTLED } from '../../daemon/executor/split-chain-reads.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import type { SentCall } from '../../src/wallets/bundler/bundler.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'
import { PER_TX, preparedLaunchChecks, USDC } from './prepared-launch-checks.ts'

describe('a split batch across a crash: reconciled from collections(batchId), never lost or pulled twice (real devnet, wallets, store)', () => {
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

  const { batchOf, ordersOf, statusOf, events, buyersWithOrders, withSends } = preparedLaunchChecks(() => h)

  /** The harness's wallets, but the settle of a split batch is `settle`d by the test (the process "dies" there). */
  const dyingAtSettle = (settle: (real: () => Promise<SentCall>) => Promise<SentCall>): ExecutorWallets => withSends((real) => real(), settle)

  /** Launches with the dying executor, waits for every collect to be mined (the batch still collecting), stops mining. */
  async function launchUntilCollected(slug: string, creator: Parameters<FlowHarness['launch']>[2], wallets: ExecutorWallets): Promise<BatchRecord> {
    await h.crashExecutor(wallets)
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    const record = await h.waitFor('the split batch journaled', async () => batchOf(slug, 0), 120_000)
    expect(record.split?.chunks).toHaveLength(3)
    await h.waitFor(
      'every collect mined',
      async () => (await events('ChunkCollected')).filter((l) => (l as unknown as { args: { batchId: string } }).args.batchId === record.batchId).length === 3,
      120_000,
    )
    await h.stopMining()
    return record
  }

  /**
   * Every order filled after the first batch was released, by later batches of the launch (usually the next one alone;
   * a collect of it landing after its settle leaves its buyers to the one after: the contract's rule), and every wallet
   * pulled exactly once in the end (the refund returned the first batch's pull).
   */
  async function expectBoughtOnceAfter(slug: string, buyers: readonly Buyer[], released: BatchRecord) {
    await h.waitFor('every order filled again', async () => (await ordersOf(buyers, slug)).every((o) => o?.status === 'filled'), 120_000)
    const orders = await ordersOf(buyers, slug)
    const batchIds = new Set(orders.map((o) => o?.execution?.batch?.batchId))
    expect(batchIds.has(released.batchId)).toBe(false)
    await h.waitFor(
      'their batches swept',
      async () => {
        for (const id of batchIds) {
          const all = await createBatchJournal(h.store).ofLaunch('base', slug, released.launchBlock)
          if (all.find((b) => b.batchId === id)?.state !== 'swept') return false
        }
        return true
      },
      120_000,
    )
    for (const [i, buyer] of buyers.entries()) expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(30 + i) * USDC)
    expect(await h.journal.inFlight('base')).toEqual([])
  }

  it('a crash after the collects landed but before the settle was sent: the restart cancels, refunds every collected buyer, and the orders buy once in a new batch', async () => {
    const { slug, creator } = await h.newProject('split-cancel', 'doppler')
    const buyers = await buyersWithOrders(slug)
    const record = await launchUntilCollected(
      slug,
      creator,
      dyingAtSettle(() => new Promise(() => undefined)),
    )
    expect(await statusOf(record.batchId)).toBe(COLLECTION_COLLECTING)
    // Committed and collected, its settle never sent: the orders' moves follow every send (commit-batch.ts), so they
    // are still active with no in-flight entry while their money sits in the contract; the restart rolls them forward.
    expect((await ordersOf(buyers, slug)).map((o) => o?.status)).toEqual(buyers.map(() => 'active'))
    expect(await h.journal.inFlight('base')).toEqual([])
    for (const [i, buyer] of buyers.entries()) expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(30 + i) * USDC)

    h.startMining()
    await h.crashExecutor() // the restart, with the real wallets
    const released = await h.waitFor(
      'the first batch released',
      async () => ((await batchOf(slug, 0))?.state === 'released' ? batchOf(slug, 0) : undefined),
      120_000,
    )
    expect(await statusOf(record.batchId)).toBe(COLLECTION_CANCELLED)
    const refunded = (await events('ChunkRefunded')).filter((l) => (l as unknown as { args: { batchId: string } }).args.batchId === record.batchId)
    const total = record.included.reduce((sum, e) => sum + BigInt(e.spendAtoms), 0n)
    expect(refunded.reduce((sum, l) => sum + (l as unknown as { args: { amount: bigint } }).args.amount, 0n)).toBe(total)
    await expectBoughtOnceAfter(slug, buyers, released!)
    await h.stopMining()
  }, 300_000)

  it('a crash after the settle was mined but before its orders were settled: the restart fills them from BatchSettled and sweeps, one settle, one pull each', async () => {
    const { slug, creator } = await h.newProject('split-settled', 'doppler')
    const buyers = await buyersWithOrders(slug)
    let settleHash: `0x${string}` | undefined
    await h.crashExecutor(
      dyingAtSettle(async (real) => {
        const sent = await real()
        settleHash = sent.hash
        return { ...sent, landed: new Promise(() => undefined) }
      }),
    )
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    const hash = await h.waitFor('the settle sent', async () => settleHash, 120_000)
    await h.waitFor('the settle mined', async () => (await h.client.getTransactionReceipt({ hash }).catch(() => undefined))?.status === 'success', 120_000)
    await h.stopMining()
    const before = (await batchOf(slug, 0))!
    expect(before.state).toBe('sent')
    expect(before.txHash).toBe(hash)
    expect(await statusOf(before.batchId)).toBe(COLLECTION_SETTLED)
    expect((await ordersOf(buyers, slug)).map((o) => o?.status)).toEqual(buyers.map(() => 'executing'))

    h.startMining()
    await h.crashExecutor()
    const swept = await h.waitFor('the batch swept', async () => ((await batchOf(slug, 0))?.state === 'swept' ? batchOf(slug, 0) : undefined), 120_000)
    await h.stopMining()
    const orders = await ordersOf(buyers, slug)
    expect(orders.map((o) => o?.status)).toEqual(buyers.map(() => 'filled'))
    expect(new Set(orders.map((o) => o?.execution?.txHash))).toEqual(new Set([hash]))
    expect((await events('BatchSettled')).filter((l) => (l as unknown as { args: { batchId: string } }).args.batchId === swept!.batchId)).toHaveLength(1)
    const token = (await h.journal.getLaunchBySlug(slug))!.token
    for (const [i, buyer] of buyers.entries()) {
      expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(30 + i) * USDC)
      expect(await h.tokenBalance(token, buyer.wallet)).toBe(BigInt(orders[i]!.execution!.tokensReceived))
    }
    expect(await h.tokenBalance(token, h.batchBuyer!)).toBe(0n)
  }, 300_000)

  it('a crash after the collects, restarted only after the settle window passed: the restart refunds without a cancel (anyone may), and the orders buy once in a new batch', async () => {
    const { slug, creator } = await h.newProject('split-expired', 'doppler')
    const buyers = await buyersWithOrders(slug)
    const record = await launchUntilCollected(
      slug,
      creator,
      dyingAtSettle(() => new Promise(() => undefined)),
    )
    // (The dying executor is not stopped: its run waits on the settle for ever, as a dead process's would.)
    await h.mine(305) // past SETTLE_WINDOW_BLOCKS (300) since the first collect
    const cancels = (await events('BatchCancelled')).length
    h.startMining()
    await h.crashExecutor()
    const released = await h.waitFor(
      'the first batch released',
      async () => ((await batchOf(slug, 0))?.state === 'released' ? batchOf(slug, 0) : undefined),
      120_000,
    )
    expect((await events('BatchCancelled')).length).toBe(cancels)
    expect(await statusOf(record.batchId)).toBe(COLLECTION_COLLECTING)
    await expectBoughtOnceAfter(slug, buyers, released!)
    await h.stopMining()
  }, 300_000)
})
