import { describe, expect, it } from 'vitest'
import { createLogBudget } from '../../../src/common/log-budget.ts'

describe('createLogBudget', () => {
  it('admits the first perWindow requests of a window, counts the rest and sums them up once when the next window opens', () => {
    let now = 1_000
    const budget = createLogBudget({ perWindow: 3, windowMs: 60_000, now: () => now })
    expect([budget.take(), budget.take(), budget.take()]).toEqual([{ admitted: true }, { admitted: true }, { admitted: true }])
    for (const status of [404, 404, 400, 200]) {
      expect(budget.take()).toEqual({ admitted: false })
      now += 10
      budget.suppressed(status)
    }
    now = 1_000 + 59_999
    expect(budget.take()).toEqual({ admitted: false })
    budget.suppressed(429)
    now = 61_000
    expect(budget.take()).toEqual({ admitted: true, summary: { since: 1_000, until: 60_999, requests: { '4xx': 4, '2xx': 1 } } })
    // The summary is given once; a window without suppressions gives none.
    expect(budget.take()).toEqual({ admitted: true })
    now = 200_000
    expect(budget.take()).toEqual({ admitted: true })
  })

  it('however many requests arrive, admits at most perWindow per window', () => {
    let now = 0
    const budget = createLogBudget({ perWindow: 5, windowMs: 1_000, now: () => now })
    let admitted = 0
    for (let i = 0; i < 10_000; i++) {
      now = i // 10 windows of 1,000 ms
      if (budget.take().admitted) admitted += 1
      else budget.suppressed(404)
    }
    expect(admitted).toBe(50)
  })
})
