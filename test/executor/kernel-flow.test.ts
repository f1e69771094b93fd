import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEventLogs, type Hash } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { buyRouterAbi } from '../../daemon/executor/buy-router-abi.ts'
import { executionOrderId } from '../../daemon/executor/build-buy-calls.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'
import { startFlowHarness, type Buyer, type FlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n

/**
 * The executor's essential cases with Kernel v3.1 wallets (wallet.accountKind 'kernel'; the devnet places Kernel at
 * its canonical Base addresses, devnet/chain/place-kernel.ts): a launch's orders fill in one bundle with the fee and
 * exact balances (clanker-flow.test.ts' first case), a waiting wallet is deployed ahead (wallets-ahead.test.ts' first
 * case), and a crash on either side of the chain buys exactly once (recovery.test.ts' first two cases). The other executor suites run on SimpleAccount; what differs between the two
 * kinds is the account (derivation, deployment ahead, callData, nonce keys, signature), which these cases all cross.
 */
describe('execution with Kernel v3.1 wallets (real devnet, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ accountKind: 'kernel' })
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

  it('fills a Clanker launch’s orders in priority order from Kernel wallets, with the 3% fee and exact balances', async () => {
    expect(h.wallets.accountKind).toBe('kernel')
    const { slug, creator } = await h.newProject('kclank', 'clanker')
    const whale = await h.newBuyer('k-whale', '1000')
    const partial = await h.newBuyer('k-partial', '40')
    const second = await h.newBuyer('k-second', '500')
    await h.order(whale, slug, '100', null)
    await h.order(partial, slug, '100', '1000000000000')
    await h.order(second, slug, '60', null)

    h.startMining()
    const launched = await h.launch(slug, 'clanker', creator)
    await h.waitFor('fills', async () => {
      const states = await Promise.all([whale, partial, second].map((b) => h.getOrder(b, slug)))
      return states.every((o) => o?.status === 'filled')
    })
    await h.stopMining()

    expect(await h.usdcOf(whale.wallet)).toBe(900n * USDC)
    expect(await h.usdcOf(partial.wallet)).toBe(0n)
    expect(await h.usdcOf(second.wallet)).toBe(440n * USDC)
    let fees = 0n
    for (const buyer of [whale, partial, second]) {
      const order = (await h.getOrder(buyer, slug))!
      const received = BigInt(order.execution!.tokensReceived)
      const fee = BigInt(order.execution!.feeTokens)
      expect(received).toBeGreaterThan(0n)
      expect(fee).toBe(((received + fee) * 300n) / 10_000n)
      expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(received)
      fees += fee
      // Kernel code at the wallet: the account the buyer was shown is the one that bought.
      expect((await h.client.getCode({ address: buyer.wallet }))?.length).toBeGreaterThan(2)
      expect(await buysOf(buyer, slug)).toHaveLength(1)
    }
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(fees)
    const txHash = (await h.getOrder(whale, slug))!.execution!.txHash as Hash
    const receipt = await h.client.getTransactionReceipt({ hash: txHash })
    const buyers = parseEventLogs({ abi: buyRouterAbi, logs: receipt.logs, eventName: 'PrebuyBuy' }).map((l) => (l.args as { buyer: string }).buyer)
    expect(buyers).toEqual([whale.wallet, partial.wallet, second.wallet])
  })

  it('deploys a funded waiting buyer’s Kernel wallet ahead of the launch; the launch buy then carries no initCode', async () => {
    const { slug, creator } = await h.newProject('kahead', 'doppler')
    const funded = await h.newBuyer('k-ahead', '200')
    await h.order(funded, slug, '50', null)
    const deployed = async () => (await h.client.getCode({ address: funded.wallet })) !== undefined
    // As wallets-ahead.test.ts: a block to read the waiting wallet, then the deployment is sent and a later block mines it.
    await h.waitFor('deployed ahead', async () => {
      await h.mine()
      await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
      await h.executor.idle()
      return deployed()
    })
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    await h.waitFor('fill', async () => (await h.getOrder(funded, slug))?.status === 'filled')
    await h.stopMining()
    const receipt = await h.client.getTransactionReceipt({ hash: (await h.getOrder(funded, slug))!.execution!.txHash as Hash })
    expect(parseEventLogs({ abi: entryPoint07Abi, eventName: 'AccountDeployed', logs: receipt.logs })).toHaveLength(0)
    expect(await h.usdcOf(funded.wallet)).toBe(150n * USDC)
  })

  it('a crash after the UserOperation was mined but before the receipt was recorded settles from the chain, never buying twice', async () => {
    const { slug, creator } = await h.newProject('kcrash-after', 'clanker')
    const buyer = await h.newBuyer('k-crash-after', '500')
    await h.order(buyer, slug, '100', null)
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

    await h.crashExecutor()
    const order = (await h.getOrder(buyer, slug))!
    expect(order.status).toBe('filled')
    expect(order.execution?.txHash).toBe(submitted)
    h.startMining()
    await h.mine(3)
    await h.executor.idle()
    await h.stopMining()
    expect(await buysOf(buyer, slug)).toHaveLength(1)
    expect(await h.usdcOf(buyer.wallet)).toBe(400n * USDC)
  })

  it('a crash before the UserOperation reached the chain returns the order to active and it buys exactly once', async () => {
    const { slug, creator } = await h.newProject('kcrash-before', 'doppler')
    const buyer = await h.newBuyer('k-crash-before', '500')
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
  })
})
