import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { pastLastBlock } from '../../src/domain/batch/batch-deadline.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n
/** The executor's deadline figures here: a batch may land 12 blocks after its tick, final 3 blocks after that. */
const DEADLINE = { landingBlocks: 12, finalityBlocks: 3 }

/**
 * docs/execution.md §8, "A reorg that undoes a batch", and §6, "Re-evaluated on the next block": the undone batch's
 * transaction is NOT re-included (anvil drops the transactions of the blocks anvil_reorg replaces): its orders stay
 * executing under it until its last block is final (its signed transaction could still come back until then), then
 * the batch is released and its orders buy again once, on the block after the release, not at the heartbeat.
 */
describe('a reorg that undoes a batch on a quiet pool: its orders are held until its last block is final, then buy again within a few blocks (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true, approvalsAhead: false, batchDeadline: DEADLINE })
  }, 120_000)
  afterAll(async () => {
    await h?.stop()
  })

  const mineUntil = (what: string, done: () => Promise<boolean>, most: number) => h.mineUntil(what, done, most, 'any')

  it('the undone batch holds its orders executing until its last block is final, is released, and its orders buy again in a new batch, far before the heartbeat (30 blocks here)', async () => {
    const { slug, creator } = await h.newProject('quiet-batch-reorg', 'doppler')
    const buyers: Buyer[] = []
    for (let i = 0; i < 2; i++) {
      const buyer = await h.newBuyer(`quiet-batch-reorg-${i}`, '100')
      await h.order(buyer, slug, String(30 + i), null)
      buyers.push(buyer)
    }
    await h.approveBatchBuyer(buyers, '100')
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    await h.executor.idle()
    const statuses = async () => (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).map((o) => o?.status)
    const allFilled = async () => (await statuses()).every((s) => s === 'filled')

    // The fee starts at its floor: no block ticks while it decays; only a swap or the heartbeat would tick this pool.
    const launched = await h.launch(slug, 'doppler', creator, { startFee: 10_000, endFee: 10_000, decaySeconds: 1 })
    await h.indexer.caughtUp('base', launched.blockNumber)
    await mineUntil('filled', allFilled, 10)
    const first = (await h.getOrder(buyers[0]!, slug))!.execution!.txHash as `0x${string}`
    const fillBlock = (await h.client.getTransactionReceipt({ hash: first })).blockNumber
    // The batch settled (swept) before the reorg: the undo must also take its record back from swept.
    const launch = (await h.journal.getLaunchBySlug(slug))!
    const batches = createBatchJournal(h.store)
    await mineUntil('swept', async () => (await batches.get('base', slug, launch.blockNumber, 0))?.state === 'swept', 10)
    await h.executor.idle()
    const lastBlock = BigInt((await batches.get('base', slug, launch.blockNumber, 0))!.validUntilBlock!)

    // Every block from the batch's on is replaced by an empty one: the batch never happened on the new chain, and its
    // transaction is in no pool (anvil drops them).
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    expect(pastLastBlock(head, lastBlock, DEADLINE)).toBe(false) // the hold is not vacuous
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [Number(head - fillBlock + 1n), []])
    for (const buyer of buyers) expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)

    // Until the last block is final: executing under the batch (no new batch, nothing pulled), the record sent again.
    let held = 0
    while (!pastLastBlock((await h.client.getBlockNumber({ cacheTime: 0 })) + 1n, lastBlock, DEADLINE)) {
      await mineUntil('the block processed', async () => true, 1)
      await h.waitFor('the undo written', async () => (await statuses()).every((s) => s !== 'filled'))
      expect(await statuses()).toEqual(['executing', 'executing'])
      expect(await batches.get('base', slug, launch.blockNumber, 1)).toBeUndefined()
      for (const buyer of buyers) expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)
      held++
    }
    expect(held).toBeGreaterThan(0)
    const undone = await batches.get('base', slug, launch.blockNumber, 0)
    expect(undone).toMatchObject({ state: 'sent', undone: { txHash: first, blockNumber: fillBlock.toString() } })
    const inFlight = await h.journal.inFlight('base')
    for (const buyer of buyers) expect(inFlight.find((e) => e.keyId === buyer.keyId && e.slug === slug)?.batchId).toBe(undone!.batchId)

    // The last block is final at the next block: released there, and its orders bought again within a few blocks of it.
    const blocks = await mineUntil(
      'filled again',
      async () => {
        const orders = await Promise.all(buyers.map((b) => h.getOrder(b, slug)))
        return orders.every((o) => o?.status === 'filled' && o.execution?.txHash !== first)
      },
      8,
    )
    expect(blocks).toBeLessThanOrEqual(8)
    expect(await batches.get('base', slug, launch.blockNumber, 0)).toMatchObject({ state: 'released', undone: { txHash: first } })
    expect((await batches.get('base', slug, launch.blockNumber, 0))?.releaseReason).toMatch(/never landed, and its last block/)
    for (const [i, buyer] of buyers.entries()) {
      const moves = (await h.journal.orderEventsOf(buyer.keyId, slug)).map((e) => `${e.from}->${e.to}`)
      // Bought, undone and held, released, bought again: once each.
      expect(moves.slice(moves.indexOf('active->executing'))).toEqual([
        'active->executing',
        'executing->filled',
        'filled->executing',
        'executing->active',
        'active->executing',
        'executing->filled',
      ])
      expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(30 + i) * USDC)
    }
    // One batch of this launch on the chain: the re-buy's.
    const executed = await h.client.getContractEvents({
      address: h.batchBuyer!,
      abi: batchBuyerAbi,
      eventName: 'BatchExecuted',
      fromBlock: launched.blockNumber,
    })
    expect(executed).toHaveLength(1)
  }, 300_000)
})
