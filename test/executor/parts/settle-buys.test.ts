import type { Hash } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SubmittedBuy } from '../../../daemon/executor/decide-tick.ts'
import { buyKey } from '../../../daemon/executor/find-buy.ts'
import { createBuySettler } from '../../../daemon/executor/settle-buys.ts'
import type { InFlightExecution } from '../../../src/journal/journal-records.ts'
import type { UserOperationResult } from '../../../src/wallets/wallet-service.ts'
import { type ExecutorFixture, keyIdOf, launch, SLUG, startExecutorFixture, txHash, walletOf } from './executor-fixture.ts'

const orderIdOf = (userIndex: number) => `0x${(0xabc0 + userIndex).toString(16).padStart(64, '0')}` as Hash

describe('settling buys (settle-buys.ts)', () => {
  let f: ExecutorFixture
  beforeEach(async () => {
    f = await startExecutorFixture()
  })
  afterEach(() => f.close())

  /** An order of `userIndex` in `executing` with its in-flight entry, as the decider leaves it. */
  async function executing(userIndex: number, fromBlock = '11'): Promise<SubmittedBuy> {
    await f.addOrder(userIndex, 100, null, { status: 'executing' })
    const entry: InFlightExecution = {
      keyId: keyIdOf(userIndex),
      slug: SLUG,
      chain: 'base',
      userIndex,
      wallet: walletOf(userIndex),
      spendAtoms: '100000000',
      minTokensOut: '1',
      token: launch.token,
      orderId: orderIdOf(userIndex),
      submittedAt: 0,
      fromBlock,
    }
    await f.store.batch([f.journal.putInFlight(entry)])
    return { buy: { candidate: undefined as never, spendAtoms: 100_000_000n, minTokensOut: 1n, rank: 0 }, entry }
  }

  const boughtIn = (hash: Hash, userIndex: number, tokens = 1_000n, blockNumber = 12n) => {
    const outcome = { txHash: hash, blockNumber, amountIn: 100_000_000n, tokensReceived: tokens, fee: (tokens * 3n) / 100n }
    const inTx = f.chain.transactions.get(hash) ?? new Map()
    inTx.set(buyKey(walletOf(userIndex), orderIdOf(userIndex)), outcome)
    f.chain.transactions.set(hash, inTx)
    f.chain.bought.set(`${walletOf(userIndex).toLowerCase()}!${orderIdOf(userIndex)}`, outcome)
    return outcome
  }

  const ids = (userIndex: number) => ({ id: `${keyIdOf(userIndex)}!${SLUG}`, userOpHash: txHash(500 + userIndex) })
  const included = (userIndex: number): UserOperationResult => ({ status: 'included', ...ids(userIndex), txHash: txHash(900), blockNumber: 12n })
  const reverted = (userIndex: number, name: string, message: string): UserOperationResult => ({
    status: 'reverted',
    ...ids(userIndex),
    txHash: txHash(900),
    blockNumber: 12n,
    revert: { name, args: [], message },
  })

  it('fills the orders a mined handleOps bought, reading its receipt once, and deletes their in-flight entries', async () => {
    const settler = createBuySettler(f.ctx)
    const buys = [await executing(1), await executing(2)]
    boughtIn(txHash(900), 1, 1_000n)
    boughtIn(txHash(900), 2, 2_000n)
    await settler.settle(await settler.fromResults(buys, [included(1), included(2)]))
    expect(f.chain.receiptReads).toEqual([txHash(900)])
    expect(await f.order(1)).toMatchObject({ status: 'filled', execution: { spentUsdc: '100', tokensReceived: '970', feeTokens: '30', txHash: txHash(900) } })
    expect(await f.order(2)).toMatchObject({ status: 'filled', execution: { tokensReceived: '1940', feeTokens: '60' } })
    expect(await f.journal.inFlight()).toEqual([])
    expect((await f.journal.fillsAbove('base', 0n)).map((fill) => fill.keyId)).toEqual([keyIdOf(1), keyIdOf(2)])
  })

  it('a price revert returns the order to active and never counts towards giving up', async () => {
    const settler = createBuySettler(f.ctx)
    for (let attempt = 0; attempt < 4; attempt++) {
      const buy = await executing(1)
      await settler.settle(await settler.fromResults([buy], [reverted(1, 'TooLittleReceived', 'TooLittleReceived(90, 100)')]))
      expect((await f.order(1))?.status).toBe('active')
    }
    // The decoded name is what the failure count reads, and it is in the order's events.
    const events = await f.journal.orderEventsOf(keyIdOf(1), SLUG)
    expect(events.filter((e) => e.to === 'active').map((e) => [e.errorName, e.reason])).toEqual(
      Array(4).fill(['TooLittleReceived', 'TooLittleReceived(90, 100)']),
    )
  })

  it('a launch gating revert (a block the launchpad still closes) never counts towards giving up either', async () => {
    const settler = createBuySettler(f.ctx)
    for (let attempt = 0; attempt < 4; attempt++) {
      const buy = await executing(1)
      await settler.settle(await settler.fromResults([buy], [reverted(1, 'NotAuctionBlock', 'NotAuctionBlock() (in 0xhook)')]))
      expect((await f.order(1))?.status).toBe('active')
    }
    // Two real failures after gating reverts are two, not six: the gating reverts broke the chain.
    for (let attempt = 1; attempt <= 2; attempt++) {
      const buy = await executing(1)
      await settler.settle(await settler.fromResults([buy], [reverted(1, 'ERC20InsufficientBalance', 'ERC20InsufficientBalance(a, 1, 2)')]))
    }
    expect((await f.order(1))?.status).toBe('active')
  })

  it('a revert without a reason in a Clanker auction block (the module decoding a plain swap as a bid) is gating; elsewhere it counts', async () => {
    const settler = createBuySettler(f.ctx)
    const mevModule = walletOf(77)
    await f.store.batch(f.journal.putLaunch({ ...launch, feeSources: { hook: walletOf(76), mevModule }, feeSchedule: { kind: 'clanker_auction' } }))
    const silent = (userIndex: number, blockNumber: bigint): UserOperationResult => ({
      status: 'reverted',
      ...ids(userIndex),
      txHash: txHash(900),
      blockNumber,
      revert: { name: 'without_reason', args: [], message: 'reverted without a reason (in 0xhook)' },
    })
    f.chain.auctionBlocks.add(`${mevModule.toLowerCase()}!12`)
    for (let attempt = 0; attempt < 4; attempt++) {
      const buy = await executing(1)
      await settler.settle(await settler.fromResults([buy], [silent(1, 12n)]))
      expect((await f.order(1))?.status).toBe('active')
    }
    const events = await f.journal.orderEventsOf(keyIdOf(1), SLUG)
    expect(events.filter((e) => e.to === 'active').map((e) => e.errorName)).toEqual(Array(4).fill('AuctionBlock'))
    expect(events.at(-1)?.reason).toBe('reverted without a reason (in 0xhook): block 12 was a Clanker auction block')
    // The same silent revert in an open block is a fault: the third in a row gives up.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const buy = await executing(1)
      await settler.settle(await settler.fromResults([buy], [silent(1, 13n)]))
    }
    expect((await f.order(1))?.status).toBe('failed')
  })

  it('gives up after the third non-price failure in a row: failed, with the reason, funds untouched', async () => {
    const settler = createBuySettler(f.ctx)
    for (let attempt = 1; attempt <= 3; attempt++) {
      const buy = await executing(1)
      await settler.settle(await settler.fromResults([buy], [reverted(1, 'ERC20InsufficientBalance', 'ERC20InsufficientBalance(a, 1, 2)')]))
      expect((await f.order(1))?.status).toBe(attempt < 3 ? 'active' : 'failed')
    }
    expect((await f.order(1))?.execution).toMatchObject({ spentUsdc: '0', failureReason: 'ERC20InsufficientBalance(a, 1, 2)' })
  })

  it('asks the chain whenever a result is not a clean success: an earlier attempt that bought fills the order', async () => {
    const settler = createBuySettler(f.ctx)
    const buys = [await executing(1), await executing(2)]
    // Order 1's operation reverted with AlreadyExecuted: an earlier attempt bought it. Order 2 has no result at all.
    const earlier = boughtIn(txHash(700), 1)
    boughtIn(txHash(701), 2)
    const settlements = await settler.fromResults(buys, [reverted(1, 'AlreadyExecuted', 'AlreadyExecuted()')])
    expect(settlements.map((s) => s.outcome?.txHash)).toEqual([earlier.txHash, txHash(701)])
    await settler.settle(settlements)
    expect((await f.order(1))?.status).toBe('filled')
    expect((await f.order(2))?.status).toBe('filled')
  })

  it('a retry that meets its own earlier buy (AlreadyExecuted) finds it from the first attempt, not from its own block', async () => {
    const settler = createBuySettler(f.ctx)
    // Attempt 1 was submitted at block 5 and went back to active unmined; it landed at block 8; attempt 2 at block 20.
    const event = (from: 'active' | 'executing', to: 'active' | 'executing', blockNumber?: string) =>
      f.journal.putOrderEvent({ keyId: keyIdOf(1), slug: SLUG, from, to, at: 1, ...(blockNumber ? { blockNumber } : {}), reason: 'test' })
    await f.store.batch([event('active', 'executing', '5'), event('executing', 'active'), event('active', 'executing', '20')])
    const buy = await executing(1, '20')
    const earlier = boughtIn(txHash(702), 1, 1_000n, 8n)
    const [settlement] = await settler.fromResults([buy], [reverted(1, 'AlreadyExecuted', 'AlreadyExecuted()')])
    expect(settlement?.outcome?.txHash).toBe(earlier.txHash)
    await settler.settle([settlement!])
    expect(await f.order(1)).toMatchObject({ status: 'filled', execution: { txHash: earlier.txHash, tokensReceived: '970' } })
  })

  it('an operation that never ran (refused, not sent, not mined) is asked of the chain; its readable reason and hashes go in the event', async () => {
    const settler = createBuySettler(f.ctx)
    const buys = [await executing(1), await executing(2), await executing(3)]
    boughtIn(txHash(702), 3) // the unconfirmed one landed after all
    const settlements = await settler.fromResults(buys, [
      { status: 'refused', ...ids(1), reason: 'refused by the EntryPoint: AA25 invalid account nonce' },
      { status: 'not_sent', id: ids(2).id, reason: 'not sent (bundle_send_failed); the operation did not run' },
      { status: 'not_mined', ...ids(3), txHash: txHash(901) },
    ])
    await settler.settle(settlements)
    expect((await f.order(1))?.status).toBe('active')
    expect((await f.order(2))?.status).toBe('active')
    expect((await f.order(3))?.status).toBe('filled')
    const last = async (userIndex: number) => (await f.journal.orderEventsOf(keyIdOf(userIndex), SLUG)).at(-1)
    expect(await last(1)).toMatchObject({ reason: 'refused by the EntryPoint: AA25 invalid account nonce', userOpHash: ids(1).userOpHash })
    expect((await last(1))?.txHash).toBeUndefined()
    expect((await last(1))?.errorName).toBeUndefined()
    expect(await last(2)).toMatchObject({ reason: 'not sent (bundle_send_failed); the operation did not run' })
    expect((await last(2))?.userOpHash).toBeUndefined()
  })

  it('a buy the node refused for the per-transaction gas cap (not sent, transaction_over_gas_cap) never counts towards giving up', async () => {
    const settler = createBuySettler(f.ctx)
    const reason = 'not sent (transaction_over_gas_cap); the operation did not run'
    for (let attempt = 0; attempt < 4; attempt++) {
      const buy = await executing(1)
      await settler.settle(await settler.fromResults([buy], [{ status: 'not_sent', ...ids(1), reason, code: 'transaction_over_gas_cap' }]))
      expect((await f.order(1))?.status).toBe('active')
    }
    expect((await f.journal.orderEventsOf(keyIdOf(1), SLUG)).at(-1)).toMatchObject({ reason, errorName: 'TransactionOverGasCap' })
    // Any other send failure counts: the third in a row gives up.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const buy = await executing(1)
      await settler.settle(
        await settler.fromResults([buy], [{ status: 'not_sent', ...ids(1), reason: 'not sent (bundle_send_failed)', code: 'bundle_send_failed' }]),
      )
    }
    expect((await f.order(1))?.status).toBe('failed')
  })

  it('fromChain: an order the chain never saw buying goes back to active with the reason given', async () => {
    const settler = createBuySettler(f.ctx)
    const { entry } = await executing(1)
    await settler.settle([await settler.fromChain(entry, { reason: 'submission failed' })])
    expect((await f.order(1))?.status).toBe('active')
    expect((await f.journal.orderEventsOf(keyIdOf(1), SLUG)).at(-1)).toMatchObject({ from: 'executing', to: 'active', reason: 'submission failed' })
  })

  it('touches only the orders whose in-flight entry names this execution: one a batch or a later UserOperation holds now keeps its state and entry', async () => {
    // Order 1's UserOperation came back not mined and its settlement was delayed; meanwhile the order was released and a
    // batch took it (executing, in-flight entry naming the batch). Order 2 was sent again by a later tick (block 14).
    // Settling the stale UserOperations must not send either back to active or delete the entry that holds it now: the
    // next tick would buy it again while the batch (or the later operation) may still land.
    const settler = createBuySettler(f.ctx)
    const [stale1, stale2, own] = [await executing(1), await executing(2), await executing(3)]
    const batchId = `0x${'66'.repeat(32)}` as Hash
    const byBatch = { ...stale1.entry, batchId, submittedAt: 7, fromBlock: '14' }
    const later = { ...stale2.entry, submittedAt: 8, fromBlock: '14' }
    await f.store.batch([f.journal.putInFlight(byBatch), f.journal.putInFlight(later)])
    const notMined = (userIndex: number): UserOperationResult => ({ status: 'not_mined', ...ids(userIndex), txHash: txHash(902) })
    await settler.settle(await settler.fromResults([stale1, stale2, own], [notMined(1), notMined(2), notMined(3)]))
    expect((await f.order(1))?.status).toBe('executing')
    expect((await f.order(2))?.status).toBe('executing')
    const left = (await f.journal.inFlight('base')).sort((a, b) => a.userIndex - b.userIndex)
    expect(left).toEqual([byBatch, later])
    // Its own order (entry unchanged) is settled as before: active again, its entry gone.
    expect((await f.order(3))?.status).toBe('active')
  })

  it('an order that is no longer executing keeps its state; only its in-flight entry goes', async () => {
    const settler = createBuySettler(f.ctx)
    const { entry } = await executing(1)
    await f.addOrder(1, 100, null, { status: 'filled' })
    await settler.settle([{ entry, failure: { reason: 'late' } }])
    expect((await f.order(1))?.status).toBe('filled')
    expect(await f.journal.inFlight()).toEqual([])
  })
})
