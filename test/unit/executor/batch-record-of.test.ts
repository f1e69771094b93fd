import { describe, expect, it } from 'vitest'
import { batchRecordOf } from '../../../daemon/executor/batch-executing-ops.ts'
import { parseDecimal } from '../../../src/domain/decimal.ts'
import type { OrderDecision } from '../../../src/journal/journal-records.ts'
import { buysOf, candidateOf, fixtureLaunch, fixtureTick, orderOf, plannerFixture } from './plan-batch-fixture.ts'

async function planned(slug: string) {
  const { planner } = plannerFixture()
  // Two limited orders among unlimited ones: the committed bound is the lower limit of those included.
  const candidates = Array.from({ length: 6 }, (_, i) => candidateOf(orderOf(i, slug, i === 1 ? '5000000' : i === 4 ? '4000000' : null), i))
  const split = await planner.split(
    fixtureTick,
    fixtureLaunch,
    buysOf(candidates, (c) => parseDecimal(c.order.maxSpendUsdc, 6)!),
  )
  const batch = split.batch!
  const orders = [...batch.buys.values()].map((b) => b.candidate.order)
  const decisionOf = new Map<string, OrderDecision>(orders.map((o) => [o.keyId, { keyId: o.keyId, verdict: 'submitted' } as OrderDecision]))
  return { batch, orders, decisionOf }
}

describe('batchRecordOf: the commit record from the planned batch', () => {
  it('commits the record as cleared when no included order changed since planning (no pass over its entries)', async () => {
    const { batch, orders, decisionOf } = await planned('record-same')
    expect(batch.record.included).toHaveLength(6)
    expect(batch.record.lowestLimitFdv).toBe('4000000000000')
    const record = batchRecordOf({ tick: fixtureTick, launch: fixtureLaunch, planned: batch, current: orders, followers: new Map(), decisionOf, at: 7 })!
    // The very entries the clearing wrote, with the clearing's own bound: nothing filtered, copied or parsed again.
    expect(record.included).toBe(batch.record.included)
    expect(record.lowestLimitFdv).toBe(batch.record.lowestLimitFdv)
    expect(record.at).toBe(7)
    expect(record.dropped).toBeUndefined()
    expect({ ...record, at: batch.record.at }).toEqual(batch.record)
  })

  it('drops an order changed since planning and commits the lowest limit of those left', async () => {
    const { batch, orders, decisionOf } = await planned('record-dropped')
    const changed = orders.findIndex((o) => o.maxFdvUsdc === '4000000')
    const current = orders.map((o, i) => (i === changed ? { ...o, updatedAt: o.updatedAt + 1 } : o))
    const record = batchRecordOf({ tick: fixtureTick, launch: fixtureLaunch, planned: batch, current, followers: new Map(), decisionOf, at: 7 })!
    expect(record.included).toHaveLength(5)
    expect(record.dropped!.map((e) => e.keyId)).toEqual([orders[changed]!.keyId])
    expect(record.lowestLimitFdv).toBe('5000000000000')
    expect(decisionOf.get(orders[changed]!.keyId)!.verdict).toBe('in_flight')
  })

  it('commits nothing when every included order changed', async () => {
    const { batch, orders, decisionOf } = await planned('record-none')
    const current = orders.map(() => undefined)
    expect(batchRecordOf({ tick: fixtureTick, launch: fixtureLaunch, planned: batch, current, followers: new Map(), decisionOf, at: 7 })).toBeUndefined()
  })
})
