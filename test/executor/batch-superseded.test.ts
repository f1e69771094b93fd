import { decodeFunctionData, type Hash, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { checkReplays, replayAll, replayBatches } from '../../src/console/replay/replay-check.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { fdvOf } from './fdv-of.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'
import { launchProbe } from './probe-launch.ts'
import { untilBatchSent } from './until-batch-sent.ts'
import { launchWithBatches } from './launch-with-batches.ts'
import { frontrunBatch } from './frontrun-batch.ts'

const USDC = 1_000_000n
const FUNDED = 100n * USDC

/**
 * docs/execution.md §8, "A price-reverted batch, superseded" (§6 known limit (1)). A batch A whose executeBatch was mined
 * and reverted for price (ClearingAboveLimit: a third party's large buy ahead of it in its block) is released at once and
 * its unlimited order bought in the next block's batch B, which names A (`supersedes`). A reorg then takes A's revert
 * block (and the third party's buy) away and A's signed transaction lands again, now at a price within its limit:
 * - (b) after B: the contract refuses A (BatchSuperseded), so the unlimited wallet pays once, in B;
 * - (c) before B (B still in the node's pool): A executes and B is refused (SupersededBatchPulled); the executor takes A
 *   back and settles both orders from A's BatchExecuted: each wallet pays once, in A, and nothing is lost.
 * Without `supersedes` both fail: A (in b) or B (in c) pulls the unlimited wallet a second time.
 */
describe('a price-reverted batch released at once is superseded by the next batch: whichever lands first, each wallet pays once (real devnet, reorgs, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true, approvalsAhead: false, senderAccounts: 3 })
    // Every sender account an operator of the batch buyer (batch-operators.ts), so batches go out from the pool: B from
    // another account than A (the least recently used lane), whose nonce does not follow A's.
    const senders = h.wallets.senderAddresses('base')
    expect(senders.length).toBe(3)
    const operators = async () =>
      (
        await Promise.all(
          senders.map((account) => h.client.readContract({ address: h.batchBuyer!, abi: batchBuyerAbi, functionName: 'operators', args: [account] })),
        )
      ).every(Boolean)
    await h.mineUntil('every sender account an operator', operators, 10, 'any')
    await h.prepareThirdParty('40000')
  }, 180_000)
  afterAll(async () => {
    await h?.stop()
  })

  const mineUntil = (what: string, done: () => Promise<boolean>, most: number) => h.mineUntil(what, done, most, 'any')

  /**
   * Two buyers of a quiet Doppler launch: `free` (30 USDC, no limit) and `limited` (10 USDC, an FDV limit twice what the
   * whole batch pays on an identical probe launch). Batch A (both) is sent; a third party's 20,000 USDC buy lands ahead
   * of it in its block, A reverts ClearingAboveLimit and is released; the next tick's batch B holds `free` alone (the
   * limited order's limit is now below the clearing) and names A. Returns once B executed (from another account).
   */
  async function revertedBatch(name: string, withFree = true) {
    const probe = await launchProbe(h, `${name}-probe`)
    const limitAtoms = 2n * (await fdvOf(h, probe, 40n * USDC))

    const { slug, creator } = await h.newProject(name, 'doppler')
    const free = await h.newBuyer(`${name}-free`, '100')
    if (withFree) await h.order(free, slug, '30', null)
    const limited = await h.newBuyer(`${name}-limited`, '100')
    await h.order(limited, slug, '10', String(limitAtoms / USDC))
    const buyers: Buyer[] = withFree ? [free, limited] : [limited]
    await h.approveBatchBuyer(buyers, '100')

    const { launched, batch } = await launchWithBatches(h, slug, creator)
    await untilBatchSent(h, 'batch A sent', () => batch(0))
    const a = (await batch(0))!
    expect(a.included.map((e) => e.keyId)).toEqual(buyers.map((buyer) => buyer.keyId))
    expect(a.lowestLimitFdv).not.toBeNull()

    // The third party's buy ahead of A in its block (a far higher tip): the clearing is then above the limited order's.
    const {
      receipt: aReceipt,
      frontrunReceipt,
      frontrun,
    } = await frontrunBatch(h, launched, a.txHash!, {
      what: 'A reverted and released',
      done: async () => (await batch(0))?.state === 'released',
      most: 4,
    })
    expect(aReceipt.status).toBe('reverted')
    expect(frontrunReceipt.blockNumber).toBe(aReceipt.blockNumber)
    const rawA = await jsonRpc<Hex>(h.chain.rpcUrl, 'eth_getRawTransactionByHash', [a.txHash!])
    return { slug, free, limited, buyers, launched, batch, a, aReceipt, rawA, frontrun }
  }

  async function revertedThenSuperseded(name: string) {
    const reverted = await revertedBatch(name)
    const { free, a, batch } = reverted
    // Released at once: its orders buy at the next block's price, the unlimited one in B, which names A.
    // B may be sent in the block that released A: mined until it is settled (its transaction from its own account).
    await mineUntil('B executed', async () => ['executed', 'swept'].includes((await batch(1))?.state ?? ''), 6)
    const b = (await batch(1))!
    expect(b.included.map((e) => e.keyId)).toEqual([free.keyId])
    expect(b.excluded.map((e) => e.keyId)).not.toContain(free.keyId)
    expect(b.from).not.toBe(a.from)
    return { ...reverted, b }
  }

  /** The batch's own executeBatch, asked of the chain now from its sender (eth_call): why it reverted. */
  const refusalOf = async (record: BatchRecord) => {
    const { args } = decodeFunctionData({ abi: batchBuyerAbi, data: (await h.client.getTransaction({ hash: record.txHash! })).input })
    return h.client.simulateContract({
      account: record.from!,
      address: h.batchBuyer!,
      abi: batchBuyerAbi,
      functionName: 'executeBatch',
      args: args as readonly unknown[],
    })
  }

  /**
   * The batches of this launch (its journaled records) that executed since `from`. Only this launch's: another test's
   * launch may still buy meanwhile (test (b)'s limited order may buy in a later batch), on the same contract.
   */
  const executedIds = async (from: bigint, batch: (sequence: number) => Promise<BatchRecord | undefined>) => {
    const ours = new Set<Hash>()
    for (let sequence = 0; ; sequence++) {
      const record = await batch(sequence)
      if (!record) break
      ours.add(record.batchId)
    }
    return (await h.client.getContractEvents({ address: h.batchBuyer!, abi: batchBuyerAbi, eventName: 'BatchExecuted', fromBlock: from }))
      .map((e) => (e.args as { batchId: Hash }).batchId)
      .filter((id) => ours.has(id))
  }

  it('(b) B lands, then a reorg brings A back after it: the contract refuses A, the unlimited wallet pays once (in B)', async () => {
    const { slug, free, limited, launched, batch, a, b, aReceipt, rawA } = await revertedThenSuperseded('superseded-after')
    expect((await h.getOrder(free, slug))?.status).toBe('filled')
    expect(await h.usdcOf(free.wallet)).toBe(FUNDED - 30n * USDC)
    const rawB = await jsonRpc<Hex>(h.chain.rpcUrl, 'eth_getRawTransactionByHash', [b.txHash!])

    // The reorg: every block from A's revert on replaced; the new chain holds B, then A's same signed transaction (the
    // third party's buy is gone, so A's clearing would now be within its limit).
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [
      Number(head - aReceipt.blockNumber + 1n),
      [
        [rawB, 0],
        [rawA, 1],
      ],
    ])
    const [bAgain, aAgain] = await Promise.all([h.client.getTransactionReceipt({ hash: b.txHash! }), h.client.getTransactionReceipt({ hash: a.txHash! })])
    expect(bAgain.status).toBe('success')
    expect(aAgain.status).toBe('reverted')
    expect(aAgain.blockNumber).toBeGreaterThan(bAgain.blockNumber)
    // Why A reverted: the contract says it is dead.
    await expect(refusalOf(a)).rejects.toThrow(/BatchSuperseded/)
    expect(await executedIds(launched.blockNumber, batch)).toEqual([b.batchId])

    await mineUntil(
      'B settled again from its new place',
      async () => {
        const record = await batch(1)
        return record?.execution?.blockNumber === bAgain.blockNumber.toString() && (await h.getOrder(free, slug))?.status === 'filled'
      },
      8,
    )
    // The limited order (its limit within reach again without the third party's buy) may buy in a later batch: once.
    for (let i = 0; i < 4; i++) await mineUntil('a block', async () => true, 1)
    await h.executor.idle()
    expect(await h.usdcOf(free.wallet)).toBe(FUNDED - 30n * USDC)
    const limitedOrder = await h.getOrder(limited, slug)
    expect(await h.usdcOf(limited.wallet)).toBe(limitedOrder?.status === 'filled' ? FUNDED - 10n * USDC : FUNDED)
    expect((await batch(0))?.state).toBe('released')
    expect((await h.getOrder(free, slug))?.execution?.txHash).toBe(b.txHash)
    expect(b.supersedes).toEqual([a.batchId])
    const journal = await h.services.executions.journalOf(slug)
    expect(checkReplays(slug, replayAll(journal), replayBatches(journal)).batches.differing).toEqual([])
  }, 400_000)

  it('(c) a reorg brings A back before B: A executes, B is refused; the executor takes A back and settles both orders from it, each wallet pays once', async () => {
    const { slug, free, limited, buyers, launched, batch, a, b, aReceipt, rawA } = await revertedThenSuperseded('superseded-before')
    expect((await h.getOrder(free, slug))?.execution?.txHash).toBe(b.txHash)
    const rawB = await jsonRpc<Hex>(h.chain.rpcUrl, 'eth_getRawTransactionByHash', [b.txHash!])
    // The reorg: every block from A's revert on replaced; the new chain holds A's same signed transaction first (the
    // third party's buy gone: within its limit now, it pulls both wallets), then B's, which the contract refuses.
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [
      Number(head - aReceipt.blockNumber + 1n),
      [
        [rawA, 0],
        [rawB, 1],
      ],
    ])
    const [aAgain, bAgain] = await Promise.all([h.client.getTransactionReceipt({ hash: a.txHash! }), h.client.getTransactionReceipt({ hash: b.txHash! })])
    expect(aAgain.status).toBe('success')
    expect(bAgain.status).toBe('reverted')
    expect(bAgain.blockNumber).toBeGreaterThan(aAgain.blockNumber)
    await expect(refusalOf(b)).rejects.toThrow(/SupersededBatchPulled/)
    expect(await h.usdcOf(free.wallet)).toBe(FUNDED - 30n * USDC)
    expect(await h.usdcOf(limited.wallet)).toBe(FUNDED - 10n * USDC)

    // B's fill is undone by the reorg (held under B), B's revert releases it, and the release takes A back: A settles both.
    await mineUntil(
      'both orders filled from A',
      async () => {
        const orders = await Promise.all(buyers.map((buyer) => h.getOrder(buyer, slug)))
        return orders.every((o) => o?.status === 'filled' && o.execution?.txHash === a.txHash)
      },
      10,
    )
    expect(await executedIds(launched.blockNumber, batch)).toEqual([a.batchId])
    const taken = (await batch(0))!
    expect(['executed', 'swept']).toContain(taken.state)
    expect(taken.cameBack).toBeDefined()
    expect(taken.execution?.txHash).toBe(a.txHash)
    expect((await batch(1))?.state).toBe('released')

    // A few blocks more: no other batch, each wallet paid its spend once; the sweep pays A's buyers.
    await mineUntil('A swept', async () => (await batch(0))?.state === 'swept', 10)
    for (let i = 0; i < 3; i++) await mineUntil('a block', async () => true, 1)
    await h.executor.idle()
    // A third batch may be planned between A's return and its take-back: the limited order is active there and within
    // reach again (the third party's buy is gone). It names A, so the contract refuses it and it takes nothing
    // (whether it exists depends on which comes first on a busy machine, the next tick or the take-back).
    const third = await batch(2)
    if (third) {
      expect(third.supersedes).toContain(a.batchId)
      expect(third.state).toBe('released')
    }
    expect(await executedIds(launched.blockNumber, batch)).toEqual([a.batchId])
    expect(await h.usdcOf(free.wallet)).toBe(FUNDED - 30n * USDC)
    expect(await h.usdcOf(limited.wallet)).toBe(FUNDED - 10n * USDC)
    for (const buyer of buyers) expect(await h.tokenBalance(launched.token, buyer.wallet)).toBeGreaterThan(0n)
    const events = await h.journal.orderEventsOf(free.keyId, slug)
    expect(events.map((e) => `${e.from}->${e.to}`).slice(-3)).toEqual(['executing->active', 'active->executing', 'executing->filled'])
    expect(events.at(-1)?.txHash).toBe(a.txHash)
    expect(b.supersedes).toEqual([a.batchId])
    const journal = await h.services.executions.journalOf(slug)
    expect(checkReplays(slug, replayAll(journal), replayBatches(journal)).batches.differing).toEqual([])
  }, 400_000)

  it('(d) no batch after A (its only order limited, out of reach): a reorg brings A back; the executor sees it pulled on the next block, takes it back and fills the order from it', async () => {
    const { slug, limited, launched, batch, a, aReceipt, rawA, frontrun } = await revertedBatch('superseded-alone', false)
    // Its order is active and out of reach at the moved price: no batch follows.
    for (let i = 0; i < 2; i++) await mineUntil('a block', async () => true, 1)
    await h.executor.idle()
    expect(await batch(1)).toBeUndefined()
    expect((await h.getOrder(limited, slug))?.status).toBe('active')
    // The reorg: A's same signed transaction first, the third party's buy after it in the same block (the price moves
    // out of the order's reach again: no later batch would buy it, so only recognising A can record its payment).
    const rawFrontrun = await jsonRpc<Hex>(h.chain.rpcUrl, 'eth_getRawTransactionByHash', [frontrun])
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [
      Number(head - aReceipt.blockNumber + 1n),
      [
        [rawA, 0],
        [rawFrontrun, 0],
      ],
    ])
    const [aAgain, frontrunAgain] = await Promise.all([h.client.getTransactionReceipt({ hash: a.txHash! }), h.client.getTransactionReceipt({ hash: frontrun })])
    expect(aAgain.status).toBe('success')
    expect(frontrunAgain.blockNumber).toBe(aAgain.blockNumber)
    expect(frontrunAgain.transactionIndex).toBeGreaterThan(aAgain.transactionIndex)
    expect(await h.usdcOf(limited.wallet)).toBe(FUNDED - 10n * USDC)

    await mineUntil(
      'the order filled from A',
      async () => {
        const order = await h.getOrder(limited, slug)
        return order?.status === 'filled' && order.execution?.txHash === a.txHash
      },
      6,
    )
    await mineUntil('A swept', async () => (await batch(0))?.state === 'swept', 10)
    for (let i = 0; i < 2; i++) await mineUntil('a block', async () => true, 1)
    await h.executor.idle()
    expect((await batch(0))?.cameBack).toBeDefined()
    expect(await batch(1)).toBeUndefined()
    expect(await executedIds(launched.blockNumber, batch)).toEqual([a.batchId])
    expect(await h.usdcOf(limited.wallet)).toBe(FUNDED - 10n * USDC)
    expect(await h.tokenBalance(launched.token, limited.wallet)).toBeGreaterThan(0n)
    const journal = await h.services.executions.journalOf(slug)
    expect(checkReplays(slug, replayAll(journal), replayBatches(journal)).batches.differing).toEqual([])
  }, 400_000)
})
