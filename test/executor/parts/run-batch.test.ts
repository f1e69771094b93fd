import type { Address, Hash } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BatchChainReads } from '../../../daemon/executor/batch-chain-reads.ts'
import { createBatchRunner } from '../../../daemon/executor/run-batch.ts'
import { sweepBatch } from '../../../daemon/executor/sweep-batch.ts'
import type { BatchRecord } from '../../../src/journal/batch-records.ts'
import { withResolvers } from '../../../src/common/with-resolvers.ts'
import { type ExecutorFixture, keyIdOf, SLUG, startExecutorFixture, walletOf } from './executor-fixture.ts'

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

/** One buyer (user 1) paying 100 atoms, its router order id made of `idByte`. */
const buyerEntry = (idByte: string): BatchRecord['included'][number] => ({
  keyId: keyIdOf(1),
  slug: 'runner',
  userIndex: 1,
  wallet: walletOf(1),
  orderId: `0x${idByte.repeat(32)}` as Hash,
  spendAtoms: '100',
  rank: 0,
  predicted: { gross: '1', fee: '0', net: '1' },
})

/** A batch's BatchExecuted of those 100 atoms in transaction `txByte`, at `blockNumber`. */
const executionAt = (txByte: string, blockNumber: string): NonNullable<BatchRecord['execution']> => ({
  txHash: `0x${txByte.repeat(32)}` as Hash,
  blockNumber,
  totalIn: '100',
  tokensOut: '1000',
  skipped: [],
  allocationHash: `0x${'77'.repeat(32)}` as Hash,
})

/** The chain reads of a batch executed on the chain, swept `swept()` buyers so far, found by `executionOf`. */
const executedReads = (swept: () => number, executionOf: () => Promise<NonNullable<BatchRecord['execution']>>): BatchChainReads =>
  ({
    allowances: async () => new Map(),
    batch: async () => ({ executed: true, allocationHash: `0x${'77'.repeat(32)}`, swept: swept() }),
    executionOf,
    executionIn: () => undefined,
    landing: async () => ({ receipt: undefined, pending: false }),
    idle: async () => true,
    head: async () => 1_000n,
  }) as unknown as BatchChainReads

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

