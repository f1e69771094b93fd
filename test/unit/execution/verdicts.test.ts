import { describe, expect, it } from 'vitest'
import type { BatchExclusionReason } from '../../../src/domain/batch/clear-batch.ts'
import { ORDER_VERDICTS, VerdictCode } from '../../../src/domain/execution/verdicts.ts'

describe('order verdicts', () => {
  it('keeps the names existing journals hold (they are read back: a rename would break replay)', () => {
    expect([...ORDER_VERDICTS].sort()).toEqual(
      [
        'backing_off',
        'deferred',
        'expired',
        'fully_reserved',
        'in_flight',
        'limit_below_cap',
        'no_balance',
        'submitted',
        'swaps_not_allowed',
        'limit_below_clearing',
        'gas_budget',
        'no_spend',
      ].sort(),
    )
  })

  it('each code is its name’s position, so the list is the code -> name table; codes fit the planner’s byte', () => {
    for (const name of ORDER_VERDICTS) expect(ORDER_VERDICTS[VerdictCode[name]]).toBe(name)
    expect(Object.keys(VerdictCode)).toEqual([...ORDER_VERDICTS])
    expect(Math.max(...Object.values(VerdictCode))).toBeLessThan(256)
  })

  it('a batch exclusion reason is a verdict of the same name (one vocabulary for the tick decision and the batch record)', () => {
    const reasons: BatchExclusionReason[] = ['limit_below_clearing', 'gas_budget', 'no_spend']
    for (const reason of reasons) expect(ORDER_VERDICTS).toContain(reason)
  })
})
