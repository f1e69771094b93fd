import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { erc20Abi, type Address } from 'viem'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { APPROVAL_RETRY_BLOCKS, type BatchApprovalRecord, createBatchApprovals } from '../../daemon/executor/approve-ahead.ts'
import { batchBuyerAddress, serviceBatchBuyerArgs } from '../../daemon/executor/batch-buyer-address.ts'
import { silentLogger } from '../../src/common/logger.ts'
import { withResolvers } from '../../src/common/with-resolvers.ts'
import { del, put } from '../../src/store/open-store.ts'
import { readAll } from '../../src/store/paginate.ts'
import { type Buyer, startFlowHarness, type FlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n
const TX_GAS_CAP = 2n ** 24n

describe('wallets approve the batch buyer ahead of launches (real devnet, wallets, bundler, store)', () => {
  let h: FlowHarness
  let batchBuyer: Address
  let firstBlock: bigint
  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true })
    batchBuyer = h.batchBuyer!
    firstBlock = await h.client.getBlockNumber({ cacheTime: 0 })
  })
  afterAll(async () => {
    await h?.stop()
  })

  const allowance = (wallet: Address) =>
    h.client.readContract({ address: h.chain.addresses.stablecoin, abi: erc20Abi, functionName: 'allowance', args: [wallet, batchBuyer] })
  /** Mines a block, lets the executor ready wallets for it, and lets the approvals it sent settle (they land in a later block). */
  const block = async () => {
    await h.mine()
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    await h.executor.idle()
  }
  /** Blocks until the wallet's allowance is `amount` (approvals land a block or two after the pass that sends them). */
  const allowanceBecomes = (what: string, wallet: Address, amount: bigint) =>
    h.waitFor(
      what,
      async () => {
        await block()
        return (await allowance(wallet)) === amount
      },
      60_000,
    )
  const records = async () => (await readAll(h.store.sublevel<BatchApprovalRecord>('batchApprovals'), 'base!')).map((r) => r.value)
  /**
   * The tests below drive their own approvals pass over the shared store: the records the daemon's passes left for the
   * earlier tests' wallets (some still being revoked) would be read and counted too, so each starts from none.
   */
  const clearRecords = async () => {
    const sublevel = h.store.sublevel<BatchApprovalRecord>('batchApprovals')
    await h.store.batch((await readAll(sublevel, 'base!')).map(({ key }) => del(sublevel, key)))
  }

  let a: Buyer
  let b: Buyer
  let empty: Buyer

  it("approves each funded waiting wallet exactly its orders' caps over every waiting project, never an unfunded one", async () => {
    await h.newProject('appr-one', 'doppler')
    await h.newProject('appr-two', 'clanker')
    a = await h.newBuyer('appr-a', '200')
    b = await h.newBuyer('appr-b', '100')
    empty = await h.newBuyer('appr-empty', '0')
    await h.order(a, 'appr-one', '50', null)
    await h.order(a, 'appr-two', '30.5', '5000000')
    await h.order(b, 'appr-one', '40', null)
    await h.order(empty, 'appr-one', '10', null)
    await allowanceBecomes('a approved', a.wallet, 80_500_000n)
    await allowanceBecomes('b approved', b.wallet, 40n * USDC)
    // The approval rode on the readying: the wallets are deployed too; the unfunded one is neither.
    expect(await h.client.getCode({ address: a.wallet })).toBeDefined()
    expect(await allowance(empty.wallet)).toBe(0n)
    expect(await h.client.getCode({ address: empty.wallet })).toBeUndefined()
    // Recorded before sending: the wallets that may hold an allowance (a later revocation finds them after a restart).
    expect((await records()).map((r) => r.userIndex).sort()).toEqual([a.userIndex, b.userIndex].sort())
    // Steady state: further blocks send nothing (the allowance on chain already equals the caps).
    await h.executor.approvalsSettled()
    const bundler = h.wallets.bundlerAddress('base').toLowerCase()
    await block()
    await block()
    expect(await h.bundlePending()).toBe(false)
    const latest = await h.client.getBlock({ includeTransactions: true })
    expect(latest.transactions.filter((tx) => tx.from.toLowerCase() === bundler)).toHaveLength(0)
  })

  it('a PATCH raising a cap raises the allowance at the next passes; lowering it approves down', async () => {
    const [up] = await h.services.orders.patchOrders(a.keyId, [{ slug: 'appr-one', maxSpendUsdc: '120' }])
    expect(up?.ok).toBe(true)
    await allowanceBecomes('a raised', a.wallet, 150_500_000n)
    const [down] = await h.services.orders.patchOrders(b.keyId, [{ slug: 'appr-one', maxSpendUsdc: '25' }])
    expect(down?.ok).toBe(true)
    await allowanceBecomes('b lowered', b.wallet, 25n * USDC)
  })

  it('deleting an order approves the rest; deleting the last revokes (0) and forgets the wallet', async () => {
    const [first] = await h.services.orders.deleteOrders(a.keyId, [{ slug: 'appr-two' }])
    expect(first?.ok).toBe(true)
    await allowanceBecomes('a down to one order', a.wallet, 120n * USDC)
    const [last] = await h.services.orders.deleteOrders(a.keyId, [{ slug: 'appr-one' }])
    expect(last?.ok).toBe(true)
    await allowanceBecomes('a revoked', a.wallet, 0n)
    await h.executor.approvalsSettled()
    expect((await records()).map((r) => r.userIndex)).toEqual([b.userIndex])
  })

  it('a wallet with an allowance set still withdraws everything at once (the approval locks nothing)', async () => {
    expect(await allowance(b.wallet)).toBe(25n * USDC)
    const to = privateKeyToAccount(generatePrivateKey()).address
    h.startMining()
    try {
      const result = await h.wallets.withdraw({ userIndex: b.userIndex, chain: 'base', tokenAddress: h.chain.addresses.stablecoin, to, amount: 'max' })
      expect(result.amount).toBe((100n * USDC).toString())
    } finally {
      await h.stopMining()
    }
    expect(await h.usdcOf(to)).toBe(100n * USDC)
    expect(await h.usdcOf(b.wallet)).toBe(0n)
  })

  it('after a restart, a wallet whose last order was deleted while the executor was down is revoked (its record survived)', async () => {
    // b withdrew everything: it is no longer a funded waiting wallet, only a recorded one.
    expect(await allowance(b.wallet)).toBe(25n * USDC)
    await h.executor.stop()
    const [gone] = await h.services.orders.deleteOrders(b.keyId, [{ slug: 'appr-one' }])
    expect(gone?.ok).toBe(true)
    // A new executor knows nothing of b but its record: b has no order and no balance left.
    await h.restartExecutor()
    await allowanceBecomes('b revoked after the restart', b.wallet, 0n)
    await h.executor.approvalsSettled()
    expect(await records()).toEqual([])
  })

  it('a launch buys an approved wallet as before (one UserOperation, the approval not spent); once its only order filled, the allowance is revoked', async () => {
    const { slug, creator } = await h.newProject('appr-launch', 'doppler')
    const c = await h.newBuyer('appr-c', '100')
    await h.order(c, slug, '20', null)
    await allowanceBecomes('c approved', c.wallet, 20n * USDC)
    await h.executor.approvalsSettled()
    h.startMining()
    try {
      await h.launch(slug, 'doppler', creator)
      await h.waitFor('fill', async () => (await h.getOrder(c, slug))?.status === 'filled', 60_000)
    } finally {
      await h.stopMining()
    }
    // Bought the old way (one UserOperation through the router): the approval was not spent.
    expect(await h.usdcOf(c.wallet)).toBe(80n * USDC)
    await allowanceBecomes('c revoked once its only order filled', c.wallet, 0n)
  })

  it('no transaction of the readying (deployments, approvals) asked for more than 2^24 gas, and every one succeeded', async () => {
    const bundler = h.wallets.bundlerAddress('base').toLowerCase()
    const last = await h.client.getBlockNumber({ cacheTime: 0 })
    let seen = 0
    for (let n = firstBlock + 1n; n <= last; n++) {
      const blockWithTxs = await h.client.getBlock({ blockNumber: n, includeTransactions: true })
      for (const tx of blockWithTxs.transactions) {
        if (tx.from.toLowerCase() !== bundler) continue
        seen++
        expect(tx.gas <= TX_GAS_CAP, `bundler tx ${tx.hash} asked ${tx.gas} gas`).toBe(true)
        expect((await h.client.getTransactionReceipt({ hash: tx.hash })).status).toBe('success')
      }
    }
    // The deployments ahead and the approval bundles above.
    expect(seen).toBeGreaterThanOrEqual(4)
  })

  it('forgets a recorded wallet already at 0 with nothing wanted (a revocation whose record a stop kept), sending nothing', async () => {
    await clearRecords()
    const sent: unknown[] = []
    const approvals = createBatchApprovals({
      store: h.store,
      chains: h.devnet.chains,
      clients: { base: h.client },
      batchBuyers: { base: batchBuyer },
      wallets: {
        async submitUserOperations(_chain, requests) {
          sent.push(...requests)
          return []
        },
      },
      log: silentLogger,
      stopped: () => false,
    })
    const stale: BatchApprovalRecord = { chain: 'base', spender: batchBuyer, userIndex: a.userIndex, wallet: a.wallet, amount: '5', updatedAt: 1 }
    await h.store.batch([
      put(h.store.sublevel<BatchApprovalRecord>('batchApprovals'), `base!${batchBuyer.toLowerCase()}!${String(a.userIndex).padStart(10, '0')}`, stale),
    ])
    expect(await allowance(a.wallet)).toBe(0n)
    const input = { orders: new Map(), launched: new Set<string>(), waiting: new Set<number>(), buying: new Set<number>(), stillWanted: () => true }
    // The first pass makes it a target; the second (a target twice) reads its allowance, finds 0 and drops the record.
    expect(await approvals.pass('base', { ...input, blockNumber: 1n })).toEqual({ read: 0, sent: 0 })
    expect(await records()).toHaveLength(1)
    expect(await approvals.pass('base', { ...input, blockNumber: 2n })).toEqual({ read: 1, sent: 0 })
    expect(await records()).toEqual([])
    expect(sent).toHaveLength(0)
  })

  it('a refused approval is not sent again before APPROVAL_RETRY_BLOCKS blocks, then retried', async () => {
    await clearRecords()
    const sent: number[] = []
    const approvals = createBatchApprovals({
      store: h.store,
      chains: h.devnet.chains,
      clients: { base: h.client },
      batchBuyers: { base: batchBuyer },
      wallets: {
        async submitUserOperations(_chain, requests) {
          sent.push(...requests.map((r) => r.userIndex))
          return requests.map((r) => ({ status: 'refused' as const, id: r.id, userOpHash: `0x${'11'.repeat(32)}` as const, reason: 'not sponsored' }))
        },
      },
      log: silentLogger,
      stopped: () => false,
    })
    const userIndex = 9_999
    const wallet = privateKeyToAccount(generatePrivateKey()).address
    const order = { ...(await h.getOrder(b, 'appr-two'))!, slug: 'appr-two', maxSpendUsdc: '7', status: 'active' as const }
    const input = {
      orders: new Map([['appr-two', [{ order, userIndex, followers: 0, wallet }]]]),
      launched: new Set<string>(),
      waiting: new Set([userIndex]),
      buying: new Set<number>(),
      stillWanted: () => true,
    }
    expect(await approvals.pass('base', { ...input, blockNumber: 10n })).toEqual({ read: 0, sent: 0 })
    expect(await approvals.pass('base', { ...input, blockNumber: 11n })).toEqual({ read: 1, sent: 1 })
    await approvals.settled()
    for (let n = 12n; n < 11n + APPROVAL_RETRY_BLOCKS; n++) expect(await approvals.pass('base', { ...input, blockNumber: n })).toEqual({ read: 0, sent: 0 })
    expect(await approvals.pass('base', { ...input, blockNumber: 11n + APPROVAL_RETRY_BLOCKS })).toEqual({ read: 1, sent: 1 })
    await approvals.settled()
    expect(sent).toEqual([userIndex, userIndex])
    // Recorded before each send: the wallet may hold an allowance (here it does not; a later pass finds 0 and forgets it).
    expect((await records()).map((r) => r.userIndex)).toContain(userIndex)
    await h.store.batch([
      del(h.store.sublevel<BatchApprovalRecord>('batchApprovals'), `base!${batchBuyer.toLowerCase()}!${String(userIndex).padStart(10, '0')}`),
    ])
  })

  /** Approvals over the devnet through a stand-in bundler: every operation included (sent nothing) once `landed` resolves. */
  const includedApprovals = (landed: Promise<void> = Promise.resolve()) =>
    createBatchApprovals({
      store: h.store,
      chains: h.devnet.chains,
      clients: { base: h.client },
      batchBuyers: { base: batchBuyer },
      wallets: {
        async submitUserOperations(_chain, requests) {
          await landed
          return requests.map((r) => ({
            status: 'included' as const,
            id: r.id,
            userOpHash: `0x${'11'.repeat(32)}` as const,
            txHash: `0x${'22'.repeat(32)}` as const,
            blockNumber: 1n,
          }))
        },
      },
      log: silentLogger,
      stopped: () => false,
    })

  /** A pass's input where one fresh wallet (allowance 0 on chain) waits with one order of 7 on appr-two. */
  const loneWaitingWallet = async (userIndex: number) => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address
    const order = { ...(await h.getOrder(b, 'appr-two'))!, slug: 'appr-two', maxSpendUsdc: '7', status: 'active' as const }
    const orders = new Map([['appr-two', [{ order, userIndex, followers: 0, wallet }]]])
    return { orders, launched: new Set<string>(), waiting: new Set([userIndex]), buying: new Set<number>(), stillWanted: () => true }
  }

  // Other buyers beside it: the pass walks whichever is smaller, the buyers or what it knows and has pending (approve-ahead.ts
  // forgetBuying); both walks must forget the same.
  it.each([0, 100])(
    'an approval that lands while its wallet was buying (a batch may have pulled) is not taken as the allowance: read again (%i other buyers)',
    async (others) => {
      await clearRecords()
      const held = withResolvers<void>()
      const approvals = includedApprovals(held.promise)
      const userIndex = 9_998
      const waitingInput = await loneWaitingWallet(userIndex)
      await approvals.pass('base', { ...waitingInput, blockNumber: 10n })
      expect(await approvals.pass('base', { ...waitingInput, blockNumber: 11n })).toEqual({ read: 1, sent: 1 })
      // Its project launches while the approval is in flight: the wallet is buying.
      const buying = new Set([userIndex, ...Array.from({ length: others }, (_, i) => 20_000 + i)])
      await approvals.pass('base', { ...waitingInput, launched: new Set(['appr-two']), waiting: new Set(), buying, blockNumber: 12n })
      held.resolve()
      await approvals.settled()
      // Waiting again (say, a reorg undid the launch): its allowance is read, not assumed (here still 0: sent again).
      await approvals.pass('base', { ...waitingInput, blockNumber: 13n })
      expect(await approvals.pass('base', { ...waitingInput, blockNumber: 14n })).toEqual({ read: 1, sent: 1 })
      await approvals.settled()
      await h.store.batch([
        del(h.store.sublevel<BatchApprovalRecord>('batchApprovals'), `base!${batchBuyer.toLowerCase()}!${String(userIndex).padStart(10, '0')}`),
      ])
    },
  )

  it.each([0, 100])(
    'an allowance known from a landed approval is forgotten once its wallet buys: read again when it waits again (%i other buyers)',
    async (others) => {
      await clearRecords()
      const approvals = includedApprovals()
      const userIndex = 9_997
      const waitingInput = await loneWaitingWallet(userIndex)
      await approvals.pass('base', { ...waitingInput, blockNumber: 10n })
      expect(await approvals.pass('base', { ...waitingInput, blockNumber: 11n })).toEqual({ read: 1, sent: 1 })
      await approvals.settled()
      // Landed: the allowance is known (the stand-in bundler sent nothing on chain, so a read would find 0 and send again).
      expect(await approvals.pass('base', { ...waitingInput, blockNumber: 12n })).toEqual({ read: 0, sent: 0 })
      const buying = new Set([userIndex, ...Array.from({ length: others }, (_, i) => 20_000 + i)])
      await approvals.pass('base', { ...waitingInput, launched: new Set(['appr-two']), waiting: new Set(), buying, blockNumber: 13n })
      await approvals.pass('base', { ...waitingInput, blockNumber: 14n })
      expect(await approvals.pass('base', { ...waitingInput, blockNumber: 15n })).toEqual({ read: 1, sent: 1 })
      await approvals.settled()
      await h.store.batch([
        del(h.store.sublevel<BatchApprovalRecord>('batchApprovals'), `base!${batchBuyer.toLowerCase()}!${String(userIndex).padStart(10, '0')}`),
      ])
    },
  )

  it('never approves on a chain whose batch buyer is not deployed (no code at its address) or not configured', async () => {
    const nowhere = batchBuyerAddress(serviceBatchBuyerArgs(h.buyRouter, privateKeyToAccount(generatePrivateKey()).address))
    const sent: unknown[] = []
    const approvals = createBatchApprovals({
      store: h.store,
      chains: h.devnet.chains,
      clients: { base: h.client },
      batchBuyers: { base: nowhere },
      wallets: {
        async submitUserOperations(_chain, requests) {
          sent.push(...requests)
          return []
        },
      },
      log: silentLogger,
      stopped: () => false,
    })
    const orders = new Map([['appr-one', [{ order: (await h.getOrder(b, 'appr-one'))!, userIndex: b.userIndex, followers: 0, wallet: b.wallet }]]])
    const input = { orders, launched: new Set<string>(), waiting: new Set([b.userIndex]), buying: new Set<number>(), stillWanted: () => true }
    for (const blockNumber of [1n, 2n, 3n]) {
      expect(await approvals.pass('base', { ...input, blockNumber })).toEqual({ read: 0, sent: 0 })
      expect(await approvals.pass('second_chain', { ...input, blockNumber })).toEqual({ read: 0, sent: 0 })
    }
    expect(sent).toHaveLength(0)
  })
})
