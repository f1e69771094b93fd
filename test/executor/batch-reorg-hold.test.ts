import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n

/**
 * docs/execution.md §8, "A reorg that undoes a batch": the undone batch's signed transaction IS included again after the
 * reorg (a node kept it and rebroadcast it: here, the same raw transaction sent again once the reorg was handled). Its
 * orders were held executing under the batch, so the runner settles them from the re-mined transaction, with its new
 * block, and nothing buys them a second time. Without the hold the orders were active at once, a new batch bought them
 * and the rebroadcast one pulled the same wallets again.
 */
describe('a reorg undoes a batch whose transaction is then included again: every order filled once, from the new block (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true, approvalsAhead: false })
  }, 120_000)
  afterAll(async () => {
    await h?.stop()
  })

  const mineUntil = (what: string, done: () => Promise<boolean>, most: number) => h.mineUntil(what, done, most, 'any')

  it('held executing under the batch after the undo, settled again from the re-mined transaction; no second batch, no wallet pulled twice', async () => {
    const { slug, creator } = await h.newProject('batch-reorg-hold', 'doppler')
    const buyers: Buyer[] = []
    for (let i = 0; i < 3; i++) {
      const buyer = await h.newBuyer(`batch-reorg-hold-${i}`, '100')
      await h.order(buyer, slug, String(30 + i), null)
      buyers.push(buyer)
    }
    await h.approveBatchBuyer(buyers, '100')
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    await h.executor.idle()
    const orders = () => Promise.all(buyers.map((b) => h.getOrder(b, slug)))

    // A quiet pool (the fee at its floor): it ticks again only when asked, as after a reorg.
    const launched = await h.launch(slug, 'doppler', creator, { startFee: 10_000, endFee: 10_000, decaySeconds: 1 })
    await h.indexer.caughtUp('base', launched.blockNumber)
    await mineUntil('filled', async () => (await orders()).every((o) => o?.status === 'filled'), 10)
    const first = (await orders())[0]!.execution!.txHash as Hex
    const fillBlock = (await h.client.getTransactionReceipt({ hash: first })).blockNumber
    const launch = (await h.journal.getLaunchBySlug(slug))!
    const batches = createBatchJournal(h.store)
    await mineUntil('swept', async () => (await batches.get('base', slug, launch.blockNumber, 0))?.state === 'swept', 10)
    await h.executor.idle()
    // The signed executeBatch as a node would keep it.
    const raw = await jsonRpc<Hex>(h.chain.rpcUrl, 'eth_getRawTransactionByHash', [first])
    expect(raw).toMatch(/^0x/)

    // The reorg replaces every block from the batch's on with empty ones and drops their transactions.
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [Number(head - fillBlock + 1n), []])
    for (const buyer of buyers) expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)
    // The reorg is seen with the next block and the undo written (before the rebroadcast, so that it is the undo that
    // decides, not a re-pointing of fills found again on the new chain).
    await mineUntil('the undo written', async () => (await orders()).every((o) => o?.status !== 'filled'), 4)
    await h.executor.idle()
    expect((await orders()).map((o) => o?.status)).toEqual(['executing', 'executing', 'executing'])
    expect(await batches.get('base', slug, launch.blockNumber, 0)).toMatchObject({ state: 'sent', undone: { txHash: first } })

    // The same signed transaction comes back (a node rebroadcasts it) and is mined in the next block.
    expect(await jsonRpc<Hex>(h.chain.rpcUrl, 'eth_sendRawTransaction', [raw])).toBe(first)
    await mineUntil('filled from the re-mined batch', async () => (await orders()).every((o) => o?.status === 'filled' && o.execution?.txHash === first), 6)
    const remined = (await h.client.getTransactionReceipt({ hash: first })).blockNumber
    expect(remined).not.toBe(fillBlock)
    const fills = (await h.journal.fillsAbove('base', 0n)).filter((f) => f.slug === slug)
    expect(fills).toHaveLength(3)
    for (const fill of fills) expect(fill).toMatchObject({ txHash: first, blockNumber: remined.toString() })
    // Swept again on the new chain (the old sweep was undone with it); no second batch was ever journaled.
    await mineUntil('swept again', async () => (await batches.get('base', slug, launch.blockNumber, 0))?.state === 'swept', 10)
    expect(await batches.get('base', slug, launch.blockNumber, 0)).toMatchObject({ execution: { txHash: first, blockNumber: remined.toString() } })
    expect(await batches.get('base', slug, launch.blockNumber, 1)).toBeUndefined()
    // Mined a few blocks more: nothing buys them again.
    for (let i = 0; i < 3; i++) await mineUntil('a block', async () => true, 1)
    for (const [i, buyer] of buyers.entries()) {
      expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(30 + i) * USDC)
      const moves = (await h.journal.orderEventsOf(buyer.keyId, slug)).map((e) => `${e.from}->${e.to}`)
      expect(moves.slice(moves.indexOf('active->executing'))).toEqual(['active->executing', 'executing->filled', 'filled->executing', 'executing->filled'])
      expect((await h.getOrder(buyer, slug))?.status).toBe('filled')
    }
    const executed = await h.client.getContractEvents({
      address: h.batchBuyer!,
      abi: batchBuyerAbi,
      eventName: 'BatchExecuted',
      fromBlock: launched.blockNumber,
    })
    expect(executed.map((e) => e.transactionHash)).toEqual([first])
  }, 300_000)
})

