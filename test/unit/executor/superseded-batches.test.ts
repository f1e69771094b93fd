import type { Hash } from 'viem'
import { describe, expect, it } from 'vitest'
import { createSupersededBatches, SUPERSEDE_GAS, withSupersedeGas } from '../../../daemon/executor/superseded-batches.ts'
import type { BatchJournal } from '../../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../../src/journal/batch-records.ts'

const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hash
const record = (n: number, over: Partial<BatchRecord> = {}): BatchRecord =>
  ({
    batchId: id(n),
    chain: 'base',
    slug: 'alpha',
    launchBlock: '100',
    sequence: n,
    tickBlock: String(100 + n),
    validUntilBlock: String(110 + n),
    state: 'released',
    included: [],
    excluded: [],
    swept: 0,
    ...over,
  }) as BatchRecord

// finality 6 blocks: a batch with last block L is final from head L + 6.
const deadline = () => ({ landingBlocks: 10, finalityBlocks: 6 })

describe('the released batches a launch’s next batches supersede (superseded-batches.ts)', () => {
  it('names every released batch of the launch whose last block is not final at the tick, forgets the final ones', () => {
    const set = createSupersededBatches({ batchJournal: {} as BatchJournal, batchDeadline: deadline })
    set.add(record(0)) // last block 110: final from 116
    set.add(record(1)) // 111: final from 117
    set.add(record(2, { slug: 'beta' }))
    set.add(record(3, { validUntilBlock: undefined })) // no last block: never named (released by the old rule)
    expect(set.of('base', 'alpha', '100', 115n)).toEqual([id(0), id(1)])
    expect(set.of('base', 'alpha', '100', 116n)).toEqual([id(1)])
    // Forgotten once final, even if asked at an earlier block again.
    expect(set.of('base', 'alpha', '100', 110n)).toEqual([id(1)])
    expect(set.of('base', 'beta', '100', 110n)).toEqual([id(2)])
    expect(set.watched('base', 116n).map((r) => r.batchId)).toEqual([id(1), id(2)])
    set.remove(id(1))
    expect(set.of('base', 'alpha', '100', 111n)).toEqual([])
    expect(set.watched('base', 200n)).toEqual([])
  })

  it('holds the orders of the launch’s released batches that could still land (no single UserOperation buys them)', () => {
    const set = createSupersededBatches({ batchJournal: {} as BatchJournal, batchDeadline: deadline })
    const entries = (...keyIds: string[]) => keyIds.map((keyId) => ({ keyId })) as unknown as BatchRecord['included']
    set.add(record(0, { included: entries('k1', 'k2') })) // final from 116
    set.add(record(1, { included: entries('k2', 'k3') })) // final from 117
    set.add(record(2, { slug: 'beta', included: entries('k9') }))
    expect([...set.heldOrders('base', 'alpha', '100', 115n)].sort()).toEqual(['k1', 'k2', 'k3'])
    expect([...set.heldOrders('base', 'alpha', '100', 116n)].sort()).toEqual(['k2', 'k3'])
    expect([...set.heldOrders('base', 'alpha', '100', 117n)]).toEqual([])
    expect([...set.heldOrders('base', 'alpha', '200', 100n)]).toEqual([])
    expect([...set.heldOrders('base', 'beta', '100', 100n)]).toEqual(['k9'])
  })

  it('is rebuilt from the journal’s released records at start', async () => {
    const batchJournal = { released: async () => [record(4), record(5, { launchBlock: '200' })] } as unknown as BatchJournal
    const set = createSupersededBatches({ batchJournal, batchDeadline: deadline })
    await set.load()
    expect(set.of('base', 'alpha', '100', 100n)).toEqual([id(4)])
    expect(set.of('base', 'alpha', '200', 100n)).toEqual([id(5)])
  })

  it('adds the planned gas per named batch to a limit, never above the cap', () => {
    expect(withSupersedeGas(1_000_000n, undefined, 16_777_216n)).toBe(1_000_000n)
    expect(withSupersedeGas(1_000_000n, [id(1), id(2)], 16_777_216n)).toBe(1_000_000n + 2n * SUPERSEDE_GAS)
    expect(withSupersedeGas(16_700_000n, [id(1), id(2), id(3)], 16_777_216n)).toBe(16_777_216n)
  })
})
