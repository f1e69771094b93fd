import { TransactionNotFoundError, type Hash, type PublicClient } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Bundler } from '../../../src/wallets/bundler/bundler.ts'
import { followLanding, type ReceiptPoller } from '../../../src/wallets/bundler/poll-receipt.ts'
import type { OperationPreparer } from '../../../src/wallets/prepare/operation-preparer.ts'
import { runOperationsInCall } from '../../../src/wallets/run-operations-in-call.ts'

const HASH: Hash = `0x${'77'.repeat(32)}`
const silent = { warn: () => undefined }

describe('runOperationsInCall', () => {
  it('refuses, signing nothing, on a chain that submits through an external bundler (no call of our own to run them in)', async () => {
    let prepared = 0
    const preparer = {
      prepare: async () => {
        prepared++
        return { items: [] }
      },
    } as unknown as OperationPreparer
    const outcome = await runOperationsInCall(
      { preparer, bundler: { submit: async () => [] } as Bundler, client: {} as PublicClient, from: '0x0000000000000000000000000000000000000001' },
      { requests: [], build: () => ({ to: '0x0000000000000000000000000000000000000002', data: '0x' }), gas: 1n },
    )
    expect(outcome).toMatchObject({ status: 'not_prepared', reason: expect.stringContaining('external bundler') })
    expect(prepared).toBe(0)
  })
})

describe('followLanding', () => {
  const receipts = (receipt: unknown): ReceiptPoller => ({ poll: async () => receipt as never })

  it('a receipt: landed; none and the node forgot the transaction: dropped, the nonce counter re-read; none but still known: pending', async () => {
    let resyncs = 0
    const parts = (known: boolean, receipt: unknown) => ({
      client: {
        getTransaction: async () => {
          if (!known) throw new TransactionNotFoundError({ hash: HASH })
          return {}
        },
      } as unknown as PublicClient,
      receipts: receipts(receipt),
      resync: () => void resyncs++,
      log: silent,
    })
    expect(await followLanding(parts(true, { status: 'success' }), HASH, 'call')).toEqual({ receipt: { status: 'success' }, pending: false })
    expect(await followLanding(parts(true, undefined), HASH, 'call')).toEqual({ receipt: undefined, pending: true })
    expect(resyncs).toBe(0)
    expect(await followLanding(parts(false, undefined), HASH, 'call')).toEqual({ receipt: undefined, pending: false })
    expect(resyncs).toBe(1)
  })

  it('a transaction it cannot follow at all counts as pending', async () => {
    const failing: ReceiptPoller = {
      poll: async () => {
        throw new Error('rpc down')
      },
    }
    expect(await followLanding({ client: {} as PublicClient, receipts: failing, resync: () => undefined, log: silent }, HASH, 'call')).toEqual({
      receipt: undefined,
      pending: true,
    })
  })
})
