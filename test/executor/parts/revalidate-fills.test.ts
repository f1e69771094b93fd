import type { Hash } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BatchRecord } from '../../../src/journal/batch-records.ts'
import { revalidateFills, revalidateFillsUntilDone, revalidationRetryDelayMs } from '../../../daemon/executor/revalidate-fills.ts'
import { type ExecutorFixture, keyIdOf, launch, SLUG, startExecutorFixture, txHash, walletOf } from './executor-fixture.ts'

const orderIdOf = (userIndex: number) => `0x${(0xfe00 + userIndex).toString(16).padStart(64, '0')}` as Hash

describe('revalidating fills after a reorg (revalidate-fills.ts)', () => {
  let f: ExecutorFixture
  beforeEach(async () => {
    f = await startExecutorFixture()
  })
  afterEach(() => f.close())

  /** A filled order whose buy was mined in `block` by `hash`, with its fill record. */
  async function filled(userIndex: number, block: number, hash: Hash) {
    await f.addOrder(userIndex, 100, null, {
      status: 'filled',
      execution: { spentUsdc: '100', tokensReceived: '970', feeTokens: '30', txHash: hash, executedAt: 1 },
    })
    await f.store.batch([
      f.journal.putFill({
        chain: 'base',
        keyId: keyIdOf(userIndex),
        slug: SLUG,
        blockNumber: String(block),
        txHash: hash,
        wallet: walletOf(userIndex),
        orderId: orderIdOf(userIndex),
        userIndex,
        spendAtoms: '100000000',
        token: launch.token,
      }),
    ])
  }
  const chainSays = (userIndex: number, hash: Hash, block: bigint) =>
    f.chain.bought.set(`${walletOf(userIndex).toLowerCase()}!${orderIdOf(userIndex)}`, {
      txHash: hash,
      blockNumber: block,
      amountIn: 100_000_000n,
      tokensReceived: 2_000n,
      fee: 60n,
    })

  it('keeps a buy still on the new chain, re-points one mined again elsewhere, and reopens one the reorg undid', async () => {
    await filled(1, 20, txHash(1))
    await filled(2, 21, txHash(2))
    await filled(3, 22, txHash(3))
    await filled(4, 15, txHash(4)) // below the ancestor: not checked
    chainSays(1, txHash(1), 20n)
    chainSays(2, txHash(22), 23n)
    // The launch with an order reopened: the executor asks the indexer for its tick on the next block.
    expect(await revalidateFills(f.ctx, 'base', 18n)).toEqual({ reopened: [SLUG], held: [] })

    expect(await f.order(1)).toMatchObject({ status: 'filled', execution: { txHash: txHash(1) } })
    expect(await f.order(2)).toMatchObject({ status: 'filled', execution: { txHash: txHash(22), tokensReceived: '1940' } })
    const reopened = await f.order(3)
    expect(reopened?.status).toBe('active')
    expect(reopened?.execution).toBeUndefined()
    expect((await f.journal.orderEventsOf(keyIdOf(3), SLUG)).at(-1)).toMatchObject({ from: 'filled', to: 'active', reason: 'buy undone by a reorg' })
    expect((await f.order(4))?.status).toBe('filled')
    const fills = await f.journal.fillsAbove('base', 0n)
    expect(fills.map((fill) => [fill.keyId, fill.blockNumber, fill.txHash])).toEqual([
      [keyIdOf(4), '15', txHash(4)],
      [keyIdOf(1), '20', txHash(1)],
      [keyIdOf(2), '23', txHash(22)],
    ])
  })

  it('asks no tick when nothing was reopened (every buy kept or mined again elsewhere)', async () => {
    await filled(1, 20, txHash(1))
    await filled(2, 21, txHash(2))
    chainSays(1, txHash(1), 20n)
    chainSays(2, txHash(22), 23n)
    expect(await revalidateFills(f.ctx, 'base', 18n)).toEqual({ reopened: [], held: [] })
    expect(await revalidateFills(f.ctx, 'base', 30n)).toEqual({ reopened: [], held: [] }) // no fill above the ancestor at all
  })

  it('a chain read failing after the reorg is retried until the undone buy is reopened (never left filled)', async () => {
    await filled(3, 22, txHash(3))
    const buyOf = f.chain.buyOf
    let failing = 2
    f.chain.buyOf = async (...args) => {
      if (failing-- > 0) throw new Error('HTTP request failed (502)')
      return buyOf(...args)
    }
    const waits: number[] = []
    const reopened = await revalidateFillsUntilDone(f.ctx, 'base', 18n, async (ms) => {
      waits.push(ms)
    })
    expect(reopened).toEqual({ reopened: [SLUG], held: [] })
    expect(waits).toEqual([revalidationRetryDelayMs(1), revalidationRetryDelayMs(2)])
    expect(revalidationRetryDelayMs(1)).toBe(250)
    expect(revalidationRetryDelayMs(20)).toBe(5_000)
    expect((await f.order(3))?.status).toBe('active')
    expect(await f.journal.fillsAbove('base', 18n)).toEqual([])
  })

  it('stops retrying once the executor stops', async () => {
    await filled(3, 22, txHash(3))
    f.chain.buyOf = async () => {
      throw new Error('HTTP request failed (502)')
    }
    let stopped = false
    const ctx = { ...f.ctx, stopped: () => stopped }
    const reopened = await revalidateFillsUntilDone(ctx, 'base', 18n, async () => {
      stopped = true
    })
    expect(reopened).toEqual({ reopened: [], held: [] })
    expect((await f.order(3))?.status).toBe('filled')
  })

  it('a batch fill is checked by its batch on the new chain: kept in place, re-pointed with its share, or reopened', async () => {
    const batchBuyer = '0x00000000000000000000000000000000000000bb' as const
    const batchIds = [1, 2, 3].map((n) => `0x${(0xba00 + n).toString(16).padStart(64, '0')}` as Hash)
    // Where each batch is on the new chain: the first where it was, the second elsewhere, the third gone.
    const onChain = new Map([
      [batchIds[0], { txHash: txHash(31), blockNumber: '20' }],
      [batchIds[1], { txHash: txHash(42), blockNumber: '24' }],
    ])
    f.ctx.batchReads = {
      ...f.ctx.batchReads,
      executionOf: async (_chain, _buyer, batchId) => {
        const at = onChain.get(batchId)
        return at ? { ...at, totalIn: '100000000', tokensOut: '1000', skipped: [], allocationHash: txHash(9) } : undefined
      },
    }
    for (const [i, userIndex] of [1, 2, 3].entries()) {
      const hash = txHash(31 + i)
      const batch = { chain: 'base' as const, contract: batchBuyer, batchId: batchIds[i]! }
      await f.addOrder(userIndex, 100, null, {
        status: 'filled',
        execution: { spentUsdc: '100', tokensReceived: '970', feeTokens: '30', txHash: hash, executedAt: 1, batch },
      })
      await f.store.batch([
        f.journal.putFill({
          chain: 'base',
          keyId: keyIdOf(userIndex),
          slug: SLUG,
          blockNumber: '20',
          txHash: hash,
          wallet: walletOf(userIndex),
          orderId: orderIdOf(userIndex),
          userIndex,
          spendAtoms: '100000000',
          token: launch.token,
          batchId: batchIds[i]!,
          batchBuyer,
        }),
      ])
    }
    await revalidateFills(f.ctx, 'base', 18n)
    expect(await f.order(1)).toMatchObject({ status: 'filled', execution: { txHash: txHash(31), tokensReceived: '970' } })
    // Re-pointed: the same share (the batch's entries and output are what they were), the new transaction.
    expect(await f.order(2)).toMatchObject({
      status: 'filled',
      execution: { txHash: txHash(42), tokensReceived: '970', feeTokens: '30', batch: { batchId: batchIds[1] } },
    })
    // No batch record of it in the journal (nothing to hold the order under): active again, the old rule.
    expect((await f.order(3))?.status).toBe('active')
    const fills = await f.journal.fillsAbove('base', 0n)
    expect(fills.map((fill) => [fill.keyId, fill.blockNumber, fill.txHash])).toEqual([
      [keyIdOf(1), '20', txHash(31)],
      [keyIdOf(2), '24', txHash(42)],
    ])
  })

  /** A batch entry of order `userIndex` (100 USDC) at `rank`. */
  const entryOf = (userIndex: number, rank: number) => ({
    keyId: keyIdOf(userIndex),
    slug: SLUG,
    userIndex,
    wallet: walletOf(userIndex),
    orderId: orderIdOf(userIndex),
    spendAtoms: '100000000',
    rank,
    predicted: { gross: '1000', fee: '30', net: '970' },
  })
  /** The journal record of a batch executed in `hash` and swept (the launch's `sequence`th, its first by default). */
  const sweptBatch = (
    batchId: Hash,
    batchBuyer: `0x${string}`,
    included: ReturnType<typeof entryOf>[],
    hash: Hash,
    execution: NonNullable<BatchRecord['execution']>,
    sequence = 0,
  ): BatchRecord => ({
    batchId,
    chain: 'base',
    slug: SLUG,
    launchBlock: launch.blockNumber,
    sequence,
    tickBlock: '19',
    batchBuyer,
    token: launch.token,
    lowestLimitFdv: null,
    predictedTokensOut: '1000',
    included,
    excluded: [],
    state: 'swept',
    at: 1,
    txHash: hash,
    execution,
    swept: 1,
  })

  it('a batch whose fills the reorg undid is sent again, not left swept, its orders executing under it (filled -> executing); a batch still on the chain keeps its record', async () => {
    const batchBuyer = '0x00000000000000000000000000000000000000bb' as const
    const [kept, gone] = [1, 2].map((n) => `0x${(0xbb00 + n).toString(16).padStart(64, '0')}` as Hash) as [Hash, Hash]
    f.ctx.batchReads = {
      ...f.ctx.batchReads,
      executionOf: async (_chain, _buyer, batchId) =>
        batchId === kept
          ? { txHash: txHash(51), blockNumber: '20', totalIn: '100000000', tokensOut: '1000', skipped: [], allocationHash: txHash(9) }
          : undefined,
    }
    await f.store.batch(f.journal.putLaunch(launch))
    for (const [i, batchId] of [kept, gone].entries()) {
      const userIndex = i + 1
      const hash = txHash(51 + i)
      await f.addOrder(userIndex, 100, null, {
        status: 'filled',
        execution: {
          spentUsdc: '100',
          tokensReceived: '970',
          feeTokens: '30',
          txHash: hash,
          executedAt: 1,
          batch: { chain: 'base', contract: batchBuyer, batchId },
        },
      })
      const entry = entryOf(userIndex, 0)
      const execution = { txHash: hash, blockNumber: '20', totalIn: '100000000', tokensOut: '1000', skipped: [], allocationHash: txHash(9) }
      await f.store.batch([
        f.journal.putFill({ chain: 'base', ...entry, blockNumber: '20', txHash: hash, token: launch.token, batchId, batchBuyer }),
        f.ctx.batchJournal.put(sweptBatch(batchId, batchBuyer, [entry], hash, execution, i)),
      ])
    }
    f.ctx.now = () => 777
    const outcome = await revalidateFills(f.ctx, 'base', 18n)
    // Nothing reopened (no tick asked): the held batch's fate is the runner's, asked on every block.
    expect(outcome.reopened).toEqual([])
    expect(outcome.held.map((r) => [r.batchId, r.state])).toEqual([[gone, 'sent']])
    const order = await f.order(2)
    expect(order?.status).toBe('executing')
    expect(order?.execution).toBeUndefined()
    expect((await f.journal.orderEventsOf(keyIdOf(2), SLUG)).at(-1)).toMatchObject({ from: 'filled', to: 'executing', txHash: txHash(52) })
    expect((await f.journal.orderEventsOf(keyIdOf(2), SLUG)).at(-1)?.reason).toMatch(/undone by a reorg; held by batch/)
    // Its in-flight entry names the batch again: settling it (re-mined or released) is the batch's.
    expect(await f.journal.inFlight()).toEqual([
      expect.objectContaining({ keyId: keyIdOf(2), slug: SLUG, batchId: gone, orderId: orderIdOf(2), spendAtoms: '100000000', fromBlock: '19' }),
    ])
    expect(await f.journal.fillsAbove('base', 0n)).toEqual([expect.objectContaining({ keyId: keyIdOf(1), batchId: kept })])
    expect((await f.order(1))?.status).toBe('filled')
    expect((await f.ctx.batchJournal.get('base', SLUG, launch.blockNumber, 0))?.state).toBe('swept')
    const held = await f.ctx.batchJournal.get('base', SLUG, launch.blockNumber, 1)
    expect(held).toMatchObject({ state: 'sent', execution: { txHash: txHash(52) }, undone: { txHash: txHash(52), blockNumber: '20', at: 777 } })
    expect(held).toEqual(outcome.held[0])
  })

  it('a batch re-mined at another place by the reorg is held and settled again from there (not re-pointed with its old shares and skipped set)', async () => {
    const batchBuyer = '0x00000000000000000000000000000000000000bb' as const
    const batchId = `0x${(0xbe01).toString(16).padStart(64, '0')}` as Hash
    // On the new chain the same transaction is in block 24, where it skipped nobody and swapped for another output.
    f.ctx.batchReads = {
      ...f.ctx.batchReads,
      executionOf: async () => ({ txHash: txHash(71), blockNumber: '24', totalIn: '200000000', tokensOut: '1800', skipped: [], allocationHash: txHash(9) }),
    }
    await f.store.batch(f.journal.putLaunch(launch))
    await f.addOrder(1, 100, null, {
      status: 'filled',
      execution: {
        spentUsdc: '100',
        tokensReceived: '970',
        feeTokens: '30',
        txHash: txHash(71),
        executedAt: 1,
        batch: { chain: 'base', contract: batchBuyer, batchId },
      },
    })
    await f.addOrder(2, 100, null) // skipped at its first place
    const execution = { txHash: txHash(71), blockNumber: '20', totalIn: '100000000', tokensOut: '1000', skipped: [1], allocationHash: txHash(9) }
    await f.store.batch([
      f.journal.putFill({ chain: 'base', ...entryOf(1, 0), blockNumber: '20', txHash: txHash(71), token: launch.token, batchId, batchBuyer }),
      f.ctx.batchJournal.put(sweptBatch(batchId, batchBuyer, [entryOf(1, 0), entryOf(2, 1)], txHash(71), execution)),
    ])
    f.ctx.now = () => 888
    const outcome = await revalidateFills(f.ctx, 'base', 18n)
    expect(outcome).toMatchObject({ reopened: [], held: [{ batchId, state: 'sent', undone: { txHash: txHash(71), blockNumber: '20', at: 888 } }] })
    // Both held under the batch: the runner's fate check settles them from block 24's BatchExecuted (both pay there).
    expect((await f.order(1))?.status).toBe('executing')
    expect((await f.order(2))?.status).toBe('executing')
    expect((await f.journal.orderEventsOf(keyIdOf(1), SLUG)).at(-1)?.reason).toMatch(/re-mined at block 24 by a reorg; held by batch/)
    expect((await f.journal.inFlight()).map((e) => e.batchId)).toEqual([batchId, batchId])
    expect(await f.journal.fillsAbove('base', 0n)).toEqual([])
  })

  it('the buyers an undone batch skipped are held under it too while still active (its pull may succeed if it comes back); one bought elsewhere meanwhile is left alone and warned of', async () => {
    const batchBuyer = '0x00000000000000000000000000000000000000bb' as const
    const batchId = `0x${(0xbd01).toString(16).padStart(64, '0')}` as Hash
    f.ctx.batchReads = { ...f.ctx.batchReads, executionOf: async () => undefined }
    const warnings: unknown[] = []
    const warn = f.ctx.log.warn.bind(f.ctx.log)
    f.ctx.log.warn = ((obj: unknown, msg?: string) => {
      warnings.push({ obj, msg })
      return warn(obj as object, msg)
    }) as typeof f.ctx.log.warn
    await f.store.batch(f.journal.putLaunch(launch))
    const hash = txHash(61)
    // Order 1 bought in the batch; 2 and 3 skipped by it (their pulls failed). 2 is active since; 3 filled meanwhile by
    // a later single buy.
    await f.addOrder(1, 100, null, {
      status: 'filled',
      execution: {
        spentUsdc: '100',
        tokensReceived: '970',
        feeTokens: '30',
        txHash: hash,
        executedAt: 1,
        batch: { chain: 'base', contract: batchBuyer, batchId },
      },
    })
    await f.addOrder(2, 100, null)
    await f.addOrder(3, 100, null, {
      status: 'filled',
      execution: { spentUsdc: '100', tokensReceived: '970', feeTokens: '30', txHash: txHash(62), executedAt: 2 },
    })
    const execution = { txHash: hash, blockNumber: '20', totalIn: '100000000', tokensOut: '1000', skipped: [1, 2], allocationHash: txHash(9) }
    await f.store.batch([
      f.journal.putFill({ chain: 'base', ...entryOf(1, 0), blockNumber: '20', txHash: hash, token: launch.token, batchId, batchBuyer }),
      f.ctx.batchJournal.put(sweptBatch(batchId, batchBuyer, [entryOf(1, 0), entryOf(2, 1), entryOf(3, 2)], hash, execution)),
    ])
    const outcome = await revalidateFills(f.ctx, 'base', 18n)
    expect(outcome.held.map((r) => r.batchId)).toEqual([batchId])
    expect(outcome.reopened).toEqual([])
    expect((await f.order(1))?.status).toBe('executing')
    // The skipped, still active order: held under the batch (its fate settles it: filled if the batch comes back and
    // pulls it now, active again if it skips it again or is released).
    expect((await f.order(2))?.status).toBe('executing')
    expect((await f.journal.orderEventsOf(keyIdOf(2), SLUG)).at(-1)).toMatchObject({ from: 'active', to: 'executing' })
    expect((await f.journal.orderEventsOf(keyIdOf(2), SLUG)).at(-1)?.reason).toMatch(/skipped by batch .* which a reorg undid/)
    expect((await f.journal.inFlight()).map((e) => [e.keyId, e.batchId])).toEqual(
      expect.arrayContaining([
        [keyIdOf(1), batchId],
        [keyIdOf(2), batchId],
      ]),
    )
    expect(await f.journal.inFlight()).toHaveLength(2)
    // The one bought elsewhere: untouched, and the operator warned.
    expect(await f.order(3)).toMatchObject({ status: 'filled', execution: { txHash: txHash(62) } })
    expect(warnings).toContainEqual(
      expect.objectContaining({ msg: expect.stringMatching(/skipped is bought elsewhere/), obj: expect.objectContaining({ keyId: keyIdOf(3) }) }),
    )
  })

  it('a split batch fill is checked by its BatchSettled (no BatchExecuted): kept in place, or reopened when the settle is gone', async () => {
    const batchBuyer = '0x00000000000000000000000000000000000000bb' as const
    const batchIds = [1, 2].map((n) => `0x${(0xbc00 + n).toString(16).padStart(64, '0')}` as Hash)
    f.ctx.batchReads = { ...f.ctx.batchReads, executionOf: async () => undefined }
    f.ctx.splitReads = {
      collection: async () => {
        throw new Error('not read')
      },
      chunk: async () => ({ size: 0, cursor: 0 }),
      collected: async () => new Map(),
      settled: async (_chain, _buyer, batchId) =>
        batchId === batchIds[0] ? { txHash: txHash(51), blockNumber: 20n, totalIn: 100_000_000n, tokensOut: 1_000n } : undefined,
    }
    for (const [i, userIndex] of [4, 5].entries()) {
      const hash = txHash(51)
      const batch = { chain: 'base' as const, contract: batchBuyer, batchId: batchIds[i]! }
      await f.addOrder(userIndex, 100, null, {
        status: 'filled',
        execution: { spentUsdc: '100', tokensReceived: '970', feeTokens: '30', txHash: hash, executedAt: 1, batch },
      })
      await f.store.batch([
        f.journal.putFill({
          chain: 'base',
          keyId: keyIdOf(userIndex),
          slug: SLUG,
          blockNumber: '20',
          txHash: hash,
          wallet: walletOf(userIndex),
          orderId: orderIdOf(userIndex),
          userIndex,
          spendAtoms: '100000000',
          token: launch.token,
          batchId: batchIds[i]!,
          batchBuyer,
        }),
      ])
    }
    await revalidateFills(f.ctx, 'base', 18n)
    expect(await f.order(4)).toMatchObject({ status: 'filled', execution: { txHash: txHash(51), tokensReceived: '970' } })
    expect((await f.order(5))?.status).toBe('active')
  })
})
