import { type Address, erc20Abi, type Hash, keccak256, parseUnits, stringToHex } from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi as batchAbi, batchEntry } from '../../daemon/executor/batch-buyer-abi.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { fundAccount } from '../../devnet/chain/faucet.ts'
import { EIP_7825_TX_GAS_CAP } from '../../src/chain/tx-gas-cap.ts'
import { allocateBatch } from '../../src/domain/batch/batch-allocation.ts'
import { maxBuyersPerBatch } from '../../src/domain/batch/clear-batch.ts'
import { paidWords as toPaidWords } from '../../src/domain/batch/paid-words.ts'
import { planCollectChunks } from '../../src/domain/batch/plan-collect-chunks.ts'
import { seededRandom } from '../support/seeded-random.ts'
import { setStablecoinSlots } from '../support/stablecoin-slots.ts'
import {
  batchEvents,
  fundThroughSlots,
  type LaunchedPool,
  launchDopplerPool,
  routeOf,
  type SplitBatchDevnet,
  slotBuyers,
  startSplitBatchDevnet,
} from '../support/split-batch-devnet.ts'

const FUNDED = 100n * 10n ** 6n
const ALLOWED = parseUnits('1000', 6)
const SETTLE_WINDOW_BLOCKS = 300
/** The collects' last block (validUntilBlock): far ahead, the calldata size of a Base block number (four non-zero bytes). */
const UNTIL = 2n ** 32n - 1n

let d: SplitBatchDevnet
let pool: LaunchedPool
let stranger: PrivateKeyAccount
/** Funded and approving through storage slots (no keys): the bulk of every batch. */
let buyers: Address[]
/** A real account that funds, approves and then withdraws with its own transactions. */
let withdrawer: PrivateKeyAccount

/** Gas figures reported at the end (docs/execution.md §8 quotes a run). */
const gas: Record<string, number> = {}

const batchIdOf = (name: string): Hash => keccak256(stringToHex(`batch-collect-test:${name}`))
const usdcOf = (a: Address) => d.client.readContract({ address: d.chain.addresses.stablecoin, abi: erc20Abi, functionName: 'balanceOf', args: [a] })
const tokensOf = (a: Address) => d.client.readContract({ address: pool.token, abi: erc20Abi, functionName: 'balanceOf', args: [a] })
const collection = async (batchId: Hash) => {
  const [stablecoin, settleBy, status, buyersPaid, collected, minPaid, chunks, chunksDone] = (await d.client.readContract({
    address: d.batch,
    abi: batchAbi,
    functionName: 'collections',
    args: [batchId],
  })) as readonly [Address, number, number, number, bigint, bigint, number, number]
  return { stablecoin, settleBy, status, buyersPaid, collected, minPaid, chunks, chunksDone }
}

async function send(account: PrivateKeyAccount, functionName: string, args: readonly unknown[], gasLimit = EIP_7825_TX_GAS_CAP) {
  const hash = await d.walletOf(account).writeContract({
    address: d.batch,
    abi: batchAbi,
    functionName,
    args,
    gas: gasLimit,
    chain: null,
    account,
  } as never)
  return d.confirm(hash, functionName)
}

async function collect(account: PrivateKeyAccount, batchId: Hash, chunk: number, entries: readonly bigint[], until = UNTIL) {
  const receipt = await send(account, 'collect', [batchId, d.chain.addresses.stablecoin, BigInt(chunk), entries, until, []])
  expect(receipt.status).toBe('success')
  const events = batchEvents(receipt)
  const collected = events.find((e) => e.eventName === 'ChunkCollected')!.args as { amount: bigint; buyersPaid: bigint; buyersSkipped: bigint }
  const skipped = events.filter((e) => e.eventName === 'CollectSkipped').map((e) => e.args.buyer as Address)
  const skippedIndices = events.filter((e) => e.eventName === 'CollectSkipped').map((e) => Number(e.args.index as bigint))
  return { receipt, collected, skipped, skippedIndices }
}

/** What the contract would answer, without sending: the revert's error name. */
const refusal = (account: PrivateKeyAccount, functionName: string, args: readonly unknown[]) =>
  d.client.simulateContract({ account, address: d.batch, abi: batchAbi, functionName, args } as never)

