import { type AbiFunction, createWalletClient, getAbiItem, type Hash, type Hex, http, parseAbi, parseUnits, toFunctionSelector } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import { readStablecoinAllowances } from '../../src/chain/read-stablecoin-allowances.ts'
import { EIP_7825_TX_GAS_CAP } from '../../src/chain/tx-gas-cap.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import { readCodeSizes } from '../../src/wallets/bundler/code-sizes.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'

const BUYERS = 60
/** Spends of 10 to 20 USDC: different shares of the one price. */
const spendOf = (i: number): string => String(10 + (i % 11))
const EXECUTE_BATCH = toFunctionSelector(getAbiItem({ abi: batchBuyerAbi, name: 'executeBatch' }) as AbiFunction)
const SWEEP = toFunctionSelector(getAbiItem({ abi: batchBuyerAbi, name: 'sweep' }) as AbiFunction)

/**
 * Issue 21 item 4 at test scale: the launch's buyers, approving the batch buyer ahead through the executor's own
 * readying pass, fill in ONE executeBatch under 2^24 gas in the first block where swaps are allowed (the Doppler
 * launch's next block). Blocks are mined by hand: the launch block, then (once the batch waits in the node's pool) one
 * block, so "the first allowed block" is a fact of the chain, not of timing. The 500-buyer figure is the bench's
 * (`npm run bench -- --only execution`).
 */
