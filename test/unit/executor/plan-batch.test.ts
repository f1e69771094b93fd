import type { Hash } from 'viem'
import { describe, expect, it } from 'vitest'
import { SUPERSEDE_GAS } from '../../../daemon/executor/superseded-batches.ts'
import { batchGasLimit, batchMaxBuyers } from '../../../src/domain/batch/batch-gas.ts'
import { batchEntryFormsComputed, prepareBatchEntryForms } from '../../../daemon/executor/batch-entry-forms.ts'
import { parseDecimal } from '../../../src/domain/decimal.ts'
import { buysOf, candidateOf, fixtureLaunch, fixtureTick, orderOf, plannerFixture } from './plan-batch-fixture.ts'

// 800 orders: more than one transaction's buyers (the fixture has no split operators), so some are left out for gas.
const N = 800
const limitOf = (i: number) => (i % 7 === 0 ? '900000' : null)
const limitFdvAtoms = (i: number) => {
  const limit = limitOf(i)
  return limit === null ? null : parseDecimal(limit, 6)!.toString()
}
const book = (slug: string) => Array.from({ length: N }, (_, i) => candidateOf(orderOf(i, slug, limitOf(i)), i))
// Every fifth order spends less than its max (its wallet's balance): its row is not the held one.
const spendOf = (i: number, maxSpend: bigint) => (i % 5 === 0 ? maxSpend / 2n : maxSpend)
const buys = (candidates: ReturnType<typeof book>) => buysOf(candidates, (c) => spendOf(c.userIndex, parseDecimal(c.order.maxSpendUsdc, 6)!))

describe('the batch split with the orders formed ahead (docs/execution.md §8, "The launch tick\'s CPU, ahead")', () => {
  it('computes no order id and no form at the split for orders formed by the readying pass', async () => {
    const { planner, counts, idOf } = plannerFixture()
    const candidates = book('formed-ahead')
    prepareBatchEntryForms(candidates, idOf)
    const ids = counts.idOf
    const forms = batchEntryFormsComputed()
    const split = await planner.split(fixtureTick, fixtureLaunch, buys(candidates))
    expect(split.batch!.record.included.length).toBeGreaterThan(0)
    expect(split.batch!.record.excluded.length).toBeGreaterThan(0)
    expect(counts.idOf - ids).toBe(0)
    expect(batchEntryFormsComputed() - forms).toBe(0)
  })

  it('writes the same batch record whether the forms were held or computed at the split', async () => {
    const ahead = plannerFixture()
    const cold = plannerFixture()
    const formed = book('same-record')
    prepareBatchEntryForms(formed, ahead.idOf)
    // The same orders as other objects: nothing held for them.
    const fresh = formed.map((c) => ({ ...c, order: { ...c.order } }))
    const a = await ahead.planner.split(fixtureTick, fixtureLaunch, buys(formed))
    const b = await cold.planner.split(fixtureTick, fixtureLaunch, buys(fresh))
    expect(a.batch!.record).toEqual(b.batch!.record)
    expect(JSON.stringify(a.batch!.record)).toBe(JSON.stringify(b.batch!.record))
    // The rows as the replay reads them: [keyId, max spend, limit, spend] of each candidate in input order.
    const rows = a.batch!.record.clearing!.candidates
    expect(rows).toHaveLength(N)
    for (const [i, c] of formed.entries()) {
      const max = parseDecimal(c.order.maxSpendUsdc, 6)!
      expect(rows[i]).toEqual([c.order.keyId, max.toString(), limitFdvAtoms(i), spendOf(i, max).toString()])
    }
    for (const e of a.batch!.record.included) expect(e.spendAtoms).toBe(rows[formed.findIndex((c) => c.order.keyId === e.keyId)]![3])
  })
})

