import { type Address, decodeFunctionData, type Hash, type Hex, isAddressEqual } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { checkReplays, replayAll, replayBatches } from '../../src/console/replay/replay-check.ts'
import { fdvOf } from './fdv-of.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'
import { launchProbe } from './probe-launch.ts'
import { untilBatchSent } from './until-batch-sent.ts'
import { launchWithBatches } from './launch-with-batches.ts'
import { frontrunBatch } from './frontrun-batch.ts'

const USDC = 1_000_000n
const FUNDED = 100n * USDC
/** One buyer per transaction: the two-buyer batch A is a split batch (two collects, then a settle); B (one buyer) is an executeBatch. */
const PER_TX = 1

/**
 * docs/execution.md §8, "A price-reverted batch, superseded", its split path (take-back-released-batch.ts, run-batch.ts,
 * resolve-split-batch.ts). A split batch A (two collects, then a settle) whose settle was mined and reverted for price
 * (ClearingAboveLimit: a third party's large buy ahead of it in its block) is cancelled, refunded and released; the next
 * block's batch B buys its unlimited order and names A (`supersedes`). A reorg then replays the blocks from there with
 * every transaction of ours, in the same order and with the same signatures (so every account's nonces stay whole), but:
 * - (settled) without the third party's buy: A's settle lands within its limit and settles, B is refused
 *   (SupersededBatchPulled); B's release takes A back and both orders are filled from A's BatchSettled, swept;
 * - (reopened) without A's cancel (and whatever its sender sent after it): A's collection is open again (collecting)
 *   when B lands, so B is refused; B's release takes A back, which is cancelled again, refunded, and released; its
 *   unlimited order buys once in a third batch.
 * - (watched) with two limited orders and no B (both out of reach after the third party's buy): the third party's buy
 *   moved after A's settle in its block: A settles, and the runner's per-block watch (no successor to be refused) takes
 *   it back and fills both orders from it.
 * Each wallet pays its spend at most once, every order ends filled or active with its money accounted, and
 * `executions replay --check` passes. (settled) and (reopened) fail without the names (B pulls the unlimited wallet a
 * second time); all three fail without the take-back ((settled), (watched): the orders are not filled from A;
 * (reopened): A's collection is never cancelled again, its 40 USDC stay in the contract); (watched) fails without the
 * watch.
 */
