import { decodeFunctionData, encodeAbiParameters, type Hash, type Hex, keccak256, pad, parseGwei } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import type { ExecutorWallets } from '../../daemon/executor/executor-context.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { fundAccount } from '../../devnet/chain/faucet.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'
import { preparedLaunchChecks } from './prepared-launch-checks.ts'

const USDC = 1_000_000n
/** The executor's deadline figures here: a batch may land 30 blocks after its tick, and is final 5 blocks after that. */
const LANDING = 30
const FINALITY = 5

/**
 * docs/execution.md §8, "A last block for every pull": a batch whose signed transaction never landed is released only once
 * its last block is final, and that transaction, broadcast again after its orders bought in a new batch, pulls nothing.
 */
describe('a released batch’s signed transaction cannot pull again (real devnet, contract, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true, approvalsAhead: false, batchDeadline: { landingBlocks: LANDING, finalityBlocks: FINALITY } })
  }, 120_000)
  afterAll(async () => {
    await h?.stop()
  })

  const isExecuteBatch = (data: Hex): boolean => {
    try {
      return decodeFunctionData({ abi: batchBuyerAbi, data }).functionName === 'executeBatch'
    } catch {
      return false
    }
  }
  const { batchOf } = preparedLaunchChecks(() => h)
  const head = () => h.client.getBlockNumber({ cacheTime: 0 })

  it('signed, never landed, nothing pending: in flight until its last block is final, then released; broadcast again after the re-buy it reverts (BatchExpired) and no wallet pays twice', async () => {
    const { slug, creator } = await h.newProject('batch-deadline', 'doppler')
    const buyers: Buyer[] = []
    for (let i = 0; i < 3; i++) {
      const buyer = await h.newBuyer(`batch-deadline-${i}`, '100')
      await h.order(buyer, slug, String(20 + i), null)
      buyers.push(buyer)
    }
    await h.approveBatchBuyer(buyers, '100')

    // An operator account of the batch buyer that signs the batch and never broadcasts it: the transaction a node kept
    // while ours lost it. Its nonce stays unused, so the signed transaction can still be mined later: only the contract's
    // last block refuses it. (Made an operator through the contract's storage, operators being slot 0, so that no
    // transaction of the bundler EOA changes its nonces under the wallet service.)
    const signer = privateKeyToAccount(generatePrivateKey())
    await fundAccount(h.chain, signer.address, { eth: '1' })
    const operatorSlot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [signer.address, 0n]))
    await jsonRpc(h.chain.rpcUrl, 'anvil_setStorageAt', [h.batchBuyer!, operatorSlot, pad('0x01')])
    expect(await h.client.readContract({ address: h.batchBuyer!, abi: batchBuyerAbi, functionName: 'operators', args: [signer.address] })).toBe(true)

    let raw: Hex | undefined
    const keeping: ExecutorWallets = {
      walletAddress: (i) => h.wallets.walletAddress(i),
      submitUserOperations: (chain, requests, options) => h.wallets.submitUserOperations(chain, requests, options),
      operatorAddress: () => signer.address,
      async sendCall(chain, call, fields) {
        if (!isExecuteBatch(call.data) || raw) return h.wallets.sendCall!(chain, call, fields)
        raw = await signer.signTransaction({
          type: 'eip1559',
          chainId: h.chain.chainId,
          to: call.to,
          data: call.data,
          gas: call.gas,
          nonce: 0,
          maxFeePerGas: parseGwei('100'),
          maxPriorityFeePerGas: parseGwei('1'),
        })
        // Out of our hands: no receipt, and the node we ask does not hold it.
        return { hash: keccak256(raw), landed: Promise.resolve({ receipt: undefined, pending: false }) }
      },
    }
    await h.crashExecutor(keeping)
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    const sent = await h.waitFor(
      'the batch signed and recorded',
      async () => {
        const record = await batchOf(slug, 0)
        // Recorded with its hash (sent; released at once was the behaviour before the last block).
        return record?.txHash && raw ? record : undefined
      },
      120_000,
    )
    await h.stopMining()
    expect((await batchOf(slug, 0))?.state).toBe('sent')
    expect(sent.txHash).toBe(keccak256(raw!))
    expect(sent.from).toBe(signer.address)
    expect(BigInt(sent.validUntilBlock!)).toBe(BigInt(sent.tickBlock) + BigInt(LANDING))
    const final = BigInt(sent.validUntilBlock!) + BigInt(FINALITY)
    const statuses = async () => (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).map((o) => o?.status)

    // Nothing pending on the signer, no receipt: before, that released the batch at once. Now it stays in flight, at a
    // restart too (each restart below reconciles it from the chain before it returns), until its last block is final.
    expect(await head()).toBeLessThan(final - 1n)
    await h.crashExecutor()
    expect((await batchOf(slug, 0))?.state).toBe('sent')
    await h.mine(Number(final - 1n - (await head())))
    expect(await head()).toBe(final - 1n)
    await h.crashExecutor()
    expect((await batchOf(slug, 0))?.state).toBe('sent')
    expect(await statuses()).toEqual(buyers.map(() => 'executing'))
    // The signed transaction could still land here (its last block is not past): it is not given up.
    await h.mine(1)
    await h.crashExecutor()
    const released = (await batchOf(slug, 0))!
    expect(released.state).toBe('released')
    expect(released.releaseReason).toBe(`the batch transaction never landed, and its last block ${sent.validUntilBlock} is final`)

    // Its orders buy again, once, in a new batch.
    h.startMining()
    await h.waitFor('filled in a new batch', async () => (await statuses()).every((s) => s === 'filled'), 120_000)
    await h.stopMining()
    const again = (await batchOf(slug, 1))!
    expect(again.batchId).not.toBe(sent.batchId)
    const after = await Promise.all(buyers.map((b) => h.usdcOf(b.wallet)))
    expect(after).toEqual(buyers.map((_, i) => 100n * USDC - BigInt(20 + i) * USDC))

    // The kept transaction broadcast again (a node that held it, a rebroadcast after a reorg): mined, reverted for its
    // last block, nothing pulled, the released batch id still unexecuted.
    const rebroadcast = (await jsonRpc<Hash>(h.chain.rpcUrl, 'eth_sendRawTransaction', [raw])) as Hash
    await h.mine(1)
    const receipt = await h.client.getTransactionReceipt({ hash: rebroadcast })
    expect(receipt.status).toBe('reverted')
    expect(receipt.blockNumber).toBeGreaterThan(BigInt(sent.validUntilBlock!))
    // Why it reverted, asked of the contract at the same calldata: its last block.
    const { args } = decodeFunctionData({ abi: batchBuyerAbi, data: (await h.client.getTransaction({ hash: rebroadcast })).input })
    await expect(
      h.client.simulateContract({
        account: signer.address,
        address: h.batchBuyer!,
        abi: batchBuyerAbi,
        functionName: 'executeBatch',
        args: args as readonly unknown[],
      }),
    ).rejects.toThrow(/BatchExpired/)
    expect(await Promise.all(buyers.map((b) => h.usdcOf(b.wallet)))).toEqual(after)
    const onChain = (await h.client.readContract({
      address: h.batchBuyer!,
      abi: batchBuyerAbi,
      functionName: 'batches',
      args: [sent.batchId],
    })) as readonly unknown[]
    expect(onChain[6]).toBe(false)
  }, 300_000)
})