describe('the gas of the batches a batch supersedes comes out of its buyers (docs/execution.md §8, "A price-reverted batch, superseded")', () => {
  const cap = 2n ** 24n
  const names = (n: number) => Array.from({ length: n }, (_, i) => `0x${(i + 1).toString(16).padStart(64, '0')}` as Hash)
  const planned = async (named: number) => {
    const supersededBatches = { of: () => names(named) }
    const { planner } = plannerFixture({ supersededBatches } as never)
    const candidates = book(`supersedes-${named}`)
    return (await planner.split(fixtureTick, fixtureLaunch, buys(candidates))).batch!.record
  }

  it('fewer buyers in the transaction the more batches it names, its gas limit with the names never above 2^24', async () => {
    const none = await planned(0)
    expect(none.supersedes).toBeUndefined()
    expect(none.included.length).toBe(batchMaxBuyers(cap))
    // Base's worst case: a release every block for the landing window and the finality depth (60 + 120 blocks at 200 ms).
    for (const named of [1, 20, 180]) {
      const record = await planned(named)
      expect(record.supersedes).toHaveLength(named)
      expect(record.included.length).toBeLessThan(none.included.length)
      // What the send asks for (send-batch.ts): the planning figures plus the names', uncapped, fit under the cap.
      expect(batchGasLimit(record.included.length, 2n ** 64n) + BigInt(named) * SUPERSEDE_GAS).toBeLessThanOrEqual(cap)
    }
  })
})

