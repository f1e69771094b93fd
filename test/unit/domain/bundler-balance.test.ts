import { describe, expect, it } from 'vitest'
import { bundlerAlert, bundlerLevel } from '../../../src/domain/health/bundler-balance.ts'

describe('bundler balance watch', () => {
  it('is low under the threshold, unknown when the balance cannot be read', () => {
    expect(bundlerLevel(9n, 10n)).toBe('low')
    expect(bundlerLevel(10n, 10n)).toBe('ok')
    expect(bundlerLevel(null, 10n)).toBe('unknown')
  })

  it('counts the L1 data fee of a launch bundle on top of the threshold', () => {
    expect(bundlerLevel(12n, 10n, 3n)).toBe('low')
    expect(bundlerLevel(13n, 10n, 3n)).toBe('ok')
  })

  it('warns when it turns low and again every repeat interval while low; says when it recovers; else nothing', () => {
    expect(bundlerAlert('ok', 'low', null, 0, 600)).toBe('warn_low')
    expect(bundlerAlert('low', 'low', 0, 599, 600)).toBeNull()
    expect(bundlerAlert('low', 'low', 0, 600, 600)).toBe('warn_low')
    expect(bundlerAlert('low', 'ok', 0, 700, 600)).toBe('recovered')
    expect(bundlerAlert('ok', 'ok', null, 700, 600)).toBeNull()
    expect(bundlerAlert('low', 'unknown', 0, 700, 600)).toBeNull()
    expect(bundlerAlert('unknown', 'low', null, 0, 600)).toBe('warn_low')
  })
})
