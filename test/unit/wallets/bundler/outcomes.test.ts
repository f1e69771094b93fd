import { encodeErrorResult, parseAbi, type Hash, type TransactionReceipt } from 'viem'
import { describe, expect, it } from 'vitest'
import type { BundleOutcome, UserOperationOutcome } from '../../../../src/wallets/bundler/bundler.ts'
import type { ReceiptPoller } from '../../../../src/wallets/bundler/poll-receipt.ts'
import type { SentBundle } from '../../../../src/wallets/bundler/send-transaction.ts'
import { createBundleSettler } from '../../../../src/wallets/bundler/settle-bundle.ts'
import { outcomesInOrder } from '../../../../src/wallets/bundler/submit-bundles.ts'
import { outcomesFromLogs } from '../../../../src/wallets/bundler/user-operation-outcomes.ts'
import { BUNDLER, ENTRY_POINT, fakeContext, hashOf, item, userOperationEvent, userOperationRevertReason } from './bundle-fixtures.ts'

const TX = hashOf(0x7e)
const tooLittle = encodeErrorResult({ abi: parseAbi(['error TooLittleReceived(uint256 got, uint256 min)']), errorName: 'TooLittleReceived', args: [90n, 100n] })

describe('outcomes from the EntryPoint events', () => {
  it('reads included and reverted operations, the revert decoded; ignores other contracts', () => {
    const [ok, failed, silent] = [item(1).userOpHash, item(2).userOpHash, item(3).userOpHash]
    const logs = [
      userOperationEvent(ok, true, TX, 9n),
      userOperationRevertReason(failed, tooLittle, TX, 9n),
      userOperationEvent(failed, false, TX, 9n),
      userOperationEvent(silent, false, TX, 9n),
      { ...userOperationEvent(hashOf(99), true, TX, 9n), address: '0x0000000000000000000000000000000000000001' as const },
    ]
    const outcomes = outcomesFromLogs(logs, ENTRY_POINT.toLowerCase())
    expect([...outcomes.keys()]).toEqual([ok, failed, silent])
    expect(outcomes.get(ok)).toEqual({ status: 'included', userOpHash: ok, txHash: TX, blockNumber: 9n })
    expect(outcomes.get(failed)).toEqual({
      status: 'reverted',
      userOpHash: failed,
      txHash: TX,
      blockNumber: 9n,
      revert: { name: 'TooLittleReceived', args: [90n, 100n], message: 'TooLittleReceived(90, 100)' },
    })
    expect(outcomes.get(silent)).toMatchObject({ status: 'reverted', revert: { name: 'without_reason', args: [], message: 'reverted without a reason' } })
  })
})

describe('outcomes in item order', () => {
  it('reports the chain outcome, else not sent, else refused by the EntryPoint, else not included', () => {
    const items = [item(0), item(1), item(2), item(3)]
    const mined: UserOperationOutcome = { status: 'included', userOpHash: item(0).userOpHash, txHash: TX, blockNumber: 3n }
    const outcomes = outcomesInOrder(
      items,
      new Map([[item(0).userOpHash, mined]]),
      new Map([[item(2).userOpHash, 'AA25 invalid account nonce']]),
      new Map([[item(1).userOpHash, 'bundle_send_failed' as const]]),
    )
    expect(outcomes).toEqual<BundleOutcome[]>([
      { ...mined, id: 'op-0' },
      {
        status: 'not_sent',
        id: 'op-1',
        userOpHash: item(1).userOpHash,
        reason: 'not sent (bundle_send_failed); the operation did not run',
        code: 'bundle_send_failed',
      },
      { status: 'refused', id: 'op-2', userOpHash: item(2).userOpHash, reason: 'refused by the EntryPoint: AA25 invalid account nonce' },
      { status: 'refused', id: 'op-3', userOpHash: item(3).userOpHash, reason: 'not included in any bundle' },
    ])
  })
})

describe('settling a sent bundle', () => {
  const sent: SentBundle = { hash: TX, from: BUNDLER, raw: '0x02', nonce: 4, fromBlock: 1n, items: [item(0), item(1)] }
  const settlerWith = (receipt: TransactionReceipt | undefined, client: Parameters<typeof fakeContext>[0] = {}, maxRounds = 0) => {
    const receipts: ReceiptPoller = { poll: async () => receipt }
    const unused = () => {
      throw new Error('not expected in this test')
    }
    return createBundleSettler(fakeContext(client), {
      receipts,
      simulator: { simulate: unused },
      sender: { sendBundle: unused },
      blockGasLimit: { get: unused },
      maxRounds,
    })
  }

  it('reports the operations of a reverted handleOps as bundle_reverted, in its block', async () => {
    const settled = await settlerWith({ status: 'reverted', blockNumber: 12n, logs: [] } as unknown as TransactionReceipt).settle(sent)
    expect([...settled.values()]).toEqual([
      { status: 'bundle_reverted', userOpHash: item(0).userOpHash, txHash: TX, blockNumber: 12n },
      { status: 'bundle_reverted', userOpHash: item(1).userOpHash, txHash: TX, blockNumber: 12n },
    ])
  })

  it('reports the events of a mined handleOps', async () => {
    const logs = [userOperationEvent(item(0).userOpHash, true, TX, 12n), userOperationEvent(item(1).userOpHash, true, TX, 12n)]
    const settled = await settlerWith({ status: 'success', blockNumber: 12n, logs } as unknown as TransactionReceipt).settle(sent)
    expect([...settled.values()].map((outcome) => outcome.status)).toEqual(['included', 'included'])
  })

  it('reports not_mined, with the transaction, when no receipt came within the reconcile rounds', async () => {
    const settled = await settlerWith(undefined).settle(sent)
    expect([...settled.values()]).toEqual([
      { status: 'not_mined', userOpHash: item(0).userOpHash, txHash: TX },
      { status: 'not_mined', userOpHash: item(1).userOpHash, txHash: TX },
    ])
  })

  it('takes the events as the answer when another transaction carried every operation', async () => {
    const other: Hash = hashOf(0x07e4)
    const getLogs = async () => [userOperationEvent(item(0).userOpHash, true, other, 13n), userOperationEvent(item(1).userOpHash, true, other, 13n)]
    const settled = await settlerWith(undefined, { getLogs, getBlockNumber: async () => 20n } as never, 1).settle(sent)
    expect([...settled.values()]).toEqual([
      { status: 'included', userOpHash: item(0).userOpHash, txHash: other, blockNumber: 13n },
      { status: 'included', userOpHash: item(1).userOpHash, txHash: other, blockNumber: 13n },
    ])
  })
})
