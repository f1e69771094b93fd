import { TransactionNotFoundError, type Hash, type PublicClient } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Bundler } from '../../../src/wallets/bundler/bundler.ts'
import { followLanding, type ReceiptPoller } from '../../../src/wallets/bundler/poll-receipt.ts'
import type { OperationPreparer } from '../../../src/wallets/prepare/operation-preparer.ts'
import { runOperationsInCall } from '../../../src/wallets/run-operations-in-call.ts'
import { EIP_7825_TX_GAS_CAP } from '../../../src/chain/tx-gas-cap.ts'
import { ContractFunctionRevertedError, encodeErrorResult, parseAbi, type UserOperation } from 'viem'

const HASH: Hash = `0x${'77'.repeat(32)}`
const CAP = EIP_7825_TX_GAS_CAP
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
      {
        preparer,
        bundler: { submit: async () => [] } as Bundler,
        client: {} as PublicClient,
        from: '0x0000000000000000000000000000000000000001',
        txGasCap: CAP,
      },
      { requests: [], build: () => ({ to: '0x0000000000000000000000000000000000000002', data: '0x' }), gas: 1n },
    )
    expect(outcome).toMatchObject({ status: 'not_sent', reason: expect.stringContaining('external bundler') })
    expect(prepared).toBe(0)
  })
})

describe('runOperationsInCall under the per-transaction gas cap (EIP-7825)', () => {
  const TO = '0x0000000000000000000000000000000000000002'
  /** `count` operations declaring 500k gas each (verification 100k + call 340k + pre-verification 60k). */
  const preparerOf = (count: number) =>
    ({
      prepare: async () => ({
        items: Array.from({ length: count }, (_, n) => ({
          id: `op-${n}`,
          userOpHash: `0x${n.toString(16).padStart(64, '0')}` as Hash,
          userOperation: {
            sender: TO,
            nonce: 0n,
            callData: '0x',
            callGasLimit: 340_000n,
            verificationGasLimit: 100_000n,
            preVerificationGas: 60_000n,
            maxFeePerGas: 0n,
            maxPriorityFeePerGas: 0n,
            signature: '0x',
          } as UserOperation<'0.7'>,
        })),
        unprepared: new Map(),
        finish: () => undefined,
      }),
    }) as unknown as OperationPreparer
  const run = (count: number, chain: { call: (gas: bigint) => void; estimate: () => bigint }) => {
    const sent: bigint[] = []
    const callGas: bigint[] = []
    const bundler = {
      submit: async () => [],
      sendCall: async (call: { gas: bigint }) => {
        sent.push(call.gas)
        return { hash: HASH, landed: Promise.resolve({ receipt: { status: 'success', blockNumber: 7n }, pending: false }) }
      },
    } as unknown as Bundler
    const client = {
      call: async ({ gas }: { gas: bigint }) => {
        callGas.push(gas)
        chain.call(gas)
        return { data: '0x' }
      },
      estimateGas: async ({ gas }: { gas: bigint }) => {
        expect(gas).toBe(CAP)
        return chain.estimate()
      },
    } as unknown as PublicClient
    const outcome = runOperationsInCall(
      { preparer: preparerOf(count), bundler, client, from: '0x0000000000000000000000000000000000000001', txGasCap: CAP },
      { requests: [], build: () => ({ to: TO, data: '0x' }), gas: 300_000n },
    )
    return { outcome, sent, callGas }
  }

  it('within the cap: simulates and sends with the declared limits, as before', async () => {
    const { outcome, sent, callGas } = run(10, { call: () => undefined, estimate: () => 0n })
    expect(await outcome).toEqual({ status: 'included', txHash: HASH, blockNumber: 7n })
    expect(sent).toEqual([300_000n + 10n * 500_000n])
    expect(callGas).toEqual(sent)
  })

  it('declared over the cap but succeeding within it: simulated at the cap, sent with the measured gas and an eighth, never over the cap', async () => {
    const small = run(40, { call: () => undefined, estimate: () => 8_000_000n })
    expect(await small.outcome).toMatchObject({ status: 'included' })
    expect(small.callGas).toEqual([CAP])
    expect(small.sent).toEqual([9_000_000n])
    const near = run(40, { call: () => undefined, estimate: () => 16_000_000n })
    expect(await near.outcome).toMatchObject({ status: 'included' })
    expect(near.sent).toEqual([CAP])
  })

  it('failing within the cap: a typed over_gas_cap outcome naming the operations and the cap, nothing sent', async () => {
    const abi = parseAbi(['error OutOfRoom()'])
    const { outcome, sent } = run(40, {
      call: () => {
        throw new ContractFunctionRevertedError({ abi, data: encodeErrorResult({ abi, errorName: 'OutOfRoom' }), functionName: 'settle' })
      },
      estimate: () => 0n,
    })
    expect(await outcome).toMatchObject({ status: 'over_gas_cap', operations: 40, declaredGas: 300_000n + 40n * 500_000n, cap: CAP })
    expect(sent).toEqual([])
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
