import { erc20Abi, parseEventLogs } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import { EIP_7825_TX_GAS_CAP } from '../../src/chain/tx-gas-cap.ts'
import { checkDiffers, checkReplays, checkText, replayAll, replayBatches } from '../../src/console/replay/replay-check.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { fdvOf } from './fdv-of.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'
import { CONSTANT_FEE, launchProbe } from './probe-launch.ts'

const USDC = 1_000_000n
const BATCH_BUYERS = 30

describe('one price per block: the executor buys approved wallets through PrebuyBatchBuyer (real devnet, wallets, store)', () => {
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

  it('a limited order whose limit the one clearing price would exceed is left out with its reason in the journal, and does not buy above it', async () => {
    const unlimited = 10
    const spends = Array.from({ length: unlimited }, (_, i) => BigInt(60 + i) * USDC)
    const limitedSpend = 10n * USDC
    const total = spends.reduce((a, b) => a + b, 0n) + limitedSpend
    // What the limit must sit between, read on an identical launch first (same launchpad, supply, fee, curve): a buy
    // of the limited order's size alone, and the whole batch with it.
    await h.prepareThirdParty('5000')
    const probe = await launchProbe(h, 'probe')
    const alone = await fdvOf(h, probe, 1n << 24n)
    const together = await fdvOf(h, probe, total)
    expect(together > alone).toBe(true)
    const limitAtoms = (alone + together) / 2n

    const { slug, creator } = await h.newProject('limity', 'doppler')
    const buyers: Buyer[] = []
    for (const [i, spend] of spends.entries()) {
      const buyer = await h.newBuyer(`limity-${i}`, '100')
      await h.order(buyer, slug, String(spend / USDC), null)
      buyers.push(buyer)
    }
    const limited = await h.newBuyer('limity-limited', '100')
    // The FDV limit in whole USD (rounded down: still above the alone price, by far below the clearing).
    await h.order(limited, slug, String(limitedSpend / USDC), String(limitAtoms / USDC))
    await h.approveBatchBuyer([...buyers, limited], '100')

    h.startMining()
    await h.launch(slug, 'doppler', creator, CONSTANT_FEE)
    await h.waitFor(
      'the unlimited orders filled',
      async () => (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).every((o) => o?.status === 'filled'),
      120_000,
    )
    const batch = (await batchOf(slug, 0))!
    await h.waitFor('a few more blocks', async () => (await h.client.getBlockNumber({ cacheTime: 0 })) > BigInt(batch.execution!.blockNumber) + 3n, 120_000)
    await h.stopMining()

    // In the spec's priority order: the larger spend first.
    expect(batch.included.map((e) => e.keyId)).toEqual([...buyers].reverse().map((b) => b.keyId))
    expect(batch.included.map((e) => e.rank)).toEqual(spends.map((_s, i) => i))
    expect(batch.excluded).toEqual([
      { keyId: limited.keyId, slug, wallet: limited.wallet, spendAtoms: limitedSpend.toString(), rank: unlimited, reason: 'limit_below_clearing' },
    ])
    // No included order had a limit: none is committed.
    expect(batch.lowestLimitFdv).toBeNull()
    // Left out, it did not buy above its limit: still active (the price only rose), its stablecoin untouched.
    expect((await h.getOrder(limited, slug))?.status).toBe('active')
    expect(await h.usdcOf(limited.wallet)).toBe(100n * USDC)

    // The tick decision says the same (one vocabulary): the batch's tick gives the left-out order its reason.
    const decisions = await h.journal.decisionsOf(slug)
    const batchTick = decisions.find((d) => d.batchId === batch.batchId)!
    expect(batchTick.orders.find((o) => o.keyId === limited.keyId)?.verdict).toBe('limit_below_clearing')
    expect(
      batchTick.orders
        .filter((o) => o.verdict === 'submitted')
        .map((o) => o.keyId)
        .sort(),
    ).toEqual(buyers.map((b) => b.keyId).sort())
    // The clearing's inputs are journaled: every candidate, and the pool's answer (the real swap quoted) for each size tried.
    expect(batch.clearing).toMatchObject({ pool: 'quote', policy: 'spend-desc-then-limit-desc' })
    expect(batch.clearing!.candidates).toHaveLength(unlimited + 1)
    expect(batch.clearing!.evaluations.length).toBeGreaterThan(0)

    // executions replay --check on the real journal: the batch's inclusion, committed limit and allocation are reproduced.
    const journal = await h.services.executions.journalOf(slug)
    const check = checkReplays(slug, replayAll(journal), replayBatches(journal))
    expect(check.batches.differing).toEqual([])
    expect(check.batches.count).toBeGreaterThan(0)
    expect(check.batches.checkable).toBe(check.batches.count)
    expect(check.batches.allocationsChecked).toBeGreaterThan(0)
    // Left out of the batch is not a planning regression either.
    expect(check.differing.flatMap((d) => d.differences).filter((line) => line.includes(limited.keyId))).toEqual([])

    // A journal tampered with: the left-out order moved into the batch, one fill credited an atom more. The check fails
    // naming the batch and the orders.
    const tampered = structuredClone(journal)
    const first = tampered.batches!.find((b) => b.batchId === batch.batchId)!
    const out = first.excluded.shift()!
    first.included.push({ ...first.included[0]!, keyId: out.keyId, rank: out.rank, spendAtoms: out.spendAtoms })
    const fill = tampered.events.find((e) => e.to === 'filled' && e.txHash === batch.execution!.txHash && e.keyId === buyers[0]!.keyId)!
    fill.tokensReceived = (BigInt(fill.tokensReceived!) + 1n).toString()
    const failed = checkReplays(slug, replayAll(tampered), replayBatches(tampered))
    expect(checkDiffers(failed)).toBe(true)
    const differing = failed.batches.differing.find((d) => d.batchId === batch.batchId)!
    expect(differing.differences).toContain(`order ${limited.keyId}: included at rank ${unlimited}, today left out (limit_below_clearing) at rank ${unlimited}`)
    expect(differing.differences.some((line) => line.startsWith(`order ${buyers[0]!.keyId}: credited ${fill.tokensReceived} tokens`))).toBe(true)
    expect(checkText(failed).join('\n')).toContain(`batch 0 ${batch.batchId}`)
  }, 400_000)
})
