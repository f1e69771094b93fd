import { decodeFunctionData, type Hash, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import type { ExecutorWallets } from '../../daemon/executor/executor-context.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { type FlowHarness, startFlowHarness } from './flow-harness.ts'
import { preparedLaunchChecks } from './prepared-launch-checks.ts'

const USDC = 1_000_000n

describe('a batch across a crash: settled from the chain, never bought twice (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true, approvalsAhead: false })
  }, 120_000)
  afterAll(async () => {
    await h?.stop()
  })

  const batchOf = async (slug: string, sequence: number): Promise<BatchRecord | undefined> => {
    const launch = await h.journal.getLaunchBySlug(slug)
    return launch ? createBatchJournal(h.store).get('base', slug, launch.blockNumber, sequence) : undefined
  }
  // Only the batch's own transaction is held back by the tests' wallets: the executor sends others through the same
  // sendCall (the operator set-up, a previous test's sweep resumed at the restart), and which comes first depends on
  // the machine's speed (a full-suite run saw a sweep taken for the batch).
  const isExecuteBatch = (data: Hex): boolean => {
    try {
      return decodeFunctionData({ abi: batchBuyerAbi, data }).functionName === 'executeBatch'
    } catch {
      return false
    }
  }
  const executedLogs = () => h.client.getContractEvents({ address: h.batchBuyer!, abi: batchBuyerAbi, eventName: 'BatchExecuted', fromBlock: 0n })

  const { buyersWithOrders } = preparedLaunchChecks(() => h)

  it('a crash after executeBatch was mined but before it was settled: the restart fills every order from BatchExecuted and sweeps, one batch, one pull each', async () => {
    const { slug, creator } = await h.newProject('batch-crash', 'doppler')
    const buyers = await buyersWithOrders(slug, 5)
    // The operator sends for real and then never hears back: the process "dies" waiting for the receipt.
    let sent: Hash | undefined
    const hanging: ExecutorWallets = {
      walletAddress: (i) => h.wallets.walletAddress(i),
      submitUserOperations: (chain, requests, options) => h.wallets.submitUserOperations(chain, requests, options),
      operatorAddress: (chain) => h.wallets.operatorAddress?.(chain),
      async sendCall(chain, call, fields) {
        const real = await h.wallets.sendCall!(chain, call, fields)
        if (!isExecuteBatch(call.data)) return real
        sent = real.hash
        return { hash: real.hash, landed: new Promise(() => undefined) }
      },
    }
    await h.crashExecutor(hanging)
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    await h.waitFor('the batch sent', async () => sent, 120_000)
    const operator = h.wallets.operatorAddress!('base')!
    const { batchId } = (await batchOf(slug, 0))!
    // The batch is mined when its BatchExecuted is on chain, from the transaction sent or a replacement of it: the
    // wallets replace a transaction of theirs that a block passed without (same account and nonce, higher fees) and
    // follow the lineage for the executor, which this test's wallet keeps from it. Without one, the failure says where
    // the operator's nonces stand.
    const executed = await h
      .waitFor('the batch mined', async () => (await executedLogs()).find((l) => (l.args as { batchId?: Hex }).batchId === batchId), 120_000)
      .catch(async (error: Error) => {
        const [pending, mined] = await Promise.all(
          (['pending', 'latest'] as const).map((blockTag) => h.client.getTransactionCount({ address: operator, blockTag })),
        )
        throw new Error(`${error.message}: the operator ${operator}'s pending nonce ${pending}, mined ${mined}`)
      })
    const hash = executed.transactionHash
    expect((await h.client.getTransaction({ hash })).from.toLowerCase()).toBe(operator.toLowerCase())
    expect((await h.client.getTransactionReceipt({ hash })).status).toBe('success')
    await h.stopMining()
    expect((await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).map((o) => o?.status)).toEqual(buyers.map(() => 'executing'))
    expect((await batchOf(slug, 0))?.state).toBe('sent')

    h.startMining()
    await h.crashExecutor() // the restart: reconciles the batch from the chain
    const orders = await Promise.all(buyers.map((b) => h.getOrder(b, slug)))
    expect(orders.map((o) => o?.status)).toEqual(buyers.map(() => 'filled'))
    expect(new Set(orders.map((o) => o?.execution?.txHash))).toEqual(new Set([hash]))
    expect(await h.journal.inFlight('base')).toEqual([])
    await h.waitFor('the batch swept', async () => (await batchOf(slug, 0))?.state === 'swept', 120_000)
    await h.mine(3)
    await h.stopMining()
    // One batch, one pull per wallet, every wallet credited its share.
    expect((await executedLogs()).filter((l) => l.transactionHash === hash)).toHaveLength(1)
    const token = (await h.journal.getLaunchBySlug(slug))!.token
    for (const [i, buyer] of buyers.entries()) {
      expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(30 + i) * USDC)
      expect(await h.tokenBalance(token, buyer.wallet)).toBe(BigInt(orders[i]!.execution!.tokensReceived))
    }
  }, 300_000)

  it('a crash after the batch was journaled but before it was sent: the restart releases it (the operator has nothing pending) and the next tick buys once, in a new batch', async () => {
    const { slug, creator } = await h.newProject('batch-unsent', 'doppler')
    const buyers = await buyersWithOrders(slug, 3)
    let asked = false
    const dying: ExecutorWallets = {
      walletAddress: (i) => h.wallets.walletAddress(i),
      submitUserOperations: (chain, requests, options) => h.wallets.submitUserOperations(chain, requests, options),
      operatorAddress: (chain) => h.wallets.operatorAddress?.(chain),
      sendCall(chain, call, fields) {
        if (!isExecuteBatch(call.data)) return h.wallets.sendCall!(chain, call, fields)
        asked = true
        return new Promise(() => undefined)
      },
    }
    await h.crashExecutor(dying)
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    await h.waitFor('the batch about to be sent', async () => asked, 120_000)
    await h.stopMining()
    expect((await batchOf(slug, 0))?.state).toBe('journaled')
    // The write before the send is the batch record alone (the commit): the orders' moves follow the send, which never
    // came, so they are still active with no in-flight entry; the restart rolls them forward (roll-forward-batches.ts).
    expect((await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).map((o) => o?.status)).toEqual(buyers.map(() => 'active'))
    expect(await h.journal.inFlight('base')).toEqual([])

    h.startMining()
    await h.crashExecutor()
    // Released at start, or (had the operator a transaction pending then) on a later block once it has none.
    const released = await h.waitFor(
      'the unsent batch released',
      async () => {
        const record = await batchOf(slug, 0)
        return record?.state === 'released' ? record : undefined
      },
      120_000,
    )
    const onChain = (await h.client.readContract({
      address: h.batchBuyer!,
      abi: batchBuyerAbi,
      functionName: 'batches',
      args: [released.batchId],
    })) as readonly unknown[]
    expect(onChain[6]).toBe(false) // executed
    await h.waitFor(
      'filled in a new batch',
      async () => (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).every((o) => o?.status === 'filled'),
      120_000,
    )
    await h.stopMining()
    const again = (await batchOf(slug, 1))!
    expect(again.batchId).not.toBe(released.batchId)
    const orders = await Promise.all(buyers.map((b) => h.getOrder(b, slug)))
    expect(new Set(orders.map((o) => o?.execution?.batch?.batchId))).toEqual(new Set([again.batchId]))
    for (const [i, buyer] of buyers.entries()) expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(30 + i) * USDC)
  }, 300_000)
})