describe('batch runner: an executed batch the chain no longer holds (a reorg or a restarted chain dropped its block)', () => {
  let f: ExecutorFixture
  let sent: number
  beforeEach(async () => {
    sent = 0
    const batchReads: BatchChainReads = {
      allowances: async () => new Map(),
      // Not executed on this chain: its allocation hash reads 0, which must not pass for "nothing to sweep".
      batch: async () => ({ executed: false, allocationHash: `0x${'00'.repeat(32)}`, swept: 0 }),
      executionOf: async () => undefined,
      executionIn: () => undefined,
      landing: async () => ({ receipt: undefined, pending: false }),
      idle: async () => true,
      head: async () => 1_000n,
    }
    f = await startExecutorFixture({
      batchReads,
      chains: { base: {} } as ExecutorFixture['ctx']['chains'],
      wallets: {
        walletAddress: async () => SENDERS[0]!,
        submitUserOperations: async () => [],
        operatorAddress: () => SENDERS[0],
        senderAddresses: () => SENDERS,
        sendCall: async () => {
          sent++
          throw new Error('no sweep may be sent for a batch the chain does not hold')
        },
      },
    })
  })
  afterEach(async () => {
    await f.close()
  })

  const executed = (sequence: number): BatchRecord =>
    record(sequence, {
      state: 'executed',
      txHash: `0x${'33'.repeat(32)}`,
      from: SENDERS[0]!,
      included: [
        {
          keyId: 'k1',
          slug: 'runner',
          userIndex: 1,
          wallet: '0x00000000000000000000000000000000000000d1',
          orderId: `0x${'44'.repeat(32)}`,
          spendAtoms: '10000000',
          rank: 0,
          predicted: { gross: '1', fee: '0', net: '1' },
        },
      ],
      execution: {
        txHash: `0x${'33'.repeat(32)}`,
        blockNumber: '12',
        totalIn: '10000000',
        tokensOut: '1000',
        skipped: [],
        allocationHash: `0x${'55'.repeat(32)}`,
      },
    })
  const settled = async (runner: ReturnType<typeof createBatchRunner>) => {
    while (runner.running().length > 0) await Promise.all(runner.running())
  }

  it('is released (not marked swept) once its fills are undone, and no sweep is sent', async () => {
    await f.store.batch([f.ctx.batchJournal.put(executed(3))])
    const runner = createBatchRunner(f.ctx)
    await runner.reconcile()
    await settled(runner)
    const after = await f.ctx.batchJournal.get('base', 'runner', '10', 3)
    expect(after?.state).toBe('released')
    expect(after?.releaseReason).toMatch(/undone/)
    expect(sent).toBe(0)
  })

  it('stays executed while a fill of it stands (a node behind the chain, or a reorg not yet revalidated)', async () => {
    const batch = executed(4)
    const entry = batch.included[0]!
    await f.store.batch([
      f.ctx.batchJournal.put(batch),
      f.journal.putFill({
        chain: 'base',
        keyId: entry.keyId,
        slug: entry.slug,
        blockNumber: '12',
        txHash: batch.txHash!,
        wallet: entry.wallet,
        orderId: entry.orderId,
        userIndex: entry.userIndex,
        spendAtoms: entry.spendAtoms,
        token: batch.token,
        batchId: batch.batchId,
        batchBuyer: batch.batchBuyer,
      }),
    ])
    const runner = createBatchRunner(f.ctx)
    await runner.reconcile()
    await settled(runner)
    expect((await f.ctx.batchJournal.get('base', 'runner', '10', 4))?.state).toBe('executed')
    expect(sent).toBe(0)
  })

  it('its release leaves alone the orders a later batch holds now (the crash rounds double buy without `durable`), and releases its own', async () => {
    // A restarted chain lost the block of executed batch B0; the reorg handling undid its fills and the next tick put
    // buyer 1's order in batch B1 (executing, in-flight entry naming B1); buyer 2's order is still B0's. B0's release
    // must not send buyer 1's order back to active: the next tick would buy it again by UserOperation while B1 executes.
    const entry = (userIndex: number, rank: number) => ({
      keyId: keyIdOf(userIndex),
      slug: SLUG,
      userIndex,
      wallet: walletOf(userIndex),
      orderId: `0x${String(userIndex).padStart(64, '7')}` as Hash,
      spendAtoms: '10000000',
      rank,
      predicted: { gross: '1', fee: '0', net: '1' },
    })
    const b0 = { ...executed(5), slug: SLUG, included: [entry(1, 0), entry(2, 1)] }
    const b1Id = `0x${'66'.repeat(32)}` as Hash
    await f.addOrder(1, 10, null, { status: 'executing' })
    await f.addOrder(2, 10, null, { status: 'executing' })
    const inFlight = (userIndex: number, batchId: Hash) => ({
      keyId: keyIdOf(userIndex),
      slug: SLUG,
      chain: 'base' as const,
      userIndex,
      wallet: walletOf(userIndex),
      spendAtoms: '10000000',
      minTokensOut: '0',
      token: b0.token,
      orderId: entry(userIndex, 0).orderId,
      submittedAt: 1,
      fromBlock: '10',
      batchId,
    })
    await f.store.batch([f.ctx.batchJournal.put(b0), f.journal.putInFlight(inFlight(1, b1Id)), f.journal.putInFlight(inFlight(2, b0.batchId))])
    const runner = createBatchRunner(f.ctx)
    await runner.reconcile()
    await settled(runner)
    expect((await f.ctx.batchJournal.get('base', SLUG, '10', 5))?.state).toBe('released')
    // B1's order: still executing, its in-flight entry still B1's.
    expect((await f.order(1))?.status).toBe('executing')
    const left = await f.journal.inFlight('base')
    expect(left.map((e) => [e.keyId, e.batchId])).toEqual([[keyIdOf(1), b1Id]])
    // B0's own order: released to active, its entry gone.
    expect((await f.order(2))?.status).toBe('active')
  })
})