beforeAll(async () => {
  d = await startSplitBatchDevnet({ blockTime: 'auto', operators: 2 })
  pool = await launchDopplerPool(d, 'SPLIT')
  stranger = privateKeyToAccount(generatePrivateKey())
  await fundAccount(d.chain, stranger.address, { eth: '1' })
  buyers = slotBuyers('batch-collect-test', 1_100)
  await fundThroughSlots(d, buyers, FUNDED, ALLOWED)
  // The slots are the devnet stablecoin's balanceOf and allowance (stablecoin-slots.ts): checked, not assumed.
  expect(await usdcOf(buyers[0]!)).toBe(FUNDED)
  expect(await d.client.readContract({ address: d.chain.addresses.stablecoin, abi: erc20Abi, functionName: 'allowance', args: [buyers[799]!, d.batch] })).toBe(
    ALLOWED,
  )
  withdrawer = privateKeyToAccount(generatePrivateKey())
  await fundAccount(d.chain, withdrawer.address, { eth: '0.01', stablecoin: '100' })
  const approve = await d.walletOf(withdrawer).writeContract({
    address: d.chain.addresses.stablecoin,
    abi: erc20Abi,
    functionName: 'approve',
    args: [d.batch, ALLOWED],
    chain: null,
    account: withdrawer,
  })
  await d.confirm(approve, 'the withdrawer approval')
}, 600_000)

afterAll(async () => {
  await d?.stop()
  if (Object.keys(gas).length > 0) console.log(`split batch gas (devnet): ${JSON.stringify(gas)}`)
})