describe('a split batch whose collect never landed: released only once its last block is final (real devnet, contract, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({
      batchBuyer: true,
      approvalsAhead: false,
      senderAccounts: 2,
      maxBuyersPerTransaction: 2,
      batchDeadline: { landingBlocks: LANDING, finalityBlocks: FINALITY },
    })
    h.startMining()
    await h.waitFor('every sender an operator', async () => h.executor.batchOperatorsReady('base'), 60_000)
    await h.stopMining()
  }, 180_000)
  afterAll(async () => {
    await h?.stop()
  })

  const { batchOf, buyersWithOrders, withSendFromAccount } = preparedLaunchChecks(() => h)
  const head = () => h.client.getBlockNumber({ cacheTime: 0 })
  const eventsOf = async (eventName: string, batchId: Hash) =>
    (await h.client.getContractEvents({ address: h.batchBuyer!, abi: batchBuyerAbi, eventName, fromBlock: 0n })).filter(
      (l) => (l as unknown as { args: { batchId: string } }).args.batchId === batchId,
    )

  it('chunk 0’s collect lost on the way, the process dead at the settle: the restart cancels and refunds the collected chunks, and releases only at the final block', async () => {
    const { slug, creator } = await h.newProject('split-deadline', 'doppler')
    const buyers = await buyersWithOrders(slug, 6)
    let lost = false
    const losing = withSendFromAccount(async ({ account, call, fields }, real) => {
      // The settle: the process dies waiting for it to be sent.
      if (fields?.settle) return new Promise(() => undefined)
      if (fields?.chunk !== 0) return real()
      // Chunk 0's collect: signed somewhere, never reaching our node (a node may hold it still).
      lost = true
      return { hash: keccak256(call.data), from: account, nonce: 0, landed: Promise.resolve({ receipt: undefined, pending: false }) }
    })
    await h.crashExecutor(losing)
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    const record = await h.waitFor('the split batch journaled', async () => batchOf(slug, 0), 120_000)
    expect(record.split?.chunks).toHaveLength(3)
    await h.waitFor('chunks 1 and 2 collected', async () => lost && (await eventsOf('ChunkCollected', record.batchId)).length === 2, 120_000)
    // The restart (the real wallets): cancel, refund chunks 1 and 2; chunk 0's collect may still land: not released.
    await h.crashExecutor()
    await h.waitFor('chunks 1 and 2 refunded', async () => (await eventsOf('ChunkRefunded', record.batchId)).length === 2, 120_000)
    await h.stopMining()
    expect(await eventsOf('BatchCancelled', record.batchId)).toHaveLength(1)
    const final = BigInt(record.validUntilBlock!) + BigInt(FINALITY)
    expect(await head()).toBeLessThan(final - 1n)
    const statuses = async () => (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).map((o) => o?.status)
    await h.mine(Number(final - 1n - (await head())))
    await h.crashExecutor()
    expect((await batchOf(slug, 0))?.state).not.toBe('released')
    expect(await statuses()).toEqual(buyers.map(() => 'executing'))
    await h.mine(1)
    await h.crashExecutor()
    const released = (await batchOf(slug, 0))!
    expect(released.state).toBe('released')
    expect(released.releaseReason).toMatch(/cancelled before it settled: 2 collected chunk\(s\) refunded/)
    // Every wallet whole again (refunded or never pulled), then each buys once in a later batch.
    h.startMining()
    await h.waitFor('every order filled again', async () => (await statuses()).every((s) => s === 'filled'), 120_000)
    await h.stopMining()
    for (const [i, buyer] of buyers.entries()) expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - BigInt(30 + i) * USDC)
  }, 300_000)
})
