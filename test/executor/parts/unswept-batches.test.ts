import type { Hash } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BatchChainReads } from '../../../daemon/executor/batch-chain-reads.ts'
import { createBatchRunner } from '../../../daemon/executor/run-batch.ts'
import { reopenUnsweptBatches } from '../../../daemon/executor/unswept-batches.ts'
import type { BatchRecord } from '../../../src/journal/batch-records.ts'
import { type ExecutorFixture, startExecutorFixture } from './executor-fixture.ts'

const BUYER = '0x00000000000000000000000000000000000000b0'
const ALLOCATION = `0x${'ab'.repeat(32)}` as Hash

/** A batch journaled swept: two buyers paid, executed at `block`. */
const sweptRecord = (sequence: number, block: number): BatchRecord => ({
  batchId: `0x${String(sequence).padStart(64, '0')}` as Hash,
  chain: 'base',
  slug: 'unswept',
  launchBlock: '10',
  sequence,
  tickBlock: String(block - 1),
  batchBuyer: BUYER,
  token: '0x00000000000000000000000000000000000000c0',
  lowestLimitFdv: null,
  predictedTokensOut: '0',
  included: [0, 1].map((i) => ({
    keyId: `k${i}`,
    slug: 'unswept',
    userIndex: i,
    wallet: `0x${String(i + 1).padStart(40, '0')}`,
    orderId: `0x${String(i + 1).padStart(64, '0')}`,
    spendAtoms: '1000000',
    rank: i,
  })) as BatchRecord['included'],
  excluded: [],
  state: 'swept',
  at: 1,
  swept: 2,
  txHash: `0x${String(sequence).padStart(64, 'e')}` as Hash,
  execution: {
    txHash: `0x${String(sequence).padStart(64, 'e')}` as Hash,
    blockNumber: String(block),
    totalIn: '2000000',
    tokensOut: '10',
    skipped: [],
  } as unknown as BatchRecord['execution'],
})

describe('a batch journaled swept whose sweep the chain lost (a reorg, a restarted chain) is swept again', () => {
  let f: ExecutorFixture
  let onChain: Map<string, { executed: boolean; swept: number }>
  let read: string[]
  let sweeps: Array<{ to: string; data: string }>
  const HEAD = 100n
  beforeEach(async () => {
    onChain = new Map()
    read = []
    sweeps = []
    const batchReads = {
      head: async () => HEAD,
      batch: async (_chain: string, _buyer: string, batchId: Hash) => {
        read.push(batchId)
        const state = onChain.get(batchId) ?? { executed: true, swept: 2 }
        return { allocationHash: ALLOCATION, executed: state.executed, swept: state.swept }
      },
    } as unknown as BatchChainReads
    f = await startExecutorFixture({
      batchReads,
      // The sweep sizes its chunks by the chain's gas cap (the default 2^24 when the config names none).
      chains: { base: {} } as unknown as ExecutorFixture['ctx']['chains'],
      wallets: {
        walletAddress: async () => BUYER,
        submitUserOperations: async () => [],
        // A sweep chunk: recorded, and the chain's cursor moved to its end (as the contract's sweep does).
        sendCall: async (_chain: string, call: { to: string; data: string }) => {
          sweeps.push(call)
          for (const [id, state] of onChain) if (state.executed) onChain.set(id, { ...state, swept: 2 })
          return { hash: `0x${'5'.repeat(64)}`, landed: Promise.resolve({ receipt: { status: 'success' }, pending: false }) }
        },
      } as unknown as ExecutorFixture['ctx']['wallets'],
    })
  })
  afterEach(async () => {
    await f.close()
  })

  it('writes back to executed, at the chain cursor, only the recent batches whose chain cursor is short; leaves the rest', async () => {
    // finalityBlocks 3 in the fixture: executed at or above 100 - 6 = 94 is checked.
    const lost = sweptRecord(0, 98)
    const whole = sweptRecord(1, 97)
    const undone = sweptRecord(2, 96)
    const old = sweptRecord(3, 90)
    onChain.set(lost.batchId, { executed: true, swept: 1 })
    onChain.set(undone.batchId, { executed: false, swept: 0 })
    onChain.set(old.batchId, { executed: true, swept: 0 })
    await f.store.batch([lost, whole, undone, old].map((r) => f.ctx.batchJournal.put(r)))

    const reopened = await reopenUnsweptBatches(f.ctx, 'base')

    expect(reopened.map((r) => r.batchId)).toEqual([lost.batchId])
    const stored = await f.ctx.batchJournal.get('base', 'unswept', '10', 0)
    expect(stored).toMatchObject({ state: 'executed', swept: 1 })
    // The batch whose chain no longer shows it executed is revalidate-fills' (its orders held): left swept here.
    expect((await f.ctx.batchJournal.get('base', 'unswept', '10', 2))?.state).toBe('swept')
    expect((await f.ctx.batchJournal.get('base', 'unswept', '10', 1))?.state).toBe('swept')
    // Older than twice the finality depth: not even read.
    expect((await f.ctx.batchJournal.get('base', 'unswept', '10', 3))?.state).toBe('swept')
    expect(read).not.toContain(old.batchId)
  })

  it('the runner resumes the sweep of a reopened batch (it asks the chain for its cursor and sends)', async () => {
    const lost = sweptRecord(0, 99)
    onChain.set(lost.batchId, { executed: true, swept: 0 })
    await f.store.batch([f.ctx.batchJournal.put(lost)])
    const runner = createBatchRunner(f.ctx)
    await runner.resweep('base')
    await Promise.all(runner.running())
    // One sweep chunk sent to the batch buyer from the chain's cursor 0, then the record swept again.
    expect(sweeps).toHaveLength(1)
    expect(sweeps[0]!.to).toBe(BUYER)
    expect(await f.ctx.batchJournal.get('base', 'unswept', '10', 0)).toMatchObject({ state: 'swept', swept: 2 })
  })

  it('a record the reorg handling wrote `sent` after the swept list was read is not written back to executed', async () => {
    const lost = sweptRecord(0, 99)
    onChain.set(lost.batchId, { executed: true, swept: 1 })
    await f.store.batch([f.ctx.batchJournal.put(lost)])
    const held: BatchRecord = { ...lost, state: 'sent', undone: { txHash: lost.txHash!, blockNumber: '99', at: 2 } }
    // revalidate-fills.ts holds the batch while its cursor is read (between the list and the write).
    const racing = {
      ...f.ctx,
      batchReads: {
        ...f.ctx.batchReads,
        batch: async (chain: 'base', buyer: `0x${string}`, batchId: Hash) => {
          await f.store.batch([f.ctx.batchJournal.put(held)])
          return f.ctx.batchReads.batch(chain, buyer, batchId)
        },
      },
    }
    expect(await reopenUnsweptBatches(racing as typeof f.ctx, 'base')).toEqual([])
    expect(await f.ctx.batchJournal.get('base', 'unswept', '10', 0)).toEqual(held)
  })

  it('a chain that answers nothing leaves every record as it was', async () => {
    await f.store.batch([f.ctx.batchJournal.put(sweptRecord(0, 99))])
    const failing = { ...f.ctx, batchReads: { ...f.ctx.batchReads, head: async () => HEAD, batch: async () => Promise.reject(new Error('down')) } }
    expect(await reopenUnsweptBatches(failing as typeof f.ctx, 'base')).toEqual([])
    expect((await f.ctx.batchJournal.get('base', 'unswept', '10', 0))?.state).toBe('swept')
  })
})
