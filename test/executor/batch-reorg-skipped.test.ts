import { type Address, encodeFunctionData, erc20Abi, type Hash, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { checkReplays, replayAll, replayBatches } from '../../src/console/replay/replay-check.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n
const SINK = '0x000000000000000000000000000000000000dEaD' as Address

/**
 * docs/execution.md §8, "A reorg that undoes a batch", its skipped buyers: a batch skipped a buyer (its wallet was
 * emptied in the batch's own block, ahead of it), then a reorg undid that block: the emptying is gone with it, so the
 * wallet holds its money again, and the batch's signed transaction, kept by a node, can come back and now pull it.
 * Without holding the skipped order under the undone batch, it was active and funded after the reorg: a new batch bought
 * it, and the batch that came back pulled the same wallet again. Held, it is settled by the batch that came back:
 * every wallet pays exactly its spend, once.
 */
describe('a reorg undoes a batch that skipped a buyer, and the batch comes back: the skipped buyer is held under it and pays once (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true, approvalsAhead: false })
  }, 120_000)
  afterAll(async () => {
    await h?.stop()
  })

  const mineUntil = (what: string, done: () => Promise<boolean>, most: number) => h.mineUntil(what, done, most, 'any')

  /** Empties a smart wallet's USDC by impersonating it, with a tip far above the batch's so it is mined first. */
  async function emptyAhead(wallet: Address): Promise<Hash> {
    const usdc = h.chain.addresses.stablecoin
    const balance = await h.usdcOf(wallet)
    await jsonRpc(h.chain.rpcUrl, 'anvil_setBalance', [wallet, '0x8ac7230489e80000'])
    await jsonRpc(h.chain.rpcUrl, 'anvil_impersonateAccount', [wallet])
    const block = await h.client.getBlock({ blockTag: 'latest' })
    const tip = 1_000_000_000_000n // 1,000 gwei
    const hash = await jsonRpc<Hash>(h.chain.rpcUrl, 'eth_sendTransaction', [
      {
        from: wallet,
        to: usdc,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [SINK, balance] }),
        gas: '0x30d40',
        maxPriorityFeePerGas: `0x${tip.toString(16)}`,
        maxFeePerGas: `0x${(tip + 2n * (block.baseFeePerGas ?? 0n)).toString(16)}`,
      },
    ])
    await jsonRpc(h.chain.rpcUrl, 'anvil_stopImpersonatingAccount', [wallet])
    return hash
  }

  /**
   * Three buyers (30, 31, 32 USDC) of a quiet Doppler launch; the batch's executeBatch sent, the second wallet emptied in
   * its block ahead of it: the batch skips it (orders filled, active, filled), then is swept. Returns what the reorg needs.
   */
  async function skippedInBatch(name: string) {
    const { slug, creator } = await h.newProject(name, 'doppler')
    const buyers: Buyer[] = []
    for (let i = 0; i < 3; i++) {
      const buyer = await h.newBuyer(`${name}-${i}`, '100')
      await h.order(buyer, slug, String(30 + i), null)
      buyers.push(buyer)
    }
    await h.approveBatchBuyer(buyers, '100')
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    await h.executor.idle()
    const orders = () => Promise.all(buyers.map((b) => h.getOrder(b, slug)))
    const skippedBuyer = buyers[1]!

    // A quiet pool (the fee at its floor): it ticks again only when asked, as after a reorg.
    const launched = await h.launch(slug, 'doppler', creator, { startFee: 10_000, endFee: 10_000, decaySeconds: 1 })
    await h.indexer.caughtUp('base', launched.blockNumber)
    const launch = (await h.journal.getLaunchBySlug(slug))!
    const batches = createBatchJournal(h.store)
    // The batch's executeBatch in the node's pool, not mined yet (a block at a time until it is sent).
    const sent = async () => {
      const record = await batches.get('base', slug, launch.blockNumber, 0)
      return record?.txHash !== undefined && (await h.bundlePending())
    }
    await h.waitFor('the launch block decided', async () => h.executor.busy() === 0 || (await sent()))
    if (!(await sent())) await h.mineUntil('the batch sent', sent, 6, 'ours')
    const first = (await batches.get('base', slug, launch.blockNumber, 0))!.txHash as Hash

    // The second buyer's wallet is emptied in the batch's own block, ahead of it: the batch skips it.
    const emptied = await emptyAhead(skippedBuyer.wallet)
    await mineUntil('settled', async () => (await orders()).every((o) => o?.status === 'filled' || o?.status === 'active'), 6)
    const [emptiedReceipt, batchReceipt] = await Promise.all([
      h.client.getTransactionReceipt({ hash: emptied }),
      h.client.getTransactionReceipt({ hash: first }),
    ])
    expect(emptiedReceipt.blockNumber).toBe(batchReceipt.blockNumber)
    expect(emptiedReceipt.transactionIndex).toBeLessThan(batchReceipt.transactionIndex)
    expect((await orders()).map((o) => o?.status)).toEqual(['filled', 'active', 'filled'])
    expect((await batches.get('base', slug, launch.blockNumber, 0))?.execution?.skipped).toEqual([1])
    await mineUntil('swept', async () => (await batches.get('base', slug, launch.blockNumber, 0))?.state === 'swept', 10)
    await h.executor.idle()
    const raw = await jsonRpc<Hex>(h.chain.rpcUrl, 'eth_getRawTransactionByHash', [first])
    return { slug, buyers, orders, launch, launched, batches, first, batchReceipt, raw }
  }

  it('skipped, then held after the undo (no new batch buys it), settled by the batch that came back: each wallet paid once', async () => {
    const { slug, buyers, orders, launch, launched, batches, first, batchReceipt, raw } = await skippedInBatch('batch-reorg-skipped')
    const skippedBuyer = buyers[1]!

    // The reorg replaces every block from the batch's on with empty ones: the emptying is undone with the batch, and the
    // skipped wallet holds its 100 USDC again (and its approval, given before).
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [Number(head - batchReceipt.blockNumber + 1n), []])
    for (const buyer of buyers) expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)
    await mineUntil(
      'the undo written',
      async () => {
        const [a, , c] = await orders()
        return a?.status === 'executing' && c?.status === 'executing'
      },
      4,
    )
    await h.executor.idle()
    // The skipped order is held under the undone batch too: no new batch buys it while that batch may come back.
    const inFlight = await h.journal.inFlight('base')
    const held = await batches.get('base', slug, launch.blockNumber, 0)
    expect((await orders()).map((o) => o?.status)).toEqual(['executing', 'executing', 'executing'])
    for (const buyer of buyers) expect(inFlight.find((e) => e.keyId === buyer.keyId && e.slug === slug)?.batchId).toBe(held?.batchId)
    expect(await batches.get('base', slug, launch.blockNumber, 1)).toBeUndefined()
    const events = await h.journal.orderEventsOf(skippedBuyer.keyId, slug)
    expect(events.at(-1)).toMatchObject({ from: 'active', to: 'executing' })

    // The same signed executeBatch comes back, and now pulls the refilled wallet too: every order filled from it.
    expect(await jsonRpc<Hex>(h.chain.rpcUrl, 'eth_sendRawTransaction', [raw])).toBe(first)
    await mineUntil('filled from the re-mined batch', async () => (await orders()).every((o) => o?.status === 'filled' && o.execution?.txHash === first), 6)
    expect((await batches.get('base', slug, launch.blockNumber, 0))?.execution?.skipped).toEqual([])
    for (let i = 0; i < 3; i++) await mineUntil('a block', async () => true, 1)
    expect(await batches.get('base', slug, launch.blockNumber, 1)).toBeUndefined()
    for (const [i, buyer] of buyers.entries()) {
      expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(30 + i) * USDC)
      expect((await h.getOrder(buyer, slug))?.status).toBe('filled')
    }
    const executed = await h.client.getContractEvents({
      address: h.batchBuyer!,
      abi: batchBuyerAbi,
      eventName: 'BatchExecuted',
      fromBlock: launched.blockNumber,
    })
    expect(executed.map((e) => e.transactionHash)).toEqual([first])
    const journal = await h.services.executions.journalOf(slug)
    expect(checkReplays(slug, replayAll(journal), replayBatches(journal)).batches.differing).toEqual([])
  }, 300_000)
  it('the reorg itself re-mines the batch at another place, without the emptying: settled again from there (the skipped wallet pays there, once), not re-pointed', async () => {
    const { slug, buyers, orders, launch, batches, first, batchReceipt, raw } = await skippedInBatch('batch-reorg-remined')
    // The new chain: the same blocks, empty, but the batch's signed transaction re-included in the second of them (the
    // emptying is not): the batch is at another block and now pulls all three wallets.
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [Number(head - batchReceipt.blockNumber + 1n), [[raw, 1]]])
    const remined = await h.client.getTransactionReceipt({ hash: first })
    expect(remined.blockNumber).toBe(batchReceipt.blockNumber + 1n)
    for (const [i, buyer] of buyers.entries()) expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(30 + i) * USDC)
    // Settled again from its new place: every order filled there, with the shares of that execution (nobody skipped).
    await mineUntil(
      'settled from the new place',
      async () =>
        (await orders()).every((o) => o?.status === 'filled') &&
        (await batches.get('base', slug, launch.blockNumber, 0))?.execution?.blockNumber === remined.blockNumber.toString(),
      8,
    )
    const record = (await batches.get('base', slug, launch.blockNumber, 0))!
    expect(record.execution).toMatchObject({ txHash: first, skipped: [] })
    const fills = (await h.journal.fillsAbove('base', 0n)).filter((f) => f.slug === slug)
    expect(fills.map((f) => [f.keyId, f.blockNumber]).sort()).toEqual(buyers.map((b) => [b.keyId, remined.blockNumber.toString()]).sort())
    const received = (await orders()).reduce((sum, o) => sum + BigInt(o!.execution!.tokensReceived) + BigInt(o!.execution!.feeTokens), 0n)
    // Every share of that execution's output (the rounding dust, under one token per buyer, to the fee recipient).
    expect(BigInt(record.execution!.tokensOut) - received).toBeGreaterThanOrEqual(0n)
    expect(BigInt(record.execution!.tokensOut) - received).toBeLessThan(BigInt(buyers.length))
    // executions replay --check: the batch's allocation is reproduced from the journal at its new place.
    const journal = await h.services.executions.journalOf(slug)
    const check = checkReplays(slug, replayAll(journal), replayBatches(journal))
    expect(check.batches.differing).toEqual([])
    expect(check.batches.allocationsChecked).toBeGreaterThan(0)
    // A few blocks more: no second batch, each wallet paid its spend once.
    for (let i = 0; i < 3; i++) await mineUntil('a block', async () => true, 1)
    expect(await batches.get('base', slug, launch.blockNumber, 1)).toBeUndefined()
    for (const [i, buyer] of buyers.entries()) {
      expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(30 + i) * USDC)
      expect((await h.getOrder(buyer, slug))?.status).toBe('filled')
    }
  }, 300_000)
})
