import { describe, expect, it } from 'vitest'
import { tickKind } from '../../../daemon/executor/tick-kind.ts'

describe('tickKind: what a tick did, for its time in the metrics', () => {
  const quiet = { reason: 'block' as const, orders: 5, acted: false }
  it('a launch tick is a launch whatever it did; a project without orders is no_orders; a tick that bought or expired is a buy', () => {
    expect(tickKind({ ...quiet, reason: 'launch', acted: true, bookUse: 'rebuilt' })).toBe('launch')
    expect(tickKind({ ...quiet, orders: 0, acted: undefined, bookUse: undefined })).toBe('no_orders')
    expect(tickKind({ ...quiet, reason: 'swap', acted: true, bookUse: 'reused' })).toBe('buy')
  })
  it('a quiet tick by how its book was served: reused is held, filtered or incremental is orders_changed, else rebuilt', () => {
    expect(tickKind({ ...quiet, bookUse: 'reused' })).toBe('held')
    expect(tickKind({ ...quiet, bookUse: 'incremental' })).toBe('orders_changed')
    expect(tickKind({ ...quiet, bookUse: 'filtered' })).toBe('orders_changed')
    expect(tickKind({ ...quiet, bookUse: 'rebuilt' })).toBe('rebuilt')
    // A book's use unknown (no plan recorded one): never counted as a held tick.
    expect(tickKind({ ...quiet, acted: undefined, bookUse: undefined })).toBe('rebuilt')
  })
})
