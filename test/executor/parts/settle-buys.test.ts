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
  async function executing(userIndex: number): Promise<SubmittedBuy> {
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
      fromBlock: '11',
    }
    await f.store.batch([f.journal.putInFlight(entry)])
    return { buy: { candidate: undefined as never, spendAtoms: 100_000_000n, minTokensOut: 1n, rank: 0 }, entry }
  }

  const boughtIn = (hash: Hash, userIndex: number, tokens = 1_000n) => {
    const outcome = { txHash: hash, blockNumber: 12n, amountIn: 100_000_000n, tokensReceived: tokens, fee: (tokens * 3n) / 100n }
    const inTx = f.chain.transactions.get(hash) ?? new Map()
    inTx.set(buyKey(walletOf(userIndex), orderIdOf(userIndex)), outcome)
    f.chain.transactions.set(hash, inTx)
    f.chain.bought.set(`${walletOf(userIndex).toLowerCase()}!${orderIdOf(userIndex)}`, outcome)
    return outcome
  }

  const result = (userIndex: number, fields: Partial<UserOperationResult>): UserOperationResult => ({
    id: `${keyIdOf(userIndex)}!${SLUG}`,
    userOpHash: txHash(500 + userIndex),
    txHash: txHash(900),
    blockNumber: 12n,
    success: true,
    ...fields,
  })

  it('fills the orders a mined handleOps bought, reading its receipt once, and deletes their in-flight entries', async () => {
    const settler = createBuySettler(f.ctx)
    const buys = [await executing(1), await executing(2)]
    boughtIn(txHash(900), 1, 1_000n)
    boughtIn(txHash(900), 2, 2_000n)
    await settler.settle(await settler.fromResults(buys, [result(1, {}), result(2, {})]))
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
      await settler.settle(await settler.fromResults([buy], [result(1, { success: false, revertReason: 'TooLittleReceived(90, 100)' })]))
      expect((await f.order(1))?.status).toBe('active')
    }
  })

  it('gives up after the third non-price failure in a row: failed, with the reason, funds untouched', async () => {
    const settler = createBuySettler(f.ctx)
    for (let attempt = 1; attempt <= 3; attempt++) {
      const buy = await executing(1)
      await settler.settle(await settler.fromResults([buy], [result(1, { success: false, revertReason: 'ERC20InsufficientBalance(a, 1, 2)' })]))
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
    const settlements = await settler.fromResults(buys, [result(1, { success: false, revertReason: 'AlreadyExecuted()' })])
    expect(settlements.map((s) => s.outcome?.txHash)).toEqual([earlier.txHash, txHash(701)])
    await settler.settle(settlements)
    expect((await f.order(1))?.status).toBe('filled')
    expect((await f.order(2))?.status).toBe('filled')
  })

  it('fromChain: an order the chain never saw buying goes back to active with the reason given', async () => {
    const settler = createBuySettler(f.ctx)
    const { entry } = await executing(1)
    await settler.settle([await settler.fromChain(entry, { reason: 'submission failed', priceMoved: false })])
    expect((await f.order(1))?.status).toBe('active')
    expect((await f.journal.orderEventsOf(keyIdOf(1), SLUG)).at(-1)).toMatchObject({ from: 'executing', to: 'active', reason: 'submission failed' })
  })

  it('an order that is no longer executing keeps its state; only its in-flight entry goes', async () => {
    const settler = createBuySettler(f.ctx)
    const { entry } = await executing(1)
    await f.addOrder(1, 100, null, { status: 'filled' })
    await settler.settle([{ entry, failure: { reason: 'late', priceMoved: false } }])
    expect((await f.order(1))?.status).toBe('filled')
    expect(await f.journal.inFlight()).toEqual([])
  })
})
