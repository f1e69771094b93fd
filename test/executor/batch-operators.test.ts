import { type Address, erc20Abi, isAddressEqual, parseEventLogs } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n
const SENDERS = 4
const BUYERS = 8

describe('sender accounts as batch operators: batches go out from the pool (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true, senderAccounts: SENDERS })
  }, 120_000)
  afterAll(async () => {
    await h?.stop()
  })

  const isOperator = (account: Address) =>
    h.client.readContract({ address: h.batchBuyer!, abi: batchBuyerAbi, functionName: 'operators', args: [account] }) as Promise<boolean>

  it('at start the admin makes every sender account an operator (once: a restart sends nothing), and the batch goes out from a pool account, recorded with it, and fills', async () => {
    const senders = h.wallets.senderAddresses('base')
    const bundler = h.wallets.bundlerAddress('base')
    expect(senders).toHaveLength(SENDERS)
    // The constructor's one operator is the bundler EOA (the address depends on that list); the others come from setOperator.
    expect(await isOperator(bundler)).toBe(true)

    h.startMining()
    await h.waitFor('every sender an operator, as the executor read it', async () => h.executor.batchOperatorsReady('base'), 60_000)
    for (const sender of senders) expect(await isOperator(sender)).toBe(true)
    const setLogs = await h.client.getContractEvents({ address: h.batchBuyer!, abi: batchBuyerAbi, eventName: 'OperatorSet', fromBlock: 0n })
    expect(setLogs).toHaveLength(SENDERS)

    // Idempotent: a restart reads the flags and sends no setOperator.
    const bundlerNonce = await h.client.getTransactionCount({ address: bundler, blockTag: 'pending' })
    await h.restartExecutor()
    await h.waitFor('the restarted executor ready', async () => h.executor.batchOperatorsReady('base'), 60_000)
    expect(await h.client.getTransactionCount({ address: bundler, blockTag: 'pending' })).toBe(bundlerNonce)
    await h.stopMining()

    const { slug, creator } = await h.newProject('pooled', 'doppler')
    const buyers: Buyer[] = []
    for (let i = 0; i < BUYERS; i++) {
      const buyer = await h.newBuyer(`pooled-${i}`, '100')
      await h.order(buyer, slug, String(20 + i), null)
      buyers.push(buyer)
    }
    await h.approveBatchBuyer(buyers, '100')

    h.startMining()
    await h.launch(slug, 'doppler', creator)
    await h.waitFor('every order filled', async () => (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).every((o) => o?.status === 'filled'), 120_000)
    const launch = (await h.journal.getLaunchBySlug(slug))!
    const batch = await h.waitFor(
      'the batch swept',
      async () => {
        const record = await createBatchJournal(h.store).get('base', slug, launch.blockNumber, 0)
        return record?.state === 'swept' ? record : undefined
      },
      60_000,
    )
    await h.stopMining()

    const execution = batch.execution!
    const tx = await h.client.getTransaction({ hash: execution.txHash })
    // From the pool (any of its accounts: which one is the pool's choice by load and recency, and the approvals' and
    // deployments' sends before the launch move it, so a full-suite run saw the bundler picked), recorded with the batch
    // for crash recovery. That accounts other than the bundler send as operators is shown by batch-split.test.ts
    // (collects from three accounts) on top of the operator flags read above.
    expect(senders.some((s) => isAddressEqual(s, tx.from))).toBe(true)
    expect(batch.from && isAddressEqual(batch.from, tx.from)).toBe(true)
    const receipt = await h.client.getTransactionReceipt({ hash: execution.txHash })
    expect(receipt.status).toBe('success')
    expect(parseEventLogs({ abi: batchBuyerAbi, logs: receipt.logs, eventName: 'BatchExecuted' })).toHaveLength(1)
    expect(batch.included).toHaveLength(BUYERS)
    expect(execution.skipped).toEqual([])
    for (const [i, buyer] of buyers.entries()) {
      const order = (await h.getOrder(buyer, slug))!
      expect(order.execution?.txHash).toBe(execution.txHash)
      expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(20 + i) * USDC)
      expect(await h.tokenBalance(batch.token, buyer.wallet)).toBe(BigInt(order.execution!.tokensReceived))
    }
    expect(await h.client.readContract({ address: batch.token, abi: erc20Abi, functionName: 'balanceOf', args: [h.batchBuyer!] })).toBe(0n)
  }, 400_000)
})