describe('an order of a released batch that could still land is never bought by a single UserOperation (docs/execution.md §8, "A price-reverted batch, superseded")', () => {
  // Wallets 0-9 approved the batch buyer for less than they spend (a PATCH raised the spend): their buys are singles.
  const underApproved = new Set(Array.from({ length: 10 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`))
  const allowances = async (_c: unknown, _s: unknown, wallets: readonly `0x${string}`[]) =>
    new Map(wallets.map((w) => [w.toLowerCase(), underApproved.has(w.toLowerCase()) ? 1n : 10n ** 30n]))
  const candidates = Array.from({ length: 40 }, (_, i) => candidateOf(orderOf(i, 'released'), i))
  const all = buysOf(candidates, (c) => parseDecimal(c.order.maxSpendUsdc, 6)!)
  // Orders 0-4 were included in a released batch whose last block is not final at the tick.
  const released = new Set(['key-000000', 'key-000001', 'key-000002', 'key-000003', 'key-000004'])

  it('waits (awaitingReleased) instead of buying alone; the other singles and the batch go on', async () => {
    const asked: unknown[][] = []
    const supersededBatches = {
      of: () => [],
      heldOrders: (...args: unknown[]) => {
        asked.push(args)
        return released
      },
    }
    const { planner } = plannerFixture({ supersededBatches, batchReads: { allowances } } as never)
    const split = await planner.split(fixtureTick, fixtureLaunch, all)
    expect(asked).toEqual([[fixtureLaunch.chain, fixtureLaunch.slug, fixtureLaunch.blockNumber, BigInt(fixtureTick.blockNumber)]])
    expect(split.awaitingReleased!.map((b) => b.candidate.order.keyId)).toEqual([...released])
    expect(split.perBuyer.map((b) => b.candidate.order.keyId)).toEqual(['key-000005', 'key-000006', 'key-000007', 'key-000008', 'key-000009'])
    expect(split.batch!.record.included).toHaveLength(30)
  })

  it('says which orders wait once per order, not on every block they wait', async () => {
    const warnings: { orders: string[] }[] = []
    let holding: ReadonlySet<string> = released
    const supersededBatches = { of: () => [], heldOrders: () => holding }
    const log = { info() {}, debug() {}, error() {}, warn: (fields: { orders: string[] }) => warnings.push(fields) }
    const { planner } = plannerFixture({ supersededBatches, batchReads: { allowances }, log } as never)
    await planner.split(fixtureTick, fixtureLaunch, all)
    await planner.split({ ...fixtureTick, blockNumber: String(BigInt(fixtureTick.blockNumber) + 1n) }, fixtureLaunch, all)
    expect(warnings.map((w) => w.orders)).toEqual([[...released]])
    // One more order held: only it is named.
    holding = new Set([...released, 'key-000006'])
    await planner.split(fixtureTick, fixtureLaunch, all)
    expect(warnings.map((w) => w.orders)).toEqual([[...released], ['key-000006']])
    // Nothing held (the released batches final), then held again: said again.
    holding = new Set()
    await planner.split(fixtureTick, fixtureLaunch, all)
    holding = released
    await planner.split(fixtureTick, fixtureLaunch, all)
    expect(warnings.map((w) => w.orders)).toEqual([[...released], ['key-000006'], [...released]])
  })

  it('buys alone as before when no released batch holds the order', async () => {
    const { planner } = plannerFixture({ supersededBatches: { of: () => [], heldOrders: () => new Set() }, batchReads: { allowances } } as never)
    const split = await planner.split(fixtureTick, fixtureLaunch, all)
    expect(split.awaitingReleased).toBeUndefined()
    expect(split.perBuyer).toHaveLength(10)
  })
})

describe('the launch\'s batch sequence read while the split waits (docs/execution.md §8, "The launch tick\'s split on the readied walk")', () => {
  it("asks the journal for the launch's next sequence when its first split starts, once; later splits count it", async () => {
    // The allowances' answer is held: the sequence's read is already asked while the split waits for it (it used to
    // be asked after the clearing, one LevelDB read more on the launch's path).
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const answered = { allowances: 0 }
    const { planner, counts, idOf } = plannerFixture({
      batchReads: {
        allowances: async (_c: unknown, _s: unknown, wallets: readonly string[]) => {
          answered.allowances++
          await held
          return new Map(wallets.map((w) => [w.toLowerCase(), 10n ** 30n]))
        },
      },
    } as never)
    const candidates = book('sequence-soon')
    prepareBatchEntryForms(candidates, idOf)
    const first = planner.split(fixtureTick, fixtureLaunch, buys(candidates))
    await new Promise((resolve) => setImmediate(resolve))
    expect(answered.allowances).toBe(1)
    expect(counts.nextSequence).toBe(1)
    release()
    expect((await first).batch!.record.sequence).toBe(0)
    const second = await planner.split({ ...fixtureTick, blockNumber: '102' }, fixtureLaunch, buys(candidates))
    expect(second.batch!.record.sequence).toBe(1)
    expect(counts.nextSequence).toBe(1)
  })
})

describe("the split's allowances asked with the tick's book list (docs/execution.md §8, \"The launch tick's split on the readied walk\")", () => {
  it('asks the allowances with the wallet list it is handed, the very array, and clears the same', async () => {
    // The warm allowances know a list they covered by its identity (warm-allowances.ts): the tick's book list, asked
    // ahead at the block, is then not scanned again; a list of the buys' wallets made here was new each time.
    const asked: Array<readonly string[]> = []
    const { planner, idOf } = plannerFixture({
      warmAllowances: {
        at: async (_c: unknown, _s: unknown, wallets: readonly string[]) => {
          asked.push(wallets)
          return new Map(wallets.map((w) => [w.toLowerCase(), 10n ** 30n]))
        },
      },
    } as never)
    const direct = plannerFixture()
    const candidates = book('book-list')
    prepareBatchEntryForms(candidates, idOf)
    // The book's list: every buy's wallet once, and one wallet more (an inherited list may hold a cancelled buyer's).
    const bookList = [...candidates.map((c) => c.wallet), '0x00000000000000000000000000000000000000cc']
    const split = await planner.split(fixtureTick, fixtureLaunch, buys(candidates), bookList as never)
    expect(asked).toHaveLength(1)
    expect(asked[0]).toBe(bookList)
    const without = await direct.planner.split(fixtureTick, fixtureLaunch, buys(candidates))
    expect(JSON.stringify(split.batch!.record)).toBe(JSON.stringify(without.batch!.record))
  })
})
