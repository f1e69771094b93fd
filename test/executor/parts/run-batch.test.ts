import type { Address, Hash } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BatchChainReads } from '../../../daemon/executor/batch-chain-reads.ts'
import { createBatchRunner } from '../../../daemon/executor/run-batch.ts'
import type { BatchRecord } from '../../../src/journal/batch-records.ts'
import { type ExecutorFixture, startExecutorFixture } from './executor-fixture.ts'

const SENDERS: Address[] = [
  '0x00000000000000000000000000000000000000a0',
  '0x00000000000000000000000000000000000000a1',
  '0x00000000000000000000000000000000000000a2',
]

const record = (sequence: number, patch: Partial<BatchRecord> = {}): BatchRecord => ({
  batchId: `0x${String(sequence).padStart(64, '0')}` as Hash,
  chain: 'base',
  slug: 'runner',
  launchBlock: '10',
  sequence,
  tickBlock: '10',
  batchBuyer: '0x00000000000000000000000000000000000000b0',
  token: '0x00000000000000000000000000000000000000c0',
  lowestLimitFdv: null,
  predictedTokensOut: '0',
  included: [],
  excluded: [],
  state: 'journaled',
  at: 1,
  swept: 0,
  ...patch,
})

describe('batch runner at a restart: whether an unexecuted batch can still land is asked of the account that sent it', () => {
  let f: ExecutorFixture
  let asked: Address[]
  let pendingOn: Set<string>
  beforeEach(async () => {
    asked = []
    pendingOn = new Set()
    const batchReads: BatchChainReads = {
      allowances: async () => new Map(),
      batch: async () => ({ executed: false }) as Awaited<ReturnType<BatchChainReads['batch']>>,
      executionOf: async () => undefined,
      executionIn: () => undefined,
      landing: async () => ({ receipt: undefined, pending: false }),
      idle: async (_chain: string, account: Address) => {
        asked.push(account)
        return !pendingOn.has(account.toLowerCase())
      },
    } as unknown as BatchChainReads
    f = await startExecutorFixture({
      batchReads,
      wallets: {
        walletAddress: async () => SENDERS[0]!,
        submitUserOperations: async () => [],
        operatorAddress: () => SENDERS[0],
        senderAddresses: () => SENDERS,
      },
    })
  })
  afterEach(async () => {
    await f.close()
  })

  it('a batch sent from a pool account (its hash dropped) is asked of that account only; released when it has nothing pending', async () => {
    await f.store.batch([f.ctx.batchJournal.put(record(0, { state: 'sent', txHash: `0x${'11'.repeat(32)}`, from: SENDERS[2]! }))])
    await createBatchRunner(f.ctx).reconcile()
    expect(asked).toEqual([SENDERS[2]])
    expect((await f.ctx.batchJournal.get('base', 'runner', '10', 0))?.state).toBe('released')
  })

  it('a batch with a pending transaction on its sender stays open, whatever the other accounts hold', async () => {
    pendingOn.add(SENDERS[1]!.toLowerCase())
    await f.store.batch([f.ctx.batchJournal.put(record(1, { state: 'sent', txHash: `0x${'22'.repeat(32)}`, from: SENDERS[1]! }))])
    await createBatchRunner(f.ctx).reconcile()
    expect(asked).toEqual([SENDERS[1]])
    expect((await f.ctx.batchJournal.get('base', 'runner', '10', 1))?.state).toBe('sent')
  })

  it('a batch journaled with no sender recorded (a crash between sending and recording) is asked of every sender account', async () => {
    pendingOn.add(SENDERS[2]!.toLowerCase())
    await f.store.batch([f.ctx.batchJournal.put(record(2))])
    await createBatchRunner(f.ctx).reconcile()
    expect([...asked].sort()).toEqual([...SENDERS].sort())
    // One of them has a transaction pending: it may be the batch, so it stays open.
    expect((await f.ctx.batchJournal.get('base', 'runner', '10', 2))?.state).toBe('journaled')
    pendingOn.clear()
    asked = []
    await createBatchRunner(f.ctx).reconcile()
    expect((await f.ctx.batchJournal.get('base', 'runner', '10', 2))?.state).toBe('released')
  })
})
