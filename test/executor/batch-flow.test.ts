import { erc20Abi, parseEventLogs } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import { EIP_7825_TX_GAS_CAP } from '../../src/chain/tx-gas-cap.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n
const BATCH_BUYERS = 30

describe('one price per block: the executor buys approved wallets through PrebuyBatchBuyer (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true })
  }, 120_000)
  afterAll(async () => {
    await h?.stop()
  })

  const batchOf = async (slug: string, sequence: number): Promise<BatchRecord | undefined> => {
    const launch = await h.journal.getLaunchBySlug(slug)
    return launch ? createBatchJournal(h.store).get('base', slug, launch.blockNumber, sequence) : undefined
  }

  it(`${BATCH_BUYERS} approved buyers fill in ONE transaction at ONE price, swept to their wallets; unapproved wallets buy the old way`, async () => {
    const { slug, creator } = await h.newProject('batchy', 'doppler')
    const approved: Buyer[] = []
    for (let i = 0; i < BATCH_BUYERS; i++) {
      const buyer = await h.newBuyer(`batch-${i}`, '100')
      await h.order(buyer, slug, String(20 + i), null)
      approved.push(buyer)
    }
    const plain = [await h.newBuyer('plain-a', '100'), await h.newBuyer('plain-b', '100')]
    for (const buyer of plain) await h.order(buyer, slug, '30', null)
    await h.approveBatchBuyer(approved, '100')

    h.startMining()
    const launched = await h.launch(slug, 'doppler', creator)
    const everyone = [...approved, ...plain]
    await h.waitFor(
      'every order filled',
      async () => (await Promise.all(everyone.map((b) => h.getOrder(b, slug)))).every((o) => o?.status === 'filled'),
      120_000,
    )
    const batch = await h.waitFor(
      'the batch swept',
      async () => {
        const record = await batchOf(slug, 0)
        return record?.state === 'swept' ? record : undefined
      },
      60_000,
    )
    await h.stopMining()

    // One transaction, one batch, every approved order in it.
    const executions = await Promise.all(approved.map(async (b) => (await h.getOrder(b, slug))!.execution!))
    expect(new Set(executions.map((e) => e.txHash)).size).toBe(1)
    expect(executions.every((e) => e.batch?.batchId === batch.batchId && e.batch.contract === h.batchBuyer)).toBe(true)
    expect(batch.included).toHaveLength(BATCH_BUYERS)
    expect(batch.excluded).toEqual([])
    const execution = batch.execution!
    expect(execution.skipped).toEqual([])
    const receipt = await h.client.getTransactionReceipt({ hash: execution.txHash })
    expect(receipt.status).toBe('success')
    const tx = await h.client.getTransaction({ hash: execution.txHash })
    expect(tx.gas <= EIP_7825_TX_GAS_CAP).toBe(true)
    expect(tx.from.toLowerCase()).toBe(h.wallets.bundlerAddress('base').toLowerCase())
    const executed = parseEventLogs({ abi: batchBuyerAbi, logs: receipt.logs, eventName: 'BatchExecuted' })
    expect(executed).toHaveLength(1)

    // One price: each gross share is floor(tokensOut x spend / totalIn) (spend/gross equal up to one atom of rounding),
    // the fee is 3% of it, and the shares plus what the fee recipient got are exactly the swap's output.
    const tokensOut = BigInt(execution.tokensOut)
    const totalIn = BigInt(execution.totalIn)
    let netSum = 0n
    for (const [i, e] of executions.entries()) {
      const spend = BigInt(20 + i) * USDC
      expect(e.spentUsdc).toBe(String(20 + i))
      const gross = BigInt(e.tokensReceived) + BigInt(e.feeTokens)
      expect(gross).toBe((tokensOut * spend) / totalIn)
      expect(BigInt(e.feeTokens)).toBe((gross * 300n) / 10_000n)
      netSum += BigInt(e.tokensReceived)
      // Swept: the wallet holds its share, and its stablecoin paid exactly the spend.
      expect(await h.tokenBalance(launched.token, approved[i]!.wallet)).toBe(BigInt(e.tokensReceived))
      expect(await h.usdcOf(approved[i]!.wallet)).toBe(100n * USDC - spend)
    }
    expect(totalIn).toBe(executions.reduce((sum, _e, i) => sum + BigInt(20 + i) * USDC, 0n))

    // The unapproved wallets bought one UserOperation each, as before, not through the batch.
    const plainExecutions = await Promise.all(plain.map(async (b) => (await h.getOrder(b, slug))!.execution!))
    for (const e of plainExecutions) {
      expect(e.batch).toBeUndefined()
      expect(e.txHash).not.toBe(execution.txHash)
    }
    const plainFees = plainExecutions.reduce((sum, e) => sum + BigInt(e.feeTokens), 0n)
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(tokensOut - netSum + plainFees)
    // Nothing left in the batch contract.
    expect(await h.client.readContract({ address: launched.token, abi: erc20Abi, functionName: 'balanceOf', args: [h.batchBuyer!] })).toBe(0n)
  }, 400_000)
})
