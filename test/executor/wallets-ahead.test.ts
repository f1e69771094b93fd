import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEventLogs } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { submitLaunch } from '../../devnet/launchpads/launch-token.ts'
import { type Buyer, startFlowHarness, type FlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n

describe('wallets readied ahead of a launch (real devnet, wallets, store)', () => {
  let h: FlowHarness
  const stages: string[] = []
  beforeAll(async () => {
    h = await startFlowHarness({ onStage: (name) => stages.push(name) })
  })
  afterAll(async () => {
    await h?.stop()
  })

  const deployed = async (address: `0x${string}`) => (await h.client.getCode({ address })) !== undefined
  /** Mines a block and lets the executor finish readying wallets for it (reads, maybe a deployment sent). */
  const block = async () => {
    await h.mine()
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    await h.executor.idle()
  }

  it('deploys a funded waiting buyer’s wallet once it waited a block, never an empty one; the launch buy carries no initCode and plans on a book prepared ahead', async () => {
    const { slug, creator } = await h.newProject('ahead', 'doppler')
    const funded = await h.newBuyer('ahead-funded', '200')
    const empty = await h.newBuyer('ahead-empty', '0')
    await h.order(funded, slug, '50', null)
    await h.order(empty, slug, '50', null)

    // First processed block with the order: its state is read, but a deployment would race a launch in the next one.
    await block()
    expect(await deployed(funded.wallet)).toBe(false)
    // From the second on the deployment is sent; a later block mines it.
    await h.waitFor('deployed ahead', async () => {
      await block()
      return deployed(funded.wallet)
    })
    expect(await deployed(empty.wallet)).toBe(false)

    stages.length = 0
    h.startMining()
    await h.launch(slug, 'doppler', creator)
    await h.waitFor('fill', async () => (await h.getOrder(funded, slug))?.status === 'filled')
    await h.stopMining()
    // The launch tick planned on the order book prepared while the orders waited, not one built on the spot.
    const books = stages.filter((name) => name.startsWith('executor.book.'))
    expect(books[0]).toBe('executor.book.reused')
    const order = (await h.getOrder(funded, slug))!
    const receipt = await h.client.getTransactionReceipt({ hash: order.execution!.txHash as `0x${string}` })
    expect(parseEventLogs({ abi: entryPoint07Abi, eventName: 'AccountDeployed', logs: receipt.logs })).toHaveLength(0)
    expect(await h.usdcOf(funded.wallet)).toBe(150n * USDC)
    // The empty wallet never got an attempt, nor a deployment.
    expect((await h.getOrder(empty, slug))?.status).toBe('active')
    expect(await deployed(empty.wallet)).toBe(false)
  })

  it('a deployment ahead that lands in the launch block does not cost the launch bundle: it buys in the first block, without reverting', async () => {
    const { slug, creator } = await h.newProject('joined-late', 'doppler', undefined, { expectedSymbol: 'LATE' })
    const buyer = await h.newBuyer('joined-late-buyer', '100')
    await h.order(buyer, slug, '40', null)
    // From the second processed block with the order the wallet's deployment is sent; it waits in the mempool
    // (manual mining; block() returns once the readying for its block is done, the deployment sent or not)...
    await h.waitFor('the deployment ahead pending', async () => (await h.bundlePending()) || void (await block()))
    expect(await deployed(buyer.wallet)).toBe(false)
    // ...and is mined in the launch block itself.
    const launchTx = await submitLaunch({ chain: h.chain, addresses: h.launchpads, launchpad: 'doppler', creator, name: 'late token', symbol: 'LATE' })
    await h.mine()
    const launchReceipt = await h.client.getTransactionReceipt({ hash: launchTx })
    expect(await deployed(buyer.wallet)).toBe(true)
    await h.waitFor('bundle', async () => (await h.getOrder(buyer, slug))?.status === 'executing' && (await h.bundlePending()))
    await h.mine()
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    const order = (await h.getOrder(buyer, slug))!
    const receipt = await h.client.getTransactionReceipt({ hash: order.execution!.txHash as `0x${string}` })
    expect(receipt.blockNumber).toBe(launchReceipt.blockNumber + 1n)
    // Every transaction of the bundler since the launch succeeded: no reverted handleOps.
    const bundler = h.wallets.bundlerAddress('base').toLowerCase()
    for (let n = launchReceipt.blockNumber; n <= receipt.blockNumber; n++) {
      const blockWithTxs = await h.client.getBlock({ blockNumber: n, includeTransactions: true })
      for (const tx of blockWithTxs.transactions) {
        if (tx.from.toLowerCase() !== bundler) continue
        expect((await h.client.getTransactionReceipt({ hash: tx.hash })).status, `bundler tx in block ${n}`).toBe('success')
      }
    }
  })

  it('buyers joining right before a launch (wallets deployed ahead and not): the first bundle is sized for the block it lands in and buys in it', async () => {
    const { slug, creator } = await h.newProject('joined-mixed', 'doppler')
    // All funded now (funding mines blocks); only the early ones order, and wait until their wallets are deployed.
    const early: Buyer[] = []
    const late: Buyer[] = []
    for (let i = 0; i < 5; i++) early.push(await h.newBuyer(`mixed-early-${i}`, '100'))
    for (let i = 0; i < 15; i++) late.push(await h.newBuyer(`mixed-late-${i}`, '100'))
    for (const buyer of early) await h.order(buyer, slug, '50', null)
    await h.waitFor('early wallets deployed ahead', async () => {
      await block()
      return (await Promise.all(early.map((b) => deployed(b.wallet)))).every(Boolean)
    })
    // Fifteen more order in the last block before the launch: their buys deploy their wallets (initCode).
    for (const buyer of late) await h.order(buyer, slug, '50', null)
    const launched = await h.launch(slug, 'doppler', creator)
    const all = [...early, ...late]
    expect((await Promise.all(late.map((b) => deployed(b.wallet)))).some(Boolean)).toBe(false)
    await h.waitFor('every buy in a pending bundle', async () => {
      const pending = await h.pendingSenders()
      return all.every((b) => pending.has(b.wallet.toLowerCase()))
    })
    await h.mine()
    await h.waitFor('fills', async () => (await Promise.all(all.map((b) => h.getOrder(b, slug)))).every((o) => o?.status === 'filled'))
    const fills = await Promise.all(all.map(async (b) => (await h.getOrder(b, slug))!.execution!.txHash as `0x${string}`))
    const receipts = await Promise.all([...new Set(fills)].map((hash) => h.client.getTransactionReceipt({ hash })))
    // All in the first block after the launch, and no transaction of the bundler reverted in it.
    expect(receipts.map((r) => r.blockNumber)).toEqual(receipts.map(() => launched.blockNumber + 1n))
    const bundler = h.wallets.bundlerAddress('base').toLowerCase()
    const blockTxs = await h.client.getBlock({ blockNumber: launched.blockNumber + 1n, includeTransactions: true })
    for (const tx of blockTxs.transactions.filter((t) => t.from.toLowerCase() === bundler)) {
      expect((await h.client.getTransactionReceipt({ hash: tx.hash })).status).toBe('success')
    }
  })

  it('a buyer funded right before the launch is not deployed ahead: the launch buy deploys it, in the first block', async () => {
    const { slug, creator } = await h.newProject('late', 'doppler')
    const late = await h.newBuyer('late-funded', '100')
    // Funding mined blocks: once the indexer has processed them all, the launch block is the only one after the order.
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    await h.executor.idle()
    await h.order(late, slug, '40', null)
    const launched = await h.launch(slug, 'doppler', creator)
    await h.waitFor('bundle', async () => (await h.getOrder(late, slug))?.status === 'executing' && (await h.bundlePending()))
    await h.mine()
    await h.waitFor('fill', async () => (await h.getOrder(late, slug))?.status === 'filled')
    const order = (await h.getOrder(late, slug))!
    const receipt = await h.client.getTransactionReceipt({ hash: order.execution!.txHash as `0x${string}` })
    expect(parseEventLogs({ abi: entryPoint07Abi, eventName: 'AccountDeployed', logs: receipt.logs })).toHaveLength(1)
    expect(receipt.blockNumber).toBe(launched.blockNumber + 1n)
  })

  it('after a restart, the first tick of a launched project plans on a book built at start, not on the spot', async () => {
    const { slug, creator } = await h.newProject('restarted', 'doppler')
    const patient = await h.newBuyer('restarted-buyer', '100')
    // A limit no launch meets: the order stays active and is priced on every block while the fee decays.
    await h.order(patient, slug, '10', '1')
    await h.launch(slug, 'doppler', creator, { startFee: 20_000, endFee: 10_000, decaySeconds: 120 })
    await block()
    await h.crashExecutor()
    // The start-up preparation is background work of the executor: idle() waits for it.
    await h.executor.idle()
    stages.length = 0
    await block()
    await h.waitFor('a tick after the restart', async () => stages.some((name) => name.startsWith('executor.book.')))
    expect(stages.find((name) => name.startsWith('executor.book.'))).toBe('executor.book.reused')
    expect((await h.getOrder(patient, slug))?.status).toBe('active')
  })
})
