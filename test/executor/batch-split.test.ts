import { type Address, decodeFunctionData, isAddressEqual, parseEventLogs } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import { EIP_7825_TX_GAS_CAP } from '../../src/chain/tx-gas-cap.ts'
import { allocateBatch } from '../../src/domain/batch/batch-allocation.ts'
import { checkReplays, replayAll, replayBatches } from '../../src/console/replay/replay-check.ts'
import { type FlowHarness, startFlowHarness } from './flow-harness.ts'
import { preparedLaunchChecks, USDC } from './prepared-launch-checks.ts'

const SENDERS = 3
/** The executor's maxBuyersPerTransaction here: 10 buyers become 3 collects (4, 3, 3) and a settle. */
const PER_TX = 4

describe('the split batch through the executor: collects from several operators, one settle, one price (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true, approvalsAhead: false, senderAccounts: SENDERS, maxBuyersPerTransaction: PER_TX })
    h.startMining()
    await h.waitFor('every sender an operator', async () => h.executor.batchOperatorsReady('base'), 60_000)
    await h.stopMining()
  }, 180_000)
  afterAll(async () => {
    await h?.stop()
  })

  const { batchOf, ordersOf, buyersWithOrders, withSendFromAccount } = preparedLaunchChecks(() => h)

  /** Every transaction to the batch buyer from `fromBlock` on, with its receipt. */
  async function batchTransactions(fromBlock: bigint) {
    const latest = await h.client.getBlockNumber({ cacheTime: 0 })
    const out = []
    for (let n = fromBlock; n <= latest; n++) {
      const block = await h.client.getBlock({ blockNumber: n, includeTransactions: true })
      for (const tx of block.transactions) {
        if (!tx.to || !isAddressEqual(tx.to, h.batchBuyer!)) continue
        out.push({ tx, receipt: await h.client.getTransactionReceipt({ hash: tx.hash }) })
      }
    }
    return out
  }

  it('ten buyers over a per-transaction limit of four: three collects from three accounts and one settle, one price, allocateBatch shares exactly, every transaction under 2^24, swept to the wallets', async () => {
    const { slug, creator } = await h.newProject('split-e2e', 'doppler')
    const buyers = await buyersWithOrders(slug, 10)
    const start = await h.client.getBlockNumber({ cacheTime: 0 })
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    await h.waitFor('every order filled', async () => (await ordersOf(buyers, slug)).every((o) => o?.status === 'filled'), 120_000)
    const batch = await h.waitFor('the split batch swept', async () => ((await batchOf(slug, 0))?.state === 'swept' ? batchOf(slug, 0) : undefined), 120_000)
    await h.mine(2)
    await h.stopMining()

    const split = batch!.split!
    expect(split.chunks.map((c) => [c.from, c.to])).toEqual([
      [0, 4],
      [4, 7],
      [7, 10],
    ])
    // Round-robin over the three sender accounts; the settle from the one with the fewest collects (the last).
    const senders = h.wallets.senderAddresses('base')
    expect(split.chunks.map((c) => c.operator)).toEqual(senders)
    expect(split.settle.operator).toBe(senders[2])
    expect(split.chunks.every((c) => c.collected === true && c.txHash !== undefined)).toBe(true)

    const execution = batch!.execution!
    const txs = await batchTransactions(start)
    const settled = txs.flatMap((t) => parseEventLogs({ abi: batchBuyerAbi, logs: t.receipt.logs, eventName: 'BatchSettled' }))
    expect(settled).toHaveLength(1)
    expect(settled[0]!.transactionHash).toBe(execution.txHash)
    const collects = txs.filter((t) => parseEventLogs({ abi: batchBuyerAbi, logs: t.receipt.logs, eventName: 'ChunkCollected' }).length > 0)
    expect(new Set(collects.map((t) => t.tx.from.toLowerCase()))).toEqual(new Set(senders.map((s) => s.toLowerCase())))
    // The settle after every collect: in a later block, or later in the same one.
    const settleReceipt = txs.find((t) => t.tx.hash === execution.txHash)!.receipt
    for (const c of collects)
      expect(
        c.receipt.blockNumber < settleReceipt.blockNumber ||
          (c.receipt.blockNumber === settleReceipt.blockNumber && c.receipt.transactionIndex < settleReceipt.transactionIndex),
      ).toBe(true)
    // Every transaction of the batch (collects, settle, sweeps) under the per-transaction cap, and successful.
    for (const t of txs) {
      expect(t.tx.gas <= EIP_7825_TX_GAS_CAP).toBe(true)
      expect(t.receipt.gasUsed < EIP_7825_TX_GAS_CAP).toBe(true)
      expect(t.receipt.status).toBe('success')
    }

    // One price: every order filled by the settle, its share exactly allocateBatch over the chunks' paid words.
    const orders = await ordersOf(buyers, slug)
    const paid = batch!.included.map((e) => BigInt(e.spendAtoms))
    expect(paid.reduce((a, b) => a + b, 0n).toString()).toBe(execution.totalIn)
    const allocation = allocateBatch(BigInt(execution.tokensOut), paid)
    const token = (await h.journal.getLaunchBySlug(slug))!.token
    for (const [i, entry] of batch!.included.entries()) {
      const index = buyers.findIndex((b) => b.keyId === entry.keyId)
      const order = orders[index]!
      expect(order.execution?.txHash).toBe(execution.txHash)
      expect(order.execution?.batch?.batchId).toBe(batch!.batchId)
      expect(order.execution?.tokensReceived).toBe(allocation.shares[i]!.net.toString())
      expect(await h.tokenBalance(token, buyers[index]!.wallet)).toBe(allocation.shares[i]!.net)
      expect(await h.usdcOf(buyers[index]!.wallet)).toBe(100n * USDC - BigInt(30 + index) * USDC)
    }
    expect(await h.tokenBalance(token, h.feeRecipient)).toBe(allocation.feeTotal)
    expect(await h.tokenBalance(token, h.batchBuyer!)).toBe(0n)
    expect(await h.journal.inFlight('base')).toEqual([])
    await expectReplayed(slug)
  }, 300_000)

  /** executions replay --check on the real journal: every batch's inclusion and allocation reproduced (split ones too). */
  async function expectReplayed(slug: string) {
    const journal = await h.services.executions.journalOf(slug)
    const check = checkReplays(slug, replayAll(journal), replayBatches(journal))
    expect(check.batches.differing).toEqual([])
    expect(check.batches.allocationsChecked).toBeGreaterThan(0)
  }

  /** The harness's wallets with one collect held back (not sent); `late` is the call it would have made, and from whom. */
  function withLateCollect(chunk: number) {
    let late: { account: Address; data: `0x${string}` } | undefined
    const wallets = withSendFromAccount(async ({ account, call, fields }, real) => {
      if (fields?.chunk === chunk && !late) {
        late = { account, data: call.data }
        throw new Error('held back by the test')
      }
      return real()
    })
    return { wallets, late: () => late! }
  }

  it('a collect that lands after the settle takes nothing: its buyers are active again and buy in the next batch, once', async () => {
    const held = withLateCollect(2)
    await h.restartExecutor(held.wallets)
    h.startMining()
    await h.waitFor('every sender an operator', async () => h.executor.batchOperatorsReady('base'), 60_000)
    await h.stopMining()
    const { slug, creator } = await h.newProject('split-late', 'doppler')
    const buyers = await buyersWithOrders(slug, 10)
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    const first = await h.waitFor(
      'the first batch executed',
      async () => {
        const r = await batchOf(slug, 0)
        return r?.execution ? r : undefined
      },
      120_000,
    )
    // The held collect, as its operator would send it after the settle landed: the contract refuses it (NotCollecting),
    // so it would take nothing (asked of the chain with eth_call from the operator, at the block after the settle).
    const { account, data } = held.late()
    const { args } = decodeFunctionData({ abi: batchBuyerAbi, data })
    const refusal = await h.client
      .simulateContract({ account, address: h.batchBuyer!, abi: batchBuyerAbi, functionName: 'collect', args: args as readonly unknown[] })
      .then(
        () => 'accepted',
        (error: unknown) => String(error),
      )
    expect(refusal).toMatch(/NotCollecting/)
    await h.waitFor('every order filled', async () => (await ordersOf(buyers, slug)).every((o) => o?.status === 'filled'), 120_000)
    await h.waitFor('both batches swept', async () => (await batchOf(slug, 0))?.state === 'swept' && (await batchOf(slug, 1))?.state === 'swept', 120_000)
    await h.stopMining()

    const chunk = first.split!.chunks[2]!
    expect(first.execution!.notCollected).toEqual([7, 8, 9].filter((i) => i >= chunk.from && i < chunk.to))
    const second = (await batchOf(slug, 1))!
    const lateKeys = first.included.slice(chunk.from, chunk.to).map((e) => e.keyId)
    expect(second.included.map((e) => e.keyId).sort()).toEqual([...lateKeys].sort())
    for (const [i, buyer] of buyers.entries()) {
      const order = (await h.getOrder(buyer, slug))!
      const batchId = lateKeys.includes(buyer.keyId) ? second.batchId : first.batchId
      expect(order.execution?.batch?.batchId).toBe(batchId)
      // Pulled once: the late collect took nothing.
      expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(30 + i) * USDC)
    }
    await expectReplayed(slug)
  }, 300_000)
})