/**
 * The split batch (collects, then a settle): every one of its transactions can come back after a reorg. A collect that
 * comes back pulls into the batch's own collection (settled with it, or refunded once it is cancelled; after the cancel
 * a collect reverts, NotCollecting); the settle that comes back swaps what was collected, under the batch's id. So the
 * orders are held under the batch as for executeBatch, and the split fate (resolve-split-batch.ts) decides: settled
 * again, or cancelled, refunded and released once its last block is final. Whichever comes first here (the runner may
 * cancel before the rebroadcast collects land), every order ends filled once and no wallet pays twice.
 */
describe('a reorg undoes a split batch whose collects and settle are then included again: filled once, no wallet pulled twice (real devnet)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({
      batchBuyer: true,
      approvalsAhead: false,
      maxBuyersPerTransaction: 2,
      batchDeadline: { landingBlocks: 12, finalityBlocks: 3 },
    })
  }, 120_000)
  afterAll(async () => {
    await h?.stop()
  })

  const mineUntil = (what: string, done: () => Promise<boolean>, most: number) => h.mineUntil(what, done, most, 'any')

  it('held under the batch; settled again or refunded and bought once; each wallet pays exactly its spend once', async () => {
    const { slug, creator } = await h.newProject('split-reorg-hold', 'doppler')
    const buyers: Buyer[] = []
    for (let i = 0; i < 3; i++) {
      const buyer = await h.newBuyer(`split-reorg-hold-${i}`, '100')
      await h.order(buyer, slug, String(30 + i), null)
      buyers.push(buyer)
    }
    await h.approveBatchBuyer(buyers, '100')
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    await h.executor.idle()
    const orders = () => Promise.all(buyers.map((b) => h.getOrder(b, slug)))
    const launched = await h.launch(slug, 'doppler', creator, { startFee: 10_000, endFee: 10_000, decaySeconds: 1 })
    await h.indexer.caughtUp('base', launched.blockNumber)
    await mineUntil('filled', async () => (await orders()).every((o) => o?.status === 'filled'), 10)
    const launch = (await h.journal.getLaunchBySlug(slug))!
    const batches = createBatchJournal(h.store)
    await mineUntil('swept', async () => (await batches.get('base', slug, launch.blockNumber, 0))?.state === 'swept', 10)
    await h.executor.idle()
    const record = (await batches.get('base', slug, launch.blockNumber, 0))!
    expect(record.split?.chunks).toHaveLength(2)
    // Every collect and the settle, signed as sent, in the order they were mined (their nonces).
    const hashes = [...record.split!.chunks.map((c) => c.txHash!), record.txHash!]
    const mined = await Promise.all(hashes.map((hash) => h.client.getTransactionReceipt({ hash })))
    const order = hashes
      .map((hash, i) => ({ hash, block: mined[i]!.blockNumber, index: mined[i]!.transactionIndex }))
      .sort((a, b) => (a.block === b.block ? a.index - b.index : Number(a.block - b.block)))
    const raws = await Promise.all(order.map(({ hash }) => jsonRpc<Hex>(h.chain.rpcUrl, 'eth_getRawTransactionByHash', [hash])))
    const firstBlock = order[0]!.block

    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [Number(head - firstBlock + 1n), []])
    for (const buyer of buyers) expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)
    await mineUntil('the undo written', async () => (await orders()).every((o) => o?.status !== 'filled'), 4)
    await h.executor.idle()
    // Held under the batch: executing, its record sent again (not active: a new batch would pull them a second time).
    expect((await orders()).map((o) => o?.status)).toEqual(['executing', 'executing', 'executing'])
    expect(await batches.get('base', slug, launch.blockNumber, 0)).toMatchObject({ state: 'sent', undone: { txHash: record.txHash } })
    // The collects and the settle come back (a node rebroadcasts them); a cancel of ours may already be ahead of them.
    for (const raw of raws) await jsonRpc(h.chain.rpcUrl, 'eth_sendRawTransaction', [raw]).catch(() => undefined)

    await mineUntil('every order filled again', async () => (await orders()).every((o) => o?.status === 'filled'), 30)
    for (let i = 0; i < 3; i++) await mineUntil('a block', async () => true, 1)
    for (const [i, buyer] of buyers.entries()) {
      expect(await h.usdcOf(buyer.wallet), `wallet ${i} paid once`).toBe(100n * USDC - BigInt(30 + i) * USDC)
      const moves = (await h.journal.orderEventsOf(buyer.keyId, slug)).map((e) => `${e.from}->${e.to}`)
      const afterHold = moves.slice(moves.indexOf('filled->executing'))
      expect(afterHold.filter((m) => m === 'executing->filled')).toHaveLength(1)
      expect((await h.getOrder(buyer, slug))?.status).toBe('filled')
    }
  }, 300_000)
})