describe('batch runner: a batch that never landed is released only once its last block is final (docs/execution.md §8)', () => {
  let f: ExecutorFixture
  let head: bigint
  let reads: string[]
  beforeEach(async () => {
    head = 0n
    reads = []
    const batchReads = {
      allowances: async () => new Map(),
      batch: async () => {
        reads.push(`batch@${head}`)
        return { executed: false, allocationHash: `0x${'00'.repeat(32)}`, swept: 0 }
      },
      executionOf: async () => undefined,
      executionIn: () => undefined,
      landing: async () => ({ receipt: undefined, pending: false }),
      idle: async () => true,
      head: async () => {
        reads.push(`head@${head}`)
        return head
      },
    } as unknown as BatchChainReads
    // The fixture's deadline figures: final 3 blocks after the last block.
    f = await startExecutorFixture({
      batchReads,
      wallets: { walletAddress: async () => SENDERS[0]!, submitUserOperations: async () => [], operatorAddress: () => SENDERS[0] },
    })
  })
  afterEach(async () => {
    await f.close()
  })

  it('nothing pending and no receipt: still in flight until the head is finality blocks past its last block, then released', async () => {
    await f.store.batch([f.ctx.batchJournal.put(record(6, { state: 'sent', txHash: `0x${'77'.repeat(32)}`, from: SENDERS[0]!, validUntilBlock: '15' }))])
    const state = async () => (await f.ctx.batchJournal.get('base', 'runner', '10', 6))?.state
    for (const at of [12n, 15n, 16n, 17n]) {
      head = at
      await createBatchRunner(f.ctx).reconcile()
      expect(await state()).toBe('sent')
    }
    head = 18n
    await createBatchRunner(f.ctx).reconcile()
    const released = await f.ctx.batchJournal.get('base', 'runner', '10', 6)
    expect(released?.state).toBe('released')
    expect(released?.releaseReason).toBe('the batch transaction never landed, and its last block 15 is final')
    // The head is read before the batch: every read after it is at a block past the last one.
    expect(reads.slice(-2)).toEqual(['head@18', 'batch@18'])
  })

  it('the same on the next blocks of a running executor: asked again each block (recheck) and released once final', async () => {
    await f.store.batch([f.ctx.batchJournal.put(record(7, { state: 'sent', txHash: `0x${'88'.repeat(32)}`, from: SENDERS[0]!, validUntilBlock: '20' }))])
    const runner = createBatchRunner(f.ctx)
    head = 21n
    await runner.reconcile()
    const state = async () => (await f.ctx.batchJournal.get('base', 'runner', '10', 7))?.state
    expect(await state()).toBe('sent')
    head = 22n
    runner.recheck('base')
    while (runner.running().length > 0) await Promise.all(runner.running())
    expect(await state()).toBe('sent')
    head = 23n
    runner.recheck('base')
    while (runner.running().length > 0) await Promise.all(runner.running())
    expect(await state()).toBe('released')
  })
})

