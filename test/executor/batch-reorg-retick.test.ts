import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n

describe('a reorg that undoes a batch on a quiet pool: its orders buy again within a few blocks (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true, approvalsAhead: false })
  }, 120_000)
  afterAll(async () => {
    await h?.stop()
  })

  const anyPending = async () => Object.keys((await jsonRpc<{ pending: Record<string, unknown> }>(h.chain.rpcUrl, 'txpool_content')).pending).length > 0

  /**
   * Mines one block at a time until `done`, each processed by the indexer and the executor settled (or something of it
   * sent) before the next: returns how many blocks it took, failing after `most`.
   */
  async function mineUntil(what: string, done: () => Promise<boolean>, most: number): Promise<number> {
    for (let blocks = 1; blocks <= most; blocks++) {
      await h.mine()
      await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
      await h.waitFor('the block decided', async () => h.executor.busy() === 0 || (await anyPending()))
      if (await done()) return blocks
    }
    throw new Error(`${what}: not within ${most} blocks`)
  }

  it('the undone batch is released and its orders buy again in a new batch, far before the heartbeat (30 blocks here)', async () => {
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
    // The batch settled (swept) before the reorg: the undo must also release its record.
    const launch = (await h.journal.getLaunchBySlug(slug))!
    const batches = createBatchJournal(h.store)
    await mineUntil('swept', async () => (await batches.get('base', slug, launch.blockNumber, 0))?.state === 'swept', 10)
    await h.executor.idle()

    // Every block from the batch's on is replaced by an empty one: the batch never happened on the new chain.
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [Number(head - fillBlock + 1n), []])
    for (const buyer of buyers) expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)
    const blocks = await mineUntil(
      'filled again',
      async () => {
        const orders = await Promise.all(buyers.map((b) => h.getOrder(b, slug)))
        return orders.every((o) => o?.status === 'filled' && o.execution?.txHash !== first)
      },
      8,
    )
    expect(blocks).toBeLessThanOrEqual(8)
    expect((await batches.get('base', slug, launch.blockNumber, 0))?.state).toBe('released')
    for (const [i, buyer] of buyers.entries()) {
      const events = await h.journal.orderEventsOf(buyer.keyId, slug)
      expect(events.some((e) => e.reason === 'buy undone by a reorg')).toBe(true)
      expect(events.map((e) => `${e.from}->${e.to}`).at(-1)).toBe('executing->filled')
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
