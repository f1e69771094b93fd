import type { Address, Hash } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  batchEntryForm,
  batchEntryFormsComputed,
  clearingRowOf,
  prepareBatchEntryForms,
  prepareBatchEntryFormsSoon,
} from '../../../daemon/executor/batch-entry-forms.ts'
import { toExecutableOrder } from '../../../src/domain/execution/executable-order.ts'
import { candidateOf, orderOf } from './plan-batch-fixture.ts'

const wallet = '0x00000000000000000000000000000000000000AB' as Address

function countingIdOf() {
  const calls = { n: 0 }
  const idOf = (o: { keyId: string; slug: string; createdAt: number }): Hash => {
    calls.n++
    return `0x${Buffer.from(`${o.keyId}${o.slug}${o.createdAt}`).toString('hex').padEnd(64, '0').slice(0, 64)}` as Hash
  }
  return { calls, idOf }
}

describe('batch entry forms (docs/execution.md §8, "The launch tick\'s CPU, ahead")', () => {
  it('computes an order record once: a second use is the held form, no id or parse again', () => {
    const { calls, idOf } = countingIdOf()
    const order = orderOf(1, 'forms-once', '2500000')
    const before = batchEntryFormsComputed()
    const first = batchEntryForm(order, wallet, idOf)
    const second = batchEntryForm(order, wallet, idOf)
    expect(second).toBe(first)
    expect(batchEntryFormsComputed() - before).toBe(1)
    expect(calls.n).toBe(1)
    // What the split used to compute per order, the same values.
    expect(first.executable).toEqual(toExecutableOrder(order, wallet))
    expect(first.walletLower).toBe(wallet.toLowerCase())
    expect(first.orderId).toBe(idOf(order))
    expect(first.row).toEqual([order.keyId, first.executable.maxSpend.toString(), first.executable.limitFdv!.toString(), first.executable.maxSpend.toString()])
  })

  it('computes again when anything it depends on changed: a field edited in place, another wallet, another id function', () => {
    const { calls, idOf } = countingIdOf()
    const order = orderOf(2, 'forms-changed')
    const first = batchEntryForm(order, wallet, idOf)
    order.maxSpendUsdc = '7'
    const edited = batchEntryForm(order, wallet, idOf)
    expect(edited).not.toBe(first)
    expect(edited.executable.maxSpend).toBe(7_000_000n)
    expect(edited.row[1]).toBe('7000000')
    order.maxFdvUsdc = '1000'
    expect(batchEntryForm(order, wallet, idOf).executable.limitFdv).toBe(1_000_000_000n)
    order.status = 'paused' as never
    expect(batchEntryForm(order, wallet, idOf).executable.status).toBe('paused')
    order.expiresInMs = 5
    expect(batchEntryForm(order, wallet, idOf).executable.expiresInMs).toBe(5)
    order.createdAt += 1
    const recreated = batchEntryForm(order, wallet, idOf)
    expect(recreated.orderId).toBe(idOf(order))
    const other = '0x00000000000000000000000000000000000000cd' as Address
    expect(batchEntryForm(order, other, idOf).walletLower).toBe(other)
    const another = countingIdOf()
    batchEntryForm(order, other, another.idOf)
    expect(another.calls.n).toBe(1)
    expect(calls.n).toBeGreaterThan(1)
  })

  it("keeps the clearing row while the order spends its row's spend, a new row (never an edited one) for another", () => {
    const { idOf } = countingIdOf()
    const order = orderOf(3, 'forms-row', '2500000')
    const form = batchEntryForm(order, wallet, idOf)
    const row = form.row
    expect(clearingRowOf(form, form.executable.maxSpend)).toBe(row)
    const less = clearingRowOf(form, 1_234n)
    expect(less).not.toBe(row)
    expect(less).toEqual([row[0], row[1], row[2], '1234'])
    // A record already holding the former row keeps it as it was.
    expect(row[3]).toBe(form.executable.maxSpend.toString())
    expect(clearingRowOf(form, 1_234n)).toBe(less)
  })

  it('prepares a list, leaving a malformed order to the tick', () => {
    const { calls, idOf } = countingIdOf()
    const bad = { ...orderOf(4, 'forms-list'), maxSpendUsdc: 'nope' }
    const good = candidateOf(orderOf(5, 'forms-list'), 5)
    prepareBatchEntryForms([{ order: bad, wallet }, good], idOf)
    expect(calls.n).toBe(1)
    batchEntryForm(good.order, good.wallet, idOf)
    expect(calls.n).toBe(1)
    expect(() => batchEntryForm(bad, wallet, idOf)).toThrow(RangeError)
  })

  it('prepares in slices with a turn of the event loop between them (a quote answered meanwhile is not held back)', async () => {
    const { calls, idOf } = countingIdOf()
    const list = Array.from({ length: 5 }, (_, i) => candidateOf(orderOf(100 + i, 'forms-soon'), i))
    const turns: number[] = []
    const done = prepareBatchEntryFormsSoon(list, idOf, 2)
    expect(calls.n).toBe(2)
    setImmediate(() => turns.push(calls.n))
    await done
    expect(calls.n).toBe(5)
    // The callback queued after the first slice ran before the last slice: the work did not hold the loop throughout.
    expect(turns).toHaveLength(1)
    expect(turns[0]).toBeLessThan(5)
  })
})