describe('a sweep that read the chain before a reorg undid its batch (sweep-batch.ts)', () => {
  let f: ExecutorFixture
  beforeEach(async () => {
    const batchReads = {
      allowances: async () => new Map(),
      // Executed and fully swept as the sweep saw it, just before the reorg.
      batch: async () => ({ executed: true, allocationHash: `0x${'77'.repeat(32)}`, swept: 1 }),
      executionOf: async () => undefined,
      executionIn: () => undefined,
      landing: async () => ({ receipt: undefined, pending: false }),
      idle: async () => true,
      head: async () => 1_000n,
    } as unknown as BatchChainReads
    f = await startExecutorFixture({
      batchReads,
      wallets: {
        walletAddress: async () => SENDERS[0]!,
        submitUserOperations: async () => [],
        sendCall: async () => {
          throw new Error('nothing is sent here')
        },
      },
    })
  })
  afterEach(async () => {
    await f.close()
  })

  const entry = buyerEntry('01')

  /** The fixture's context with a chain config (the sweep sizes its chunks by the chain's gas cap). */
  const sweeper = () => ({ ...f.ctx, chains: { ...f.ctx.chains, base: {} as (typeof f.ctx.chains)['base'] } })

  it('does not write the record the reorg held (sent, undone) back to swept; its fate is asked again (undone)', async () => {
    const executed = record(5, { state: 'executed', included: [entry], txHash: `0x${'55'.repeat(32)}` })
    const held: BatchRecord = { ...executed, state: 'sent', undone: { txHash: executed.txHash!, blockNumber: '11', at: 2 } }
    await f.store.batch([f.ctx.batchJournal.put(held)])
    const outcome = await sweepBatch(sweeper(), executed)
    expect(outcome).toEqual({ kind: 'undone', record: held })
    expect(await f.ctx.batchJournal.get('base', 'runner', '10', 5)).toEqual(held)
  })

  it('does not overwrite a record settled again from another place (a reorg re-mined it): resettled, nothing written', async () => {
    const execution = (blockNumber: string) => executionAt('57', blockNumber)
    const executed = record(7, { state: 'executed', included: [entry], txHash: `0x${'57'.repeat(32)}`, execution: execution('12') })
    const resettled: BatchRecord = { ...executed, execution: execution('11') }
    await f.store.batch([f.ctx.batchJournal.put(resettled)])
    expect(await sweepBatch(sweeper(), executed)).toEqual({ kind: 'resettled', record: resettled })
    expect(await f.ctx.batchJournal.get('base', 'runner', '10', 7)).toEqual(resettled)
  })

  it('a record another sweep of the same execution swept already is left as it is (done)', async () => {
    const executed = record(9, { state: 'executed', included: [entry], txHash: `0x${'59'.repeat(32)}` })
    const swept: BatchRecord = { ...executed, state: 'swept', swept: 1 }
    await f.store.batch([f.ctx.batchJournal.put(swept)])
    expect(await sweepBatch(sweeper(), executed)).toEqual({ kind: 'done', record: swept })
    expect(await f.ctx.batchJournal.get('base', 'runner', '10', 9)).toEqual(swept)
  })

  it('writes swept while the journal still holds it executed', async () => {
    const executed = record(6, { state: 'executed', included: [entry], txHash: `0x${'66'.repeat(32)}` })
    await f.store.batch([f.ctx.batchJournal.put(executed)])
    expect((await sweepBatch(sweeper(), executed)).kind).toBe('done')
    expect((await f.ctx.batchJournal.get('base', 'runner', '10', 6))?.state).toBe('swept')
  })

  it('reads the journaled record and writes swept inside one chain-locked section (the lock the reorg hold writes under)', async () => {
    const executed = record(11, { state: 'executed', included: [entry], txHash: `0x${'6b'.repeat(32)}` })
    await f.store.batch([f.ctx.batchJournal.put(executed)])
    const seen: string[] = []
    let locked = false
    const ctx = {
      ...sweeper(),
      withChainLock: async <T>(chain: 'base' | 'second_chain', fn: () => Promise<T>) =>
        f.ctx.withChainLock(chain, async () => {
          locked = true
          try {
            return await fn()
          } finally {
            locked = false
          }
        }),
      batchJournal: {
        ...f.ctx.batchJournal,
        get: (...args: Parameters<typeof f.ctx.batchJournal.get>) => {
          seen.push(`get:${locked}`)
          return f.ctx.batchJournal.get(...args)
        },
      },
      store: {
        ...f.store,
        batch: (ops: Parameters<typeof f.store.batch>[0]) => {
          seen.push(`write:${locked}`)
          return f.store.batch(ops)
        },
      },
    }
    expect((await sweepBatch(ctx as typeof f.ctx, executed)).kind).toBe('done')
    expect(seen).toEqual(['get:true', 'write:true'])
  })
})