describe('PrebuyBatchBuyer split batch on the devnet (collect / settle / sweepChunk / cancel / refund)', () => {
  it('collects in chunks from two operators, settles once at one price, sweeps to exactly allocateBatch over all chunks; a withdrawn buyer is skipped', async () => {
    const batchId = batchIdOf('split')
    const random = seededRandom(5)
    const group: Address[] = [withdrawer.address, ...buyers.slice(0, 399)]
    const spends = group.map(() => BigInt(1 + Math.floor(random() * 50)) * 10n ** 6n)
    // The planner decides the chunks and who sends them; a small cap stands in for 2^24 so 400 buyers need 4 collects.
    const plan = planCollectChunks({
      buyers: group.length,
      perBuyerGas: 14_000n,
      collectFixedGas: 60_000n,
      settleGas: 500_000n,
      txGasCap: 2_000_000n,
      operators: 2,
    })
    expect(plan.collects.length).toBe(4)
    expect(new Set(plan.collects.map((c) => c.operator))).toEqual(new Set([0, 1]))

    // The withdrawer moves its funds away after approving, before the collect.
    const away = await d.walletOf(withdrawer).writeContract({
      address: d.chain.addresses.stablecoin,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [d.feeRecipient, FUNDED],
      chain: null,
      account: withdrawer,
    })
    await d.confirm(away, 'the withdrawal')
    const usdcBefore = await Promise.all(group.map(usdcOf))

    const chunkEntries = plan.collects.map((c) => group.slice(c.from, c.to).map((b, i) => batchEntry(b, spends[c.from + i]!)))
    const skipped: Address[] = []
    const skippedIndices: number[][] = []
    for (const c of plan.collects) {
      const r = await collect(d.operators[c.operator]!, batchId, c.chunk, chunkEntries[c.chunk]!)
      skipped.push(...r.skipped)
      skippedIndices[c.chunk] = r.skippedIndices
    }
    expect(skipped).toEqual([withdrawer.address])
    const paid = group.map((_, i) => (i === 0 ? 0n : spends[i]!))
    const totalIn = paid.reduce((a, b) => a + b, 0n)
    const state = await collection(batchId)
    expect(state).toMatchObject({ status: 1, collected: totalIn, chunks: 4, buyersPaid: 399 })
    expect(state.minPaid).toBe(paid.slice(1).reduce((a, b) => (b < a ? b : a)))
    // A chunk is collected once.
    await expect(refusal(d.operators[0]!, 'collect', [batchId, d.chain.addresses.stablecoin, 0n, chunkEntries[0]!, UNTIL, []])).rejects.toThrow(
      /ChunkAlreadyCollected/,
    )
    // Only operators collect and settle.
    await expect(refusal(stranger, 'collect', [batchId, d.chain.addresses.stablecoin, 9n, chunkEntries[0]!, UNTIL, []])).rejects.toThrow(/NotOperator/)
    await expect(refusal(stranger, 'settle', [batchId, routeOf(d, pool), 0n])).rejects.toThrow(/NotOperator/)
    // Nothing is refundable while the batch can still settle.
    await expect(refusal(stranger, 'refund', [batchId, 0n, chunkEntries[0]!, 0n, 1n])).rejects.toThrow(/NotRefundable/)

    const settler = d.operators[plan.settle.operator]!
    const settled = await send(settler, 'settle', [batchId, routeOf(d, pool), 0n])
    expect(settled.status).toBe('success')
    const event = batchEvents(settled).find((e) => e.eventName === 'BatchSettled')!.args as {
      totalIn: bigint
      tokensOut: bigint
      chunks: bigint
      buyersPaid: bigint
    }
    expect(event).toMatchObject({ totalIn, chunks: 4n, buyersPaid: 399n })
    // Settle once; no collect or refund after it.
    await expect(refusal(settler, 'settle', [batchId, routeOf(d, pool), 0n])).rejects.toThrow(/NotCollecting/)
    await expect(
      refusal(d.operators[0]!, 'collect', [batchId, d.chain.addresses.stablecoin, 9n, [batchEntry(buyers[700]!, 10n ** 6n)], UNTIL, []]),
    ).rejects.toThrow(/NotCollecting/)
    await expect(refusal(stranger, 'refund', [batchId, 0n, chunkEntries[0]!, 0n, 1n])).rejects.toThrow(/NotRefundable/)
    // Every buyer paid exactly its spend (the withdrawer nothing: it had nothing left).
    const usdcAfter = await Promise.all(group.map(usdcOf))
    for (let i = 0; i < group.length; i++) expect(usdcBefore[i]! - usdcAfter[i]!).toBe(paid[i])

    // The chunks' paid words as collected (a skipped buyer's amount zeroed), swept later by anyone.
    // Rebuilt as an executor would: each collect's calldata entries with its CollectSkipped indices zeroed.
    const paidWords = plan.collects.map((c) => toPaidWords(chunkEntries[c.chunk]!, skippedIndices[c.chunk]!))
    expect(paidWords.flat().map((w) => w & ((1n << 96n) - 1n))).toEqual(paid)
    await expect(refusal(stranger, 'sweepChunk', [batchId, 0n, chunkEntries[0]!, 0n, 1n])).rejects.toThrow(/WrongAllocation/)
    const half = Math.floor(paidWords[0]!.length / 2)
    let sweepGas = 0n
    for (const [chunk, from, to] of [[0, 0, half], [0, half, paidWords[0]!.length], ...paidWords.slice(1).map((w, k) => [k + 1, 0, w.length])] as Array<
      [number, number, number]
    >) {
      const r = await send(stranger, 'sweepChunk', [batchId, BigInt(chunk), paidWords[chunk]!, BigInt(from), BigInt(to)])
      expect(r.status).toBe('success')
      sweepGas += r.gasUsed
      // The fee recipient is paid only by the sweep that finishes the last chunk.
      const fee = batchEvents(r).find((e) => e.eventName === 'ChunkSwept')!.args.feeTotal as bigint
      if (chunk < 3) expect(fee).toBe(0n)
    }
    gas.sweepPerBuyer = Number(sweepGas / BigInt(group.length))
    await expect(refusal(stranger, 'sweepChunk', [batchId, 1n, paidWords[1]!, 0n, 1n])).rejects.toThrow(/WrongCursor/)

    // One price: every buyer's tokens are exactly allocateBatch over the chunks' paid words in order, over the batch's total.
    const expected = allocateBatch(event.tokensOut, paid)
    const got = await Promise.all(group.map(tokensOf))
    for (let i = 0; i < group.length; i++) expect(got[i]).toBe(expected.shares[i]!.net)
    expect(await tokensOf(d.feeRecipient)).toBe(expected.feeTotal)
    expect(got.reduce((a, b) => a + b, 0n) + expected.feeTotal).toBe(event.tokensOut)
    expect(await tokensOf(d.batch)).toBe(0n)
    expect(await usdcOf(d.batch)).toBe(0n)
  }, 600_000)

  it('measures a collect per buyer and a settle (fixed), and how many buyers one collect holds under 2^24', async () => {
    const batchId = batchIdOf('gas')
    const group = buyers.slice(400, 710)
    const entries = group.map((b, i) => batchEntry(b, BigInt(1 + (i % 40)) * 10n ** 6n))
    // The first collect of a batch also opens it (its collection's slots); the second and third differ only in size.
    const first = await collect(d.operators[0]!, batchId, 0, entries.slice(0, 10))
    const small = await collect(d.operators[1]!, batchId, 1, entries.slice(10, 20))
    const big = await collect(d.operators[0]!, batchId, 2, entries.slice(20))
    const perBuyer = (big.receipt.gasUsed - small.receipt.gasUsed) / BigInt(entries.length - 30)
    const fixed = small.receipt.gasUsed - perBuyer * 10n
    const settled = await send(d.operators[1]!, 'settle', [batchId, routeOf(d, pool), 0n])
    expect(settled.status).toBe('success')
    Object.assign(gas, {
      collectFirst10: Number(first.receipt.gasUsed),
      collect10: Number(small.receipt.gasUsed),
      [`collect${entries.length - 20}`]: Number(big.receipt.gasUsed),
      collectPerBuyer: Number(perBuyer),
      collectFixed: Number(fixed),
      collectOpenExtra: Number(first.receipt.gasUsed - small.receipt.gasUsed),
      settle: Number(settled.gasUsed),
      collectMaxBuyersUnder2pow24: maxBuyersPerBatch({
        txGasCap: EIP_7825_TX_GAS_CAP,
        fixedGas: fixed + (first.receipt.gasUsed - small.receipt.gasUsed),
        perBuyerGas: perBuyer,
        margin: 1,
      }),
    })
    // executeBatch (committed allocation) on the same kind of buyers, the same sizes: the pull and the hash are the
    // same code, so a collect's buyer should cost what executeBatch's does (the split adds no per-buyer work).
    const execGas = async (name: string, words: bigint[]) => {
      const r = await send(d.operators[0]!, 'executeBatch', [batchIdOf(name), routeOf(d, pool), words, 0n, false, UNTIL, []])
      expect(r.status).toBe('success')
      return r.gasUsed
    }
    const execWords = buyers.slice(800, 1_100).map((b, i) => batchEntry(b, BigInt(1 + (i % 40)) * 10n ** 6n))
    const exec10 = await execGas('exec-gas-10', execWords.slice(0, 10))
    const exec290 = await execGas('exec-gas-290', execWords.slice(10))
    const execPerBuyer = (exec290 - exec10) / 280n
    gas.executeBatchPerBuyerSameBuyers = Number(execPerBuyer)
    const diff = perBuyer > execPerBuyer ? perBuyer - execPerBuyer : execPerBuyer - perBuyer
    expect(diff).toBeLessThan(500n)
    // Swept so the contract holds nothing for the tests after this one.
    for (const [chunk, words] of [entries.slice(0, 10), entries.slice(10, 20), entries.slice(20)].entries()) {
      expect((await send(stranger, 'sweepChunk', [batchId, BigInt(chunk), words, 0n, BigInt(words.length)])).status).toBe('success')
    }
    // (executeBatch's two committed batches stay unswept: their tokens are the only ones the contract holds.)
    const held = (await Promise.all(
      ['exec-gas-10', 'exec-gas-290'].map((name) =>
        d.client.readContract({ address: d.batch, abi: batchAbi, functionName: 'batches', args: [batchIdOf(name)] }),
      ),
    )) as unknown as Array<readonly unknown[]>
    expect(await tokensOf(d.batch)).toBe(held.reduce((sum, b) => sum + (b[4] as bigint), 0n))
  }, 600_000)

  it('a settle above the committed limit reverts and takes nothing; the operator cancels; refunds return every collected amount exactly, once', async () => {
    const batchId = batchIdOf('refund')
    const group = buyers.slice(710, 750)
    const entries = group.map((b, i) => batchEntry(b, BigInt(3 + i) * 10n ** 6n))
    const before = await Promise.all(group.map(usdcOf))
    await collect(d.operators[0]!, batchId, 0, entries.slice(0, 20))
    await collect(d.operators[1]!, batchId, 1, entries.slice(20))
    const collected = (await collection(batchId)).collected
    // A limit of 1 atom of FDV: no swap clears it.
    await expect(refusal(d.operators[1]!, 'settle', [batchId, routeOf(d, pool), 1n])).rejects.toThrow(/ClearingAboveLimit/)
    const reverted = await send(d.operators[1]!, 'settle', [batchId, routeOf(d, pool), 1n], 3_000_000n)
    expect(reverted.status).toBe('reverted')
    expect(await collection(batchId)).toMatchObject({ status: 1, collected })
    expect(await usdcOf(d.batch)).toBe(collected)
    await expect(refusal(stranger, 'refund', [batchId, 0n, entries.slice(0, 20), 0n, 20n])).rejects.toThrow(/NotRefundable/)
    await expect(refusal(stranger, 'cancel', [batchId])).rejects.toThrow(/NotOperator/)

    expect((await send(d.operators[0]!, 'cancel', [batchId])).status).toBe('success')
    await expect(refusal(d.operators[0]!, 'cancel', [batchId])).rejects.toThrow(/NotCollecting/)
    await expect(refusal(d.operators[1]!, 'settle', [batchId, routeOf(d, pool), 0n])).rejects.toThrow(/NotCollecting/)
    await expect(
      refusal(d.operators[0]!, 'collect', [batchId, d.chain.addresses.stablecoin, 2n, [batchEntry(buyers[790]!, 10n ** 6n)], UNTIL, []]),
    ).rejects.toThrow(/NotCollecting/)
    // Anyone may send the refunds; chunk 0 in two parts, chunk 1 whole.
    let refunded = 0n
    for (const [chunk, words, from, to] of [
      [0, entries.slice(0, 20), 0, 7],
      [0, entries.slice(0, 20), 7, 20],
      [1, entries.slice(20), 0, 20],
    ] as Array<[number, bigint[], number, number]>) {
      const r = await send(stranger, 'refund', [batchId, BigInt(chunk), words, BigInt(from), BigInt(to)])
      expect(r.status).toBe('success')
      refunded += batchEvents(r).find((e) => e.eventName === 'ChunkRefunded')!.args.amount as bigint
    }
    expect(refunded).toBe(collected)
    expect(await Promise.all(group.map(usdcOf))).toEqual(before)
    expect(await usdcOf(d.batch)).toBe(0n)
    expect(await collection(batchId)).toMatchObject({ status: 3, chunks: 2, chunksDone: 2 })
    // No second refund.
    await expect(refusal(stranger, 'refund', [batchId, 0n, entries.slice(0, 20), 0n, 20n])).rejects.toThrow(/WrongCursor/)
    await expect(refusal(stranger, 'refund', [batchId, 1n, entries.slice(20), 20n, 20n])).rejects.toThrow(/WrongCursor/)
  }, 600_000)

  it(`past ${SETTLE_WINDOW_BLOCKS} blocks an unsettled batch can no longer settle or collect, and anyone refunds it`, async () => {
    const batchId = batchIdOf('expired')
    const group = buyers.slice(750, 760)
    const entries = group.map((b) => batchEntry(b, 7n * 10n ** 6n))
    const before = await Promise.all(group.map(usdcOf))
    await collect(d.operators[0]!, batchId, 0, entries)
    const { settleBy } = await collection(batchId)
    expect((await d.client.readContract({ address: d.batch, abi: batchAbi, functionName: 'SETTLE_WINDOW_BLOCKS' })) as bigint).toBe(
      BigInt(SETTLE_WINDOW_BLOCKS),
    )
    await jsonRpc(d.chain.rpcUrl, 'anvil_mine', [`0x${(SETTLE_WINDOW_BLOCKS + 1).toString(16)}`])
    // The head now (cacheTime 0): the client's cached number, set by the collect's receipt wait, may predate the mine.
    expect(await d.client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThan(BigInt(settleBy))
    await expect(refusal(d.operators[1]!, 'settle', [batchId, routeOf(d, pool), 0n])).rejects.toThrow(/SettleExpired/)
    await expect(
      refusal(d.operators[1]!, 'collect', [batchId, d.chain.addresses.stablecoin, 1n, [batchEntry(buyers[791]!, 10n ** 6n)], UNTIL, []]),
    ).rejects.toThrow(/NotCollecting/)
    expect((await send(stranger, 'refund', [batchId, 0n, entries, 0n, 10n])).status).toBe('success')
    expect(await Promise.all(group.map(usdcOf))).toEqual(before)
  }, 600_000)

  it('a refund the stablecoin refuses is reported and passed over: the chunk’s other buyers are refunded', async () => {
    const batchId = batchIdOf('refund-failed')
    const group = buyers.slice(760, 770)
    const entries = group.map((b) => batchEntry(b, 7n * 10n ** 6n))
    const before = await Promise.all(group.map(usdcOf))
    await collect(d.operators[1]!, batchId, 0, entries)
    expect((await send(d.operators[1]!, 'cancel', [batchId])).status).toBe('success')
    // The contract's stablecoin balance one refund short (as if the last buyer could not receive: the real USDC's
    // blocklist refuses a transfer to a blocklisted address; the devnet coin refuses one it cannot cover).
    const short = 63n * 10n ** 6n
    await setStablecoinSlots(d.chain.rpcUrl, d.chain.addresses.stablecoin, [{ owner: d.batch, balance: short, spender: stranger.address, allowance: 0n }])
    const r = await send(stranger, 'refund', [batchId, 0n, entries, 0n, 10n])
    expect(r.status).toBe('success')
    const events = batchEvents(r)
    expect(events.filter((e) => e.eventName === 'RefundFailed').map((e) => [(e.args.buyer as string).toLowerCase(), e.args.index, e.args.amount])).toEqual([
      [group[9], 9n, 7n * 10n ** 6n],
    ])
    expect(events.find((e) => e.eventName === 'ChunkRefunded')!.args.amount).toBe(short)
    const after = await Promise.all(group.map(usdcOf))
    for (let i = 0; i < 9; i++) expect(after[i]).toBe(before[i])
    expect(after[9]).toBe(before[9]! - 7n * 10n ** 6n)
    // The chunk is done: the failed refund is not retried by replaying the range.
    await expect(refusal(stranger, 'refund', [batchId, 0n, entries, 0n, 10n])).rejects.toThrow(/WrongCursor/)
  }, 120_000)

  it('refuses a collect after its last block (BatchExpired): a signed collect that lands late takes nothing; in its last block it pulls', async () => {
    const batchId = batchIdOf('expired-collect')
    const group = buyers.slice(770, 780)
    const entries = group.map((b) => batchEntry(b, 3n * 10n ** 6n))
    const before = await Promise.all(group.map(usdcOf))
    const head = await d.client.getBlockNumber({ cacheTime: 0 })
    await expect(refusal(d.operators[0]!, 'collect', [batchId, d.chain.addresses.stablecoin, 0n, entries, head - 1n, []])).rejects.toThrow(/BatchExpired/)
    // Sent anyway with the head as its last block: automine puts it in the next block, one past it. Mined, reverted,
    // nothing pulled, the batch not even opened (so the same id still works within its last block).
    const late = await send(d.operators[0]!, 'collect', [
      batchId,
      d.chain.addresses.stablecoin,
      0n,
      entries,
      await d.client.getBlockNumber({ cacheTime: 0 }),
      [],
    ])
    expect(late.status).toBe('reverted')
    expect(await Promise.all(group.map(usdcOf))).toEqual(before)
    expect((await collection(batchId)).status).toBe(0)
    const inTime = (await d.client.getBlockNumber({ cacheTime: 0 })) + 1n
    const r = await collect(
      d.operators[0]!,
      batchId,
      0,
      entries.map((e) => e),
      inTime,
    )
    expect(r.receipt.blockNumber).toBe(inTime)
    expect(r.collected.amount).toBe(30n * 10n ** 6n)
    expect(await Promise.all(group.map(usdcOf))).toEqual(before.map((b) => b - 3n * 10n ** 6n))
    // The next collect of the same batch past the last block is refused too, whatever the batch's window says.
    const next = [batchId, d.chain.addresses.stablecoin, 1n, [batchEntry(buyers[780]!, 10n ** 6n)], inTime, []] as const
    const before780 = await usdcOf(buyers[780]!)
    expect((await send(d.operators[1]!, 'collect', next)).status).toBe('reverted')
    expect(await usdcOf(buyers[780]!)).toBe(before780)
    await expect(refusal(d.operators[1]!, 'collect', next)).rejects.toThrow(/BatchExpired/)
    expect((await send(d.operators[0]!, 'cancel', [batchId])).status).toBe('success')
  }, 120_000)

  it('supersedes on a split batch: a successor is refused while the superseded batch collects, runs once it is cancelled; a dead batch never opens', async () => {
    const group = buyers.slice(781, 790)
    const words = group.map((b) => batchEntry(b, 10n ** 6n))
    const coin = d.chain.addresses.stablecoin
    const old = batchIdOf('superseded-split-old')
    const successor = batchIdOf('superseded-split-new')
    const before = await Promise.all(group.map(usdcOf))
    // The superseded batch opened its collection (one chunk collected): its successor, split or not, takes nothing.
    await collect(d.operators[0]!, old, 0, words.slice(0, 3))
    await expect(refusal(d.operators[1]!, 'collect', [successor, coin, 0n, words.slice(3, 6), UNTIL, [old]])).rejects.toThrow(/SupersededBatchPulled/)
    expect((await send(d.operators[1]!, 'collect', [successor, coin, 0n, words.slice(3, 6), UNTIL, [old]])).status).toBe('reverted')
    await expect(refusal(d.operators[1]!, 'executeBatch', [successor, routeOf(d, pool), words.slice(3, 6), 0n, false, UNTIL, [old]])).rejects.toThrow(
      /SupersededBatchPulled/,
    )
    expect(await Promise.all(group.map(usdcOf))).toEqual(before.map((b, i) => (i < 3 ? b - 10n ** 6n : b)))
    // Cancelled (and refundable): it can pull no more, so the successor runs and marks it dead.
    expect((await send(d.operators[0]!, 'cancel', [old])).status).toBe('success')
    const opened = await send(d.operators[1]!, 'collect', [successor, coin, 0n, words.slice(3, 6), UNTIL, [old]])
    expect(opened.status).toBe('success')
    expect(batchEvents(opened).some((e) => e.eventName === 'BatchesSuperseded')).toBe(true)
    // A batch named before it ever opened is dead: its first collect (whichever chunk) is refused, nothing pulled.
    const never = batchIdOf('superseded-split-never')
    expect((await send(d.operators[0]!, 'collect', [batchIdOf('superseded-split-killer'), coin, 0n, words.slice(7, 8), UNTIL, [never]])).status).toBe('success')
    await expect(refusal(d.operators[1]!, 'collect', [never, coin, 1n, words.slice(8, 9), UNTIL, []])).rejects.toThrow(/BatchSuperseded/)
    const last = await usdcOf(group[8]!)
    expect((await send(d.operators[1]!, 'collect', [never, coin, 1n, words.slice(8, 9), UNTIL, []])).status).toBe('reverted')
    expect(await usdcOf(group[8]!)).toBe(last)
  }, 120_000)

  it('a cancel before any collect makes a collect still in flight take nothing (crash recovery)', async () => {
    const batchId = batchIdOf('cancel-first')
    expect((await send(d.operators[1]!, 'cancel', [batchId])).status).toBe('success')
    const before = await usdcOf(buyers[795]!)
    await expect(
      refusal(d.operators[0]!, 'collect', [batchId, d.chain.addresses.stablecoin, 0n, [batchEntry(buyers[795]!, 10n ** 6n)], UNTIL, []]),
    ).rejects.toThrow(/NotCollecting/)
    expect(await usdcOf(buyers[795]!)).toBe(before)
  }, 120_000)
})
