import { createWalletClient, http, parseAbi, parseUnits, type Hash } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buyRouterAbi } from '../../daemon/executor/buy-router-abi.ts'
import { executionOrderId } from '../../daemon/executor/build-buy-calls.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import { readCodeSizes } from '../../src/wallets/bundler/code-sizes.ts'
import { startFlowHarness, type Buyer, type FlowHarness } from './flow-harness.ts'

const SENDERS = 4
// Enough buyers for several handleOps transactions (the preparer's chunks of 4, 60 and 64 operations, each split to fit
// the per-transaction gas cap).
const BUYERS = 70
const USDC = 1_000_000n

/**
 * Issue 23 item 3: a launch's transactions go out from several sender accounts at once (wallet.senderAccounts), each
 * with its own nonces. Real devnet, wallet service, store, indexer and executor; blocks mined by hand, so "in flight
 * together" is observed in the mempool and "the same block" in the receipts, without timing assumptions.
 */
describe('parallel sender accounts (real devnet)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ senderAccounts: SENDERS })
  })
  afterAll(async () => {
    await h?.stop()
  })

  /** Buyers with 100 USDC each, minted in one block, with orders of 50 and wallets deployed ahead. */
  async function buyersWithOrders(label: string, slug: string, count: number): Promise<Buyer[]> {
    const buyers: Buyer[] = []
    for (let i = 0; i < count; i++) {
      const issued = await h.services.keys.issueKey(`${label}-${i}`)
      buyers.push({ keyId: issued.record.id, userIndex: issued.record.userIndex, wallet: await h.wallets.walletAddress(issued.record.userIndex) })
    }
    const deployer = h.devnet.deployer.account
    const minter = createWalletClient({ chain: chainFromConfig(h.chain), account: deployer, transport: http(h.chain.rpcUrl) })
    let nonce = await h.client.getTransactionCount({ address: deployer.address, blockTag: 'pending' })
    const hashes: Hash[] = []
    for (const buyer of buyers) {
      hashes.push(
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
    for (const hash of hashes) await h.client.waitForTransactionReceipt({ hash, pollingInterval: 30 })
    for (const buyer of buyers) await h.order(buyer, slug, '50', null)
    // The executor deploys waiting buyers' wallets ahead, block by block (from several sender accounts too).
    await h.waitFor(
      'wallets deployed ahead',
      async () => {
        await h.mine()
        await h.executor.idle()
        return (
          await readCodeSizes(
            h.client,
            buyers.map((b) => b.wallet),
          )
        ).every((size) => size > 0)
      },
      120_000,
    )
    return buyers
  }

  /** Every pending transaction of our sender accounts that carries one of `buyers`' operations, by sender. */
  async function waitForAllPending(buyers: readonly Buyer[]): Promise<void> {
    await h.waitFor(
      'every buy in a pending handleOps',
      async () => {
        const pending = await h.pendingSenders()
        return buyers.every((b) => pending.has(b.wallet.toLowerCase()))
      },
      120_000,
    )
  }

  const buysOf = async (buyer: Buyer, slug: string) => {
    const order = (await h.getOrder(buyer, slug))!
    return h.client.getContractEvents({
      address: h.buyRouter,
      abi: buyRouterAbi,
      eventName: 'PrebuyBuy',
      args: { buyer: buyer.wallet, orderId: executionOrderId(order) },
      fromBlock: 0n,
    })
  }

  it("sends a launch's bundles from several accounts at once: in flight together, mined in one block, every buy filled once", async () => {
    const { slug, creator } = await h.newProject('parallel', 'doppler')
    const buyers = await buyersWithOrders('parallel', slug, BUYERS)
    const launched = await h.launch(slug, 'doppler', creator)
    // Manual mining: nothing is mined until every buy waits in the mempool, so all of them are in flight at once.
    await waitForAllPending(buyers)
    await h.mine()
    await h.waitFor('fills', async () => (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).every((o) => o?.status === 'filled'), 60_000)
    const txHashes = new Set((await Promise.all(buyers.map(async (b) => (await h.getOrder(b, slug))!.execution!.txHash as Hash))).values())
    const transactions = await Promise.all([...txHashes].map((hash) => h.client.getTransaction({ hash })))
    const receipts = await Promise.all([...txHashes].map((hash) => h.client.getTransactionReceipt({ hash })))
    const ours = new Set(h.wallets.senderAddresses('base').map((a) => a.toLowerCase()))
    expect(ours.size).toBe(SENDERS)
    const senders = new Set(transactions.map((t) => t.from.toLowerCase()))
    expect(txHashes.size).toBeGreaterThanOrEqual(2)
    expect(senders.size).toBeGreaterThanOrEqual(2)
    for (const sender of senders) expect(ours.has(sender)).toBe(true)
    // One block for all: the first after the launch.
    expect(new Set(receipts.map((r) => r.blockNumber))).toEqual(new Set([launched.blockNumber + 1n]))
    expect(receipts.every((r) => r.status === 'success')).toBe(true)
    for (const buyer of buyers) {
      expect(await buysOf(buyer, slug)).toHaveLength(1)
      expect(await h.usdcOf(buyer.wallet)).toBe(50n * USDC)
    }
  })

  it('sendFromPool: plain transactions sent together go out from different accounts, each landing', async () => {
    const to = h.feeRecipient
    const sent = await Promise.all(
      Array.from({ length: SENDERS }, (_, i) => h.wallets.sendFromPool('base', { to, data: '0x', gas: 30_000n }, { purpose: `test-${i}` })),
    )
    expect(new Set(sent.map((s) => s.from.toLowerCase())).size).toBe(SENDERS)
    await h.waitFor('all pending', async () => {
      const pool = await h.client.getBlock({ blockTag: 'pending', includeTransactions: true })
      return sent.every((s) => pool.transactions.some((t) => t.hash === s.hash))
    })
    await h.mine()
    const landings = await Promise.all(sent.map((s) => s.landed))
    expect(landings.map((l) => l.receipt?.status)).toEqual(sent.map(() => 'success'))
    expect(new Set(landings.map((l) => l.receipt?.blockNumber)).size).toBe(1)
  })

  it('a restart while bundles from several accounts are in flight buys every order exactly once', async () => {
    const { slug, creator } = await h.newProject('restart', 'doppler')
    const buyers = await buyersWithOrders('restart', slug, BUYERS)
    await h.launch(slug, 'doppler', creator)
    await waitForAllPending(buyers)
    const pendingFrom = await h.pendingSenders()
    expect(pendingFrom.size).toBeGreaterThanOrEqual(BUYERS)
    // In flight from several sender accounts at the moment of the crash.
    const ours = new Set(h.wallets.senderAddresses('base').map((a) => a.toLowerCase()))
    const pool = await jsonRpc<{ pending: Record<string, unknown> }>(h.chain.rpcUrl, 'txpool_content')
    expect(Object.keys(pool.pending).filter((from) => ours.has(from.toLowerCase())).length).toBeGreaterThanOrEqual(2)
    // The daemon dies with the bundles in the mempool; the new one has fresh sender pools (nonces re-read from the chain).
    await h.crashExecutor(h.freshWallets())
    h.startMining()
    await h.waitFor('fills', async () => (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).every((o) => o?.status === 'filled'), 120_000)
    // A few more blocks: a second attempt, had one been made, would have landed by now.
    await h.mine(3)
    await h.executor.idle()
    await h.stopMining()
    for (const buyer of buyers) {
      expect(await buysOf(buyer, slug)).toHaveLength(1)
      expect(await h.usdcOf(buyer.wallet)).toBe(50n * USDC)
    }
  })
})