describe('a launch fills every approved buyer in one executeBatch in the first block where swaps are allowed (real devnet)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true })
  }, 120_000)
  afterAll(async () => {
    await h?.stop()
  })

  /** Our senders' pending transactions, with their input. */
  async function pendingOfOurs(): Promise<{ input: Hex }[]> {
    const ours = new Set(h.wallets.senderAddresses('base').map((a) => a.toLowerCase()))
    const pool = await jsonRpc<{ pending: Record<string, Record<string, { input: Hex }>> }>(h.chain.rpcUrl, 'txpool_content')
    return Object.entries(pool.pending)
      .filter(([from]) => ours.has(from.toLowerCase()))
      .flatMap(([, byNonce]) => Object.values(byNonce))
  }

  it(`${BUYERS} buyers: approvals ahead, then one executeBatch ≤ 2^24 in launch+1, one price, sweeps ≤ 2^24, nothing revoked`, async () => {
    const { slug, creator } = await h.newProject('firstblock', 'doppler')
    const buyers: Buyer[] = []
    for (let i = 0; i < BUYERS; i++) {
      const issued = await h.services.keys.issueKey(`first-${i}`)
      buyers.push({ keyId: issued.record.id, userIndex: issued.record.userIndex, wallet: await h.wallets.walletAddress(issued.record.userIndex) })
    }
    const deployer = h.devnet.deployer.account
    const minter = createWalletClient({ chain: chainFromConfig(h.chain), account: deployer, transport: http(h.chain.rpcUrl) })
    let nonce = await h.client.getTransactionCount({ address: deployer.address, blockTag: 'pending' })
    const mints: Hash[] = []
    for (const buyer of buyers) {
      mints.push(
        await minter.writeContract({
          address: h.chain.addresses.stablecoin,
          abi: parseAbi(['function mint(address to, uint256 amount)']),
          functionName: 'mint',
          args: [buyer.wallet, parseUnits('100', 6)],
          nonce: nonce++,
          gas: 100_000n,
        }),
      )
    }
    await h.mine()
    for (const hash of mints) await h.client.waitForTransactionReceipt({ hash, pollingInterval: 30 })
    for (const [i, buyer] of buyers.entries()) await h.order(buyer, slug, spendOf(i), null)

    // Ahead: block by block, the executor deploys the wallets and approves the batch buyer for exactly the caps.
    const caps = buyers.map((_b, i) => parseUnits(spendOf(i), 6))
    const wallets = buyers.map((b) => b.wallet)
    await h.waitFor(
      'every wallet deployed and approving the batch buyer',
      async () => {
        await h.mine()
        await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
        await h.executor.idle()
        if (!(await readCodeSizes(h.client, wallets)).every((size) => size > 0)) return false
        const allowances = await readStablecoinAllowances(h.client, h.chain.addresses.multicall3, h.chain.addresses.stablecoin, h.batchBuyer!, wallets)
        return wallets.every((w, i) => allowances.get(w.toLowerCase()) === caps[i])
      },
      180_000,
    )
    await h.executor.approvalsSettled()
    // Nothing of ours in flight before the launch (an approval sent at the last pass lands first).
    await h.waitFor(
      'nothing pending before the launch',
      async () => {
        if ((await pendingOfOurs()).length === 0) return true
        await h.mine()
        await h.executor.idle()
        return false
      },
      60_000,
    )

    const launched = await h.launch(slug, 'doppler', creator)
    // Nothing is mined until the batch waits in the node's pool: it then lands in the block right after the launch's.
    await h.waitFor('the executeBatch pending', async () => (await pendingOfOurs()).some((tx) => tx.input.startsWith(EXECUTE_BATCH)), 60_000)
    const pending = await pendingOfOurs()
    // No buyer went the per-buyer way: the one transaction of ours in flight is the batch.
    expect(pending).toHaveLength(1)
    await h.mine()
    await h.waitFor('every order filled', async () => (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).every((o) => o?.status === 'filled'), 60_000)

    const executions = await Promise.all(buyers.map(async (b) => (await h.getOrder(b, slug))!.execution!))
    const hashes = new Set(executions.map((e) => e.txHash))
    expect(hashes.size).toBe(1)
    const hash = [...hashes][0] as Hash
    const [receipt, tx] = await Promise.all([h.client.getTransactionReceipt({ hash }), h.client.getTransaction({ hash })])
    expect(receipt.status).toBe('success')
    expect(tx.input.startsWith(EXECUTE_BATCH)).toBe(true)
    expect(receipt.blockNumber).toBe(launched.blockNumber + 1n)
    expect(tx.gas <= EIP_7825_TX_GAS_CAP).toBe(true)
    expect(receipt.gasUsed <= tx.gas).toBe(true)

    // One price: every gross share is floor(tokensOut × spend / totalIn) of the one batch.
    const journal = createBatchJournal(h.store)
    const batch = (await journal.get('base', slug, launched.blockNumber.toString(), 0))!
    expect(await journal.get('base', slug, launched.blockNumber.toString(), 1)).toBeUndefined()
    expect(batch.included).toHaveLength(BUYERS)
    const tokensOut = BigInt(batch.execution!.tokensOut)
    const totalIn = BigInt(batch.execution!.totalIn)
    expect(totalIn).toBe(caps.reduce((a, b) => a + b, 0n))
    for (const [i, e] of executions.entries()) {
      expect(parseUnits(e.spentUsdc, 6)).toBe(caps[i])
      expect(BigInt(e.tokensReceived) + BigInt(e.feeTokens)).toBe((tokensOut * caps[i]!) / totalIn)
    }

    // The sweeps after it, each under the cap too.
    h.startMining()
    const swept = await h.waitFor(
      'the batch swept',
      async () => {
        const record = await journal.get('base', slug, launched.blockNumber.toString(), 0)
        return record?.state === 'swept' ? record : undefined
      },
      120_000,
    )
    await h.stopMining()
    expect(swept.swept).toBe(BUYERS)
    // A few more blocks with the readying pass run: the batch pulled every allowance to 0, so nothing is revoked (an
    // approval to 0 while the batch is in flight could land first and make it skip the buyer).
    for (let i = 0; i < 4; i++) {
      await h.mine()
      await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
      await h.executor.idle()
      await h.executor.approvalsSettled()
    }
    await h.mine()
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    const ours = new Set(h.wallets.senderAddresses('base').map((a) => a.toLowerCase()))
    const sent: { gas: bigint; hash: Hash; input: Hex }[] = []
    for (let n = launched.blockNumber + 1n; n <= head; n++) {
      const block = await h.client.getBlock({ blockNumber: n, includeTransactions: true })
      for (const t of block.transactions) if (ours.has(t.from.toLowerCase())) sent.push({ gas: t.gas, hash: t.hash, input: t.input })
    }
    expect(sent.length).toBeGreaterThanOrEqual(2)
    // After the launch: the executeBatch and the sweeps, nothing else (no approvals, no per-buyer buys).
    expect(sent.filter((t) => !t.input.startsWith(EXECUTE_BATCH) && !t.input.startsWith(SWEEP))).toEqual([])
    for (const t of sent) {
      expect(t.gas <= EIP_7825_TX_GAS_CAP).toBe(true)
      expect((await h.client.getTransactionReceipt({ hash: t.hash })).status).toBe('success')
    }
    for (const b of buyers) expect(await h.tokenBalance(launched.token, b.wallet)).toBeGreaterThan(0n)
  }, 600_000)
})
