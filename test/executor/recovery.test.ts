import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeFunctionData, erc20Abi, type Hash } from 'viem'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { buyRouterAbi } from '../../daemon/executor/buy-router-abi.ts'
import { executionOrderId } from '../../daemon/executor/build-buy-calls.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'
import { startFlowHarness, type Buyer, type FlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n

describe('exactly once and shared balances (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

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

  it('a crash after the UserOperation was mined but before the receipt was recorded settles from the chain, never buying twice', async () => {
    const { slug, creator } = await h.newProject('crash-after', 'clanker')
    const buyer = await h.newBuyer('crash-after', '500')
    await h.order(buyer, slug, '100', null)
    // A wallet service that submits for real and then never answers: the process "dies" waiting for the receipt.
    let submitted: Hash | undefined
    const hanging: Pick<WalletService, 'walletAddress' | 'submitUserOperations'> = {
      walletAddress: (i) => h.wallets.walletAddress(i),
      async submitUserOperations(chain, requests, options) {
        const results = await h.wallets.submitUserOperations(chain, requests, options)
        const first = results[0]
        submitted = first && 'txHash' in first ? first.txHash : undefined
        return new Promise(() => undefined)
      },
    }
    await h.crashExecutor(hanging)
    h.startMining()
    await h.launch(slug, 'clanker', creator)
    await h.waitFor('mined buy', async () => submitted)
    await h.stopMining()
    expect((await h.getOrder(buyer, slug))?.status).toBe('executing')
    expect((await h.journal.inFlight('base')).map((e) => e.keyId)).toEqual([buyer.keyId])

    await h.crashExecutor() // the restart: reconciles the in-flight order from the chain
    const order = (await h.getOrder(buyer, slug))!
    expect(order.status).toBe('filled')
    expect(order.execution?.txHash).toBe(submitted)
    expect(await h.journal.inFlight('base')).toEqual([])
    h.startMining()
    await h.mine(3)
    await h.executor.idle()
    await h.stopMining()
    expect(await buysOf(buyer, slug)).toHaveLength(1)
    expect(await h.usdcOf(buyer.wallet)).toBe(400n * USDC)
  })

  it('a crash before the UserOperation reached the chain returns the order to active and it buys exactly once', async () => {
    const { slug, creator } = await h.newProject('crash-before', 'doppler')
    const buyer = await h.newBuyer('crash-before', '500')
    await h.order(buyer, slug, '100', null)
    let called = false
    const dead: Pick<WalletService, 'walletAddress' | 'submitUserOperations'> = {
      walletAddress: (i) => h.wallets.walletAddress(i),
      submitUserOperations() {
        called = true
        return new Promise(() => undefined)
      },
    }
    await h.crashExecutor(dead)
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    await h.waitFor('submission attempt', async () => called)
    await h.stopMining()
    expect((await h.getOrder(buyer, slug))?.status).toBe('executing')
    await h.crashExecutor()
    expect((await h.getOrder(buyer, slug))?.status).toBe('active')
    h.startMining()
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    expect(await buysOf(buyer, slug)).toHaveLength(1)
    expect(await h.usdcOf(buyer.wallet)).toBe(400n * USDC)
    const events = await h.journal.orderEventsOf(buyer.keyId, slug)
    expect(events.map((e) => `${e.from}->${e.to}`)).toEqual(['active->executing', 'executing->active', 'active->executing', 'executing->filled'])
  })

  it('an executing batch that fails to write broadcasts nothing (signing overlapped it); the order buys once later', async () => {
    const { slug, creator } = await h.newProject('write-fails', 'doppler')
    const buyer = await h.newBuyer('write-fails', '500')
    await h.order(buyer, slug, '100', null)
    // Blocks while the order waits: the executor has the wallet deployed ahead (a transaction of the bundler).
    await h.waitFor('wallet deployed ahead', async () => {
      await h.mine()
      await new Promise((resolve) => setTimeout(resolve, 100))
      return (await h.client.getCode({ address: buyer.wallet })) !== undefined
    })
    const bundler = h.wallets.bundlerAddress('base')
    const sentBefore = await h.client.getTransactionCount({ address: bundler, blockTag: 'pending' })
    const batch = h.store.batch
    let refused = 0
    h.store.batch = async (ops) => {
      if (refused === 0 && ops.some((op) => op.sublevel === h.store.sublevel('journal.inFlight'))) {
        refused++
        throw new Error('disk full')
      }
      return batch(ops)
    }
    try {
      // A slowly decaying fee keeps a tick coming every block.
      await h.launch(slug, 'doppler', creator, { startFee: 20_000, endFee: 10_000, decaySeconds: 120 })
      await h.waitFor('refused write', async () => refused === 1)
      await h.executor.idle()
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(await h.client.getTransactionCount({ address: bundler, blockTag: 'pending' })).toBe(sentBefore)
      expect((await h.getOrder(buyer, slug))?.status).toBe('active')
      expect(await h.journal.inFlight('base')).toEqual([])
    } finally {
      h.store.batch = batch
    }
    h.startMining()
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    expect(await buysOf(buyer, slug)).toHaveLength(1)
    expect(await h.usdcOf(buyer.wallet)).toBe(400n * USDC)
  })

  it('two orders of one wallet on two simultaneous launches never spend more than the wallet holds', async () => {
    const one = await h.newProject('twin-one', 'clanker')
    const two = await h.newProject('twin-two', 'doppler')
    const buyer = await h.newBuyer('twins', '100')
    await h.order(buyer, one.slug, '80', null)
    await h.order(buyer, two.slug, '80', null)
    // Launch both while no executor listens, then start one: the next block ticks both launches at once.
    const dead: Pick<WalletService, 'walletAddress' | 'submitUserOperations'> = {
      walletAddress: (i) => h.wallets.walletAddress(i),
      submitUserOperations: () => Promise.reject(new Error('no executor yet')),
    }
    await h.crashExecutor(dead)
    void h.executor.stop()
    await h.launch(one.slug, 'clanker', one.creator, { startFee: 10_000, endFee: 10_000, decaySeconds: 1 })
    await h.launch(two.slug, 'doppler', two.creator, { startFee: 10_000, endFee: 10_000, decaySeconds: 1 })
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    await h.crashExecutor()
    h.startMining()
    await h.waitFor(
      'both filled',
      async () => (await h.getOrder(buyer, one.slug))?.status === 'filled' && (await h.getOrder(buyer, two.slug))?.status === 'filled',
    )
    await h.stopMining()
    const spent = [(await h.getOrder(buyer, one.slug))!.execution!.spentUsdc, (await h.getOrder(buyer, two.slug))!.execution!.spentUsdc].sort()
    expect(spent).toEqual(['20', '80'])
    expect(await h.usdcOf(buyer.wallet)).toBe(0n)
    // The second launch's decision sized the spend against the first one's reservation.
    const decisions = [...(await h.journal.decisionsOf(one.slug)), ...(await h.journal.decisionsOf(two.slug))]
    const sized = decisions.flatMap((d) => d.orders.filter((o) => o.verdict === 'submitted').map((o) => o.spendAtoms))
    expect(sized.sort()).toEqual([(20n * USDC).toString(), (80n * USDC).toString()])
  })

  it('a reorg that drops the block of a buy returns the order to active; it buys again, once', async () => {
    const { slug, creator } = await h.newProject('reorged-buy', 'doppler')
    const buyer = await h.newBuyer('reorged-buy', '100')
    // Funding mined blocks: once the indexer has processed them all, the launch block is the only one after the order,
    // so no deployment ahead is sent and the launch bundle (which deploys the wallet) is the only bundler transaction.
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    await h.executor.idle()
    await h.order(buyer, slug, '30', null)
    // A slowly decaying fee keeps block ticks coming after the reorg.
    const launched = await h.launch(slug, 'doppler', creator, { startFee: 20_000, endFee: 10_000, decaySeconds: 120 })
    await h.indexer.caughtUp('base', launched.blockNumber)
    await h.waitFor('bundle', async () => (await h.getOrder(buyer, slug))?.status === 'executing' && (await h.bundlePending()))
    await h.mine()
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    const firstTx = (await h.getOrder(buyer, slug))!.execution!.txHash as Hash
    const fillBlock = (await h.client.getTransactionReceipt({ hash: firstTx })).blockNumber
    expect(fillBlock).toBe(launched.blockNumber + 1n)
    expect((await h.journal.fillsAbove('base', launched.blockNumber)).map((f) => f.keyId)).toEqual([buyer.keyId])

    // Replace the fill block with an empty one: the buy never happened on the new chain.
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [1, []])
    expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)
    await h.mine()
    await h.waitFor('undone', async () => (await h.journal.orderEventsOf(buyer.keyId, slug)).some((e) => e.reason === 'buy undone by a reorg'))
    expect(await h.journal.fillsAbove('base', launched.blockNumber)).toEqual([])
    // The wallet layer's own state (the account deployed in the dropped block, the bundler's nonce) does not survive a
    // reorg of its transactions: restart the executor over fresh wallet caches, as a daemon restart would.
    await h.crashExecutor(h.freshWallets())
    h.startMining()
    await h.waitFor('filled again', async () => (await h.getOrder(buyer, slug))?.status === 'filled', 45_000)
    await h.stopMining()
    expect(await buysOf(buyer, slug)).toHaveLength(1)
    expect(await h.usdcOf(buyer.wallet)).toBe(70n * USDC)
    const events = await h.journal.orderEventsOf(buyer.keyId, slug)
    const transitions = events.map((e) => `${e.from}->${e.to}`)
    expect(transitions.slice(0, 3)).toEqual(['active->executing', 'executing->filled', 'filled->active'])
    expect(transitions.at(-1)).toBe('executing->filled')
    expect(transitions.filter((t) => t === 'executing->filled')).toHaveLength(2)
  })

  it('a reorg that undoes a buy on a quiet pool (no swaps, fee at its floor) buys again within a few blocks, not at the heartbeat', async () => {
    const { slug, creator } = await h.newProject('quiet-reorg', 'doppler')
    const buyer = await h.newBuyer('quiet-reorg', '100')
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    await h.executor.idle()
    await h.order(buyer, slug, '30', null)
    // The fee starts at its floor: no block ticks while it decays; only a swap or the heartbeat would tick this pool.
    const launched = await h.launch(slug, 'doppler', creator, { startFee: 10_000, endFee: 10_000, decaySeconds: 1 })
    await h.indexer.caughtUp('base', launched.blockNumber)
    await h.waitFor('bundle', async () => (await h.getOrder(buyer, slug))?.status === 'executing' && (await h.bundlePending()))
    await h.mine()
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.executor.idle()

    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [1, []])
    expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)
    // Blocks one at a time, each processed and its tick (if any) decided before the next: the undone order must buy
    // again within a few blocks. Without a tick asked after the undo it would wait for the heartbeat (30 blocks here).
    const blocks = await mineUntil('filled again', async () => (await h.getOrder(buyer, slug))?.status === 'filled', 6)
    expect(blocks).toBeLessThanOrEqual(6)
    expect(await buysOf(buyer, slug)).toHaveLength(1)
    expect(await h.usdcOf(buyer.wallet)).toBe(70n * USDC)
    const transitions = (await h.journal.orderEventsOf(buyer.keyId, slug)).map((e) => `${e.from}->${e.to}`)
    expect(transitions).toEqual(['active->executing', 'executing->filled', 'filled->active', 'active->executing', 'executing->filled'])
    expect((await h.journal.orderEventsOf(buyer.keyId, slug)).some((e) => e.reason === 'buy undone by a reorg')).toBe(true)
  })

  const mineUntil = (what: string, done: () => Promise<boolean>, most: number) => h.mineUntil(what, done, most)

  it('a buy that keeps reverting for a reason other than the price fails after 3 attempts; funds stay', async () => {
    const { slug, creator } = await h.newProject('doomed', 'doppler')
    const buyer = await h.newBuyer('doomed', '100')
    await h.order(buyer, slug, '10', null)
    // Every buy of this wallet also tries to move more stablecoin than the wallet holds: the operation reverts.
    const sabotaged: Pick<WalletService, 'walletAddress' | 'submitUserOperations'> = {
      walletAddress: (i) => h.wallets.walletAddress(i),
      submitUserOperations: (chain, requests) =>
        h.wallets.submitUserOperations(
          chain,
          requests.map((r) => ({
            ...r,
            calls: [
              ...r.calls,
              { to: h.chain.addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [h.feeRecipient, 10n ** 30n] }) },
            ],
          })),
        ),
    }
    await h.crashExecutor(sabotaged)
    h.startMining()
    await h.launch(slug, 'doppler', creator, { startFee: 20_000, endFee: 10_000, decaySeconds: 120 })
    await h.waitFor('failed', async () => (await h.getOrder(buyer, slug))?.status === 'failed')
    await h.stopMining()
    const order = (await h.getOrder(buyer, slug))!
    expect(order.execution?.failureReason).toBeTruthy()
    const transitions = (await h.journal.orderEventsOf(buyer.keyId, slug)).map((e) => `${e.from}->${e.to}`)
    expect(transitions).toEqual(['active->executing', 'executing->active', 'active->executing', 'executing->active', 'active->executing', 'executing->failed'])
    expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)
    await h.crashExecutor()
  })
})