describe('batch runner: a batch settled again from its new place while its sweep runs (a reorg re-mined it)', () => {
  let f: ExecutorFixture
  let cursor: number
  let chunkLanded: ReturnType<typeof withResolvers<{ receipt: { status: 'success' }; pending: boolean }>>
  let chunkSent: ReturnType<typeof withResolvers<void>>
  const execution = (blockNumber: string) => executionAt('58', blockNumber)
  beforeEach(async () => {
    cursor = 0
    chunkLanded = withResolvers()
    chunkSent = withResolvers()
    // Where the chain holds the batch now: re-mined at block 11 (it was at 12 when it was first settled).
    const batchReads = executedReads(
      () => cursor,
      async () => execution('11'),
    )
    f = await startExecutorFixture({
      batchReads,
      chains: { base: {} } as ExecutorFixture['ctx']['chains'],
      wallets: {
        walletAddress: async () => SENDERS[0]!,
        submitUserOperations: async () => [],
        operatorAddress: () => SENDERS[0],
        // The first sweep's chunk: sent, landing only when the test says (the reorg and the new settle happen meanwhile).
        sendCall: async () => {
          chunkSent.resolve()
          return { hash: `0x${'99'.repeat(32)}` as Hash, landed: chunkLanded.promise }
        },
      } as unknown as ExecutorFixture['ctx']['wallets'],
    })
  })
  afterEach(async () => {
    await f.close()
  })

  it('the running sweep (old execution) writes nothing; the batch is swept from the record as settled now', async () => {
    const entry = buyerEntry('02')
    const first = record(8, { state: 'executed', included: [entry], txHash: `0x${'58'.repeat(32)}`, execution: execution('12') })
    await f.store.batch([f.ctx.batchJournal.put(first)])
    const runner = createBatchRunner(f.ctx)
    await runner.reconcile()
    await chunkSent.promise
    // The reorg (revalidate-fills.ts): the record `sent` again, followed; the runner settles it from its new place.
    const held: BatchRecord = { ...first, state: 'sent', undone: { txHash: first.txHash!, blockNumber: '12', at: 2 } }
    await f.store.batch([f.ctx.batchJournal.put(held)])
    runner.follow(held)
    runner.recheck('base')
    const stored = () => f.ctx.batchJournal.get('base', 'runner', '10', 8)
    while ((await stored())?.execution?.blockNumber !== '11') await new Promise((r) => setImmediate(r))
    expect((await stored())?.state).toBe('executed')
    // The first sweep's chunk lands (the chain's cursor at the end): it reads the chain again and would write swept.
    cursor = 1
    chunkLanded.resolve({ receipt: { status: 'success' }, pending: false })
    while (runner.running().length > 0) await Promise.all(runner.running())
    const after = await stored()
    expect(after?.state).toBe('swept')
    expect(after?.execution?.blockNumber).toBe('11')
  })
})

describe('batch runner: a reorg signalled while a batch’s fate is read (reorg-epochs.ts)', () => {
  let f: ExecutorFixture
  let reads: number
  beforeEach(async () => {
    reads = 0
    const execution = (blockNumber: string) => executionAt('5a', blockNumber)
    // The first read answers from the chain before a reorg, which the indexer signals before the settle's write; the
    // next one from the new chain, where the batch landed at another block.
    const batchReads = executedReads(
      () => 0,
      async () => {
        if (reads++ === 0) {
          f.ctx.reorgEpochs.bump('base')
          return execution('12')
        }
        return execution('13')
      },
    )
    f = await startExecutorFixture({
      batchReads,
      chains: { base: {} } as ExecutorFixture['ctx']['chains'],
      wallets: { walletAddress: async () => SENDERS[0]!, submitUserOperations: async () => [], operatorAddress: () => SENDERS[0] },
    })
  })
  afterEach(async () => {
    await f.close()
  })

  it('writes nothing from that read; asked again on the next block, it is settled from the new chain', async () => {
    const entry = buyerEntry('03')
    const sent = record(10, { state: 'sent', included: [entry], txHash: `0x${'5a'.repeat(32)}`, from: SENDERS[0]! })
    await f.store.batch([f.ctx.batchJournal.put(sent)])
    const runner = createBatchRunner(f.ctx)
    await runner.reconcile()
    const stored = () => f.ctx.batchJournal.get('base', 'runner', '10', 10)
    expect(await stored()).toEqual(sent)
    runner.recheck('base')
    while (runner.running().length > 0) await Promise.all(runner.running())
    expect(reads).toBe(2)
    // Settled (its sweep waits for an operator account this fixture does not have).
    const after = await stored()
    expect(after?.state).toBe('executed')
    expect(after?.execution?.blockNumber).toBe('13')
  })
})