describe('a price-reverted split batch, released and superseded, comes back after a reorg: at most one of it and its successor pulls, each wallet pays once (real devnet, reorgs, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true, approvalsAhead: false, senderAccounts: 3, maxBuyersPerTransaction: PER_TX })
    h.startMining()
    await h.waitFor('every sender an operator', async () => h.executor.batchOperatorsReady('base'), 60_000)
    await h.stopMining()
    await h.prepareThirdParty('40000')
  }, 180_000)
  afterAll(async () => {
    await h?.stop()
  })

  const mineUntil = (what: string, done: () => Promise<boolean>, most: number) => h.mineUntil(what, done, most, 'any')

  /** Every transaction in blocks [from, head], in chain order, with its block and its signed raw form. */
  async function transactionsFrom(from: bigint) {
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    const out: Array<{ hash: Hash; from: Address; to: Address | null; input: Hex; block: bigint; raw: Hex }> = []
    for (let n = from; n <= head; n++) {
      const block = await h.client.getBlock({ blockNumber: n, includeTransactions: true })
      for (const tx of block.transactions) {
        const raw = await jsonRpc<Hex>(h.chain.rpcUrl, 'eth_getRawTransactionByHash', [tx.hash])
        out.push({ hash: tx.hash, from: tx.from, to: tx.to, input: tx.input, block: n, raw })
      }
    }
    return { head, txs: out }
  }

  const callOf = (tx: { to: Address | null; input: Hex }) => {
    if (!tx.to || !isAddressEqual(tx.to, h.batchBuyer!)) return undefined
    try {
      return decodeFunctionData({ abi: batchBuyerAbi, data: tx.input })
    } catch {
      return undefined
    }
  }

  const collectionStatus = async (batchId: Hash) => {
    const c = (await h.client.readContract({ address: h.batchBuyer!, abi: batchBuyerAbi, functionName: 'collections', args: [batchId] })) as unknown
    // The status field, by name (the getter returns the struct's fields as a tuple).
    const fields = c as readonly unknown[]
    const names = batchBuyerAbi.find((i) => i.type === 'function' && i.name === 'collections') as { outputs: readonly { name: string }[] }
    return Number(fields[names.outputs.findIndex((o) => o.name === 'status')])
  }

  /**
   * Two buyers of a quiet Doppler launch: `free` (30 USDC, no limit) and `limited` (10 USDC, an FDV limit twice what the
   * whole batch pays on an identical probe launch). The split batch A (both: two collects and a settle) is sent; a third
   * party's 20,000 USDC buy lands ahead of its settle in its block, the settle reverts ClearingAboveLimit, A is cancelled,
   * refunded and released; the next tick's batch B (an executeBatch) holds `free` alone and names A. Returns once B
   * executed.
   */
  async function revertedSplit(name: string, alone = false) {
    const probe = await launchProbe(h, `${name}-probe`)
    const limitAtoms = 2n * (await fdvOf(h, probe, (alone ? 20n : 40n) * USDC))

    const { slug, creator } = await h.newProject(name, 'doppler')
    // `alone`: a second limited order in place of the unlimited one (no batch can follow A at the moved price).
    const free = await h.newBuyer(`${name}-${alone ? 'limited-2' : 'free'}`, '100')
    await h.order(free, slug, alone ? '10' : '30', alone ? String(limitAtoms / USDC) : null)
    const limited = await h.newBuyer(`${name}-limited`, '100')
    await h.order(limited, slug, '10', String(limitAtoms / USDC))
    const buyers: Buyer[] = [free, limited]
    await h.approveBatchBuyer(buyers, '100')

    const { launched, batch } = await launchWithBatches(h, slug, creator)
    // The settle sent and not mined yet (its hash is the record's txHash once the collects' sends returned).
    await untilBatchSent(h, 'A settle sent', () => batch(0))
    const a = (await batch(0))!
    expect(a.split?.chunks).toHaveLength(2)
    expect(a.included.map((e) => e.keyId).sort()).toEqual(buyers.map((buyer) => buyer.keyId).sort())
    expect(a.lowestLimitFdv).not.toBeNull()

    // The third party's buy ahead of A's settle in its block (a far higher tip): the clearing is then above the limited order's.
    const {
      receipt: settleReceipt,
      frontrunReceipt,
      frontrun,
    } = await frontrunBatch(h, launched, a.txHash!, {
      what: 'A reverted, cancelled, refunded and released',
      done: async () => (await batch(0))?.state === 'released',
      most: 8,
    })
    expect(settleReceipt.status).toBe('reverted')
    expect(frontrunReceipt.blockNumber).toBe(settleReceipt.blockNumber)
    expect(await collectionStatus(a.batchId)).toBe(3) // cancelled
    // Refunded: both wallets whole again.
    for (const buyer of buyers) expect(await h.usdcOf(buyer.wallet)).toBe(FUNDED)

    return { slug, free, limited, buyers, launched, batch, a, settleReceipt, frontrun }
  }

  async function supersededSplit(name: string) {
    const reverted = await revertedSplit(name)
    const { slug, free, batch, a } = reverted
    await mineUntil('B executed', async () => ['executed', 'swept'].includes((await batch(1))?.state ?? ''), 6)
    const b = (await batch(1))!
    expect(b.split).toBeUndefined()
    expect(b.included.map((e) => e.keyId)).toEqual([free.keyId])
    expect(b.supersedes).toEqual([a.batchId])
    expect((await h.getOrder(free, slug))?.execution?.txHash).toBe(b.txHash)
    expect(await h.usdcOf(free.wallet)).toBe(FUNDED - 30n * USDC)
    // Its sweep too, so the replayed blocks hold everything of ours.
    await mineUntil('B swept', async () => (await batch(1))?.state === 'swept', 6)
    await h.executor.idle()
    return { ...reverted, b }
  }

  type ChainTx = { hash: Hash; from: Address; to: Address | null; input: Hex }
  /**
   * Replaces blocks [from, head] with new ones holding the same transactions at the same offsets, less those `left`;
   * `instead` gives one a stand-in (a JSON request anvil signs for an impersonated sender: its nonce kept whole).
   */
  async function replay(from: bigint, left: (tx: ChainTx) => boolean, instead?: (tx: ChainTx) => Record<string, unknown> | undefined) {
    const { head, txs } = await transactionsFrom(from)
    const kept = txs.filter((tx) => !left(tx))
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [Number(head - from + 1n), kept.map((tx) => [instead?.(tx) ?? tx.raw, Number(tx.block - from)])])
    return { txs, kept }
  }

  const journalChecks = async (slug: string) => {
    const journal = await h.services.executions.journalOf(slug)
    expect(checkReplays(slug, replayAll(journal), replayBatches(journal)).batches.differing).toEqual([])
  }

  it('(settled) a reorg without the third party lets A settle before B: B is refused, A is taken back and fills both orders, each wallet pays once', async () => {
    const { slug, free, limited, buyers, launched, batch, a, b, settleReceipt, frontrun } = await supersededSplit('split-superseded-settled')
    const { kept } = await replay(settleReceipt.blockNumber, (tx) => tx.hash === frontrun)
    expect(kept.map((tx) => tx.hash)).toContain(b.txHash)
    // Each wallet pulled once, by A (without B's names, B pulls the unlimited wallet a second time).
    expect(await h.usdcOf(free.wallet)).toBe(FUNDED - 30n * USDC)
    expect(await h.usdcOf(limited.wallet)).toBe(FUNDED - 10n * USDC)
    const [settleAgain, bAgain] = await Promise.all([h.client.getTransactionReceipt({ hash: a.txHash! }), h.client.getTransactionReceipt({ hash: b.txHash! })])
    expect(settleAgain.status).toBe('success')
    expect(bAgain.status).toBe('reverted')
    expect(await collectionStatus(a.batchId)).toBe(2) // settled
    // Why B reverted: it names A, which pulled.
    const { args } = decodeFunctionData({ abi: batchBuyerAbi, data: (await h.client.getTransaction({ hash: b.txHash! })).input })
    await expect(
      h.client.simulateContract({ account: b.from!, address: h.batchBuyer!, abi: batchBuyerAbi, functionName: 'executeBatch', args: args as never }),
    ).rejects.toThrow(/SupersededBatchPulled/)

    // B's fill is undone (held under B), B's revert releases it, and the release takes A back: A's settle fills both.
    await mineUntil(
      'both orders filled from A',
      async () => {
        const orders = await Promise.all(buyers.map((buyer) => h.getOrder(buyer, slug)))
        return orders.every((o) => o?.status === 'filled' && o.execution?.txHash === a.txHash)
      },
      10,
    )
    await mineUntil('A swept', async () => (await batch(0))?.state === 'swept', 10)
    for (let i = 0; i < 3; i++) await mineUntil('a block', async () => true, 1)
    await h.executor.idle()
    const taken = (await batch(0))!
    expect(taken.cameBack).toBeDefined()
    expect(taken.execution?.txHash).toBe(a.txHash)
    expect((await batch(1))?.state).toBe('released')
    // The limited order, active after A's release and within reach again on the new chain, may be planned into a third
    // batch before A is taken back: that batch names A (and B) and the contract refuses it, so it pulls nothing.
    const third = await batch(2)
    if (third) {
      expect(third.state).toBe('released')
      expect(third.supersedes).toEqual(expect.arrayContaining([a.batchId]))
      expect((await h.client.getTransactionReceipt({ hash: third.txHash! })).status).toBe('reverted')
    }
    expect(await batch(3)).toBeUndefined()
    const settled = await h.client.getContractEvents({ address: h.batchBuyer!, abi: batchBuyerAbi, eventName: 'BatchSettled', fromBlock: launched.blockNumber })
    expect(settled.map((e) => (e.args as { batchId: Hash }).batchId)).toEqual([a.batchId])
    const executed = await h.client.getContractEvents({
      address: h.batchBuyer!,
      abi: batchBuyerAbi,
      eventName: 'BatchExecuted',
      fromBlock: launched.blockNumber,
    })
    expect(executed).toEqual([])
    expect(await h.usdcOf(free.wallet)).toBe(FUNDED - 30n * USDC)
    expect(await h.usdcOf(limited.wallet)).toBe(FUNDED - 10n * USDC)
    for (const buyer of buyers) expect(await h.tokenBalance(launched.token, buyer.wallet)).toBeGreaterThan(0n)
    const moves = (await h.journal.orderEventsOf(free.keyId, slug)).map((e) => `${e.from}->${e.to}`)
    expect(moves.slice(-3)).toEqual(['executing->active', 'active->executing', 'executing->filled'])
    await journalChecks(slug)
  }, 400_000)

  it('(reopened) a reorg without A cancel: A is collecting again when B lands, B is refused, A is taken back, cancelled and refunded again, and its unlimited order buys once later', async () => {
    const { slug, free, limited, launched, batch, a, b } = await supersededSplit('split-superseded-reopened')
    const { txs } = await transactionsFrom(launched.blockNumber)
    const cancel = txs.find((tx) => {
      const call = callOf(tx)
      return call?.functionName === 'cancel' && call.args?.[0] === a.batchId
    })!
    expect(cancel).toBeDefined()
    // From the cancel's block on: every transaction again, the cancel replaced by a plain transfer from its sender at its
    // nonce (so its sender's later transactions, B among them perhaps, keep theirs).
    const { nonce } = await h.client.getTransaction({ hash: cancel.hash })
    await jsonRpc(h.chain.rpcUrl, 'anvil_impersonateAccount', [cancel.from])
    const { kept } = await replay(
      cancel.block,
      () => false,
      (tx) =>
        tx.hash === cancel.hash
          ? {
              from: cancel.from,
              to: cancel.from,
              value: '0x0',
              gas: '0x5208',
              nonce: `0x${nonce.toString(16)}`,
              maxFeePerGas: '0x3b9aca000',
              maxPriorityFeePerGas: '0x1',
            }
          : undefined,
    )
    await jsonRpc(h.chain.rpcUrl, 'anvil_stopImpersonatingAccount', [cancel.from])
    expect(kept.map((tx) => tx.hash)).toContain(b.txHash)
    expect((await h.client.getTransaction({ hash: cancel.hash }).catch(() => undefined))?.blockNumber ?? null).toBeNull()
    // Each wallet's money once, in A's collection (without B's names, B pulls the unlimited wallet a second time).
    expect(await h.usdcOf(free.wallet)).toBe(FUNDED - 30n * USDC)
    expect(await h.usdcOf(limited.wallet)).toBe(FUNDED - 10n * USDC)
    const bAgain = await h.client.getTransactionReceipt({ hash: b.txHash! })
    expect(bAgain.status).toBe('reverted')
    // A's collection is open again (collecting: its collects in, its settle reverted, no cancel), so B was refused.
    expect(await collectionStatus(a.batchId)).toBe(1)
    const { args } = decodeFunctionData({ abi: batchBuyerAbi, data: (await h.client.getTransaction({ hash: b.txHash! })).input })
    await expect(
      h.client.simulateContract({ account: b.from!, address: h.batchBuyer!, abi: batchBuyerAbi, functionName: 'executeBatch', args: args as never }),
    ).rejects.toThrow(/SupersededBatchPulled/)

    // B's fill undone and held, B released, A taken back: cancelled again, refunded, released; the unlimited order buys
    // in a third batch (the limited one stays out of reach: the third party's buy is still there).
    await mineUntil('A cancelled again', async () => (await collectionStatus(a.batchId)) === 3, 10)
    await mineUntil(
      'the unlimited order filled in a third batch',
      async () => {
        const third = await batch(2)
        return third !== undefined && (await h.getOrder(free, slug))?.status === 'filled' && (await h.getOrder(free, slug))?.execution?.txHash === third.txHash
      },
      12,
    )
    await mineUntil('the third batch swept', async () => (await batch(2))?.state === 'swept', 10)
    for (let i = 0; i < 3; i++) await mineUntil('a block', async () => true, 1)
    await h.executor.idle()
    const taken = (await batch(0))!
    expect(taken.cameBack).toBeDefined()
    expect(taken.state).toBe('released')
    expect((await batch(1))?.state).toBe('released')
    const third = (await batch(2))!
    expect(third.included.map((e) => e.keyId)).toEqual([free.keyId])
    expect(third.supersedes).toContain(b.batchId)
    expect(await batch(3)).toBeUndefined()
    // A's collected 40 USDC refunded on this chain, once.
    const refunded = await h.client.getContractEvents({
      address: h.batchBuyer!,
      abi: batchBuyerAbi,
      eventName: 'ChunkRefunded',
      args: { batchId: a.batchId },
      fromBlock: launched.blockNumber,
    })
    expect(refunded.reduce((sum, e) => sum + (e.args as { amount: bigint }).amount, 0n)).toBe(40n * USDC)
    expect(await h.usdcOf(free.wallet)).toBe(FUNDED - 30n * USDC)
    expect(await h.usdcOf(limited.wallet)).toBe(FUNDED)
    expect((await h.getOrder(limited, slug))?.status).toBe('active')
    expect(await h.tokenBalance(launched.token, free.wallet)).toBeGreaterThan(0n)
    await journalChecks(slug)
  }, 400_000)

  it('(watched) no batch after A (both its orders limited, out of reach): a reorg lets A settle; the per-block watch takes it back and fills both orders from it', async () => {
    const { slug, buyers, launched, batch, a, settleReceipt, frontrun } = await revertedSplit('split-superseded-watched', true)
    for (let i = 0; i < 2; i++) await mineUntil('a block', async () => true, 1)
    await h.executor.idle()
    expect(await batch(1)).toBeUndefined()
    // The reorg: the same transactions from A's settle block on, the third party's buy moved after A's settle in that
    // block (the price out of the orders' reach again: no later batch buys them, so only taking A back records them).
    const { head, txs } = await transactionsFrom(settleReceipt.blockNumber)
    const first = txs.filter((tx) => tx.block === settleReceipt.blockNumber && tx.hash !== frontrun)
    const moved = txs.find((tx) => tx.hash === frontrun)!
    const later = txs.filter((tx) => tx.block !== settleReceipt.blockNumber)
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [
      Number(head - settleReceipt.blockNumber + 1n),
      [...first, moved, ...later].map((tx) => [tx.raw, Number(tx.block - settleReceipt.blockNumber)]),
    ])
    const [settleAgain, frontrunAgain] = await Promise.all([
      h.client.getTransactionReceipt({ hash: a.txHash! }),
      h.client.getTransactionReceipt({ hash: frontrun }),
    ])
    expect(settleAgain.status).toBe('success')
    expect(frontrunAgain.blockNumber).toBe(settleAgain.blockNumber)
    expect(frontrunAgain.transactionIndex).toBeGreaterThan(settleAgain.transactionIndex)
    expect(await collectionStatus(a.batchId)).toBe(2) // settled
    for (const buyer of buyers) expect(await h.usdcOf(buyer.wallet)).toBe(FUNDED - 10n * USDC)

    await mineUntil(
      'both orders filled from A',
      async () => {
        const orders = await Promise.all(buyers.map((buyer) => h.getOrder(buyer, slug)))
        return orders.every((o) => o?.status === 'filled' && o.execution?.txHash === a.txHash)
      },
      6,
    )
    await mineUntil('A swept', async () => (await batch(0))?.state === 'swept', 10)
    for (let i = 0; i < 2; i++) await mineUntil('a block', async () => true, 1)
    await h.executor.idle()
    expect((await batch(0))?.cameBack).toBeDefined()
    expect(await batch(1)).toBeUndefined()
    for (const buyer of buyers) {
      expect(await h.usdcOf(buyer.wallet)).toBe(FUNDED - 10n * USDC)
      expect(await h.tokenBalance(launched.token, buyer.wallet)).toBeGreaterThan(0n)
    }
    await journalChecks(slug)
  }, 400_000)
})
