import { describe, expect, it } from 'vitest'
import { formatDecimal, parseDecimal } from '../../../src/domain/decimal.ts'
import { checkCreateValues, checkExpiry, checkFdv, checkPatchValues, checkSpend } from '../../../src/domain/order-input.ts'

describe('parseDecimal / formatDecimal', () => {
  it('parses plain decimals into atomic units', () => {
    expect(parseDecimal('12.5', 6)).toBe(12_500_000n)
    expect(parseDecimal('0.000001', 6)).toBe(1n)
    expect(parseDecimal('7', 6)).toBe(7_000_000n)
    expect(parseDecimal('007.10', 6)).toBe(7_100_000n)
  })
  it('rejects anything that is not a plain non-negative decimal within the precision', () => {
    for (const bad of ['', '.5', '5.', '-1', '1e6', ' 1', '1,5', '0x10', '1.0000001', 'NaN', 'Infinity']) {
      expect(parseDecimal(bad, 6), bad).toBeUndefined()
    }
  })
  it('formats the shortest form', () => {
    expect(formatDecimal(12_500_000n, 6)).toBe('12.5')
    expect(formatDecimal(1n, 6)).toBe('0.000001')
    expect(formatDecimal(3_000_000n, 6)).toBe('3')
    expect(formatDecimal(0n, 6)).toBe('0')
  })
})

describe('order value bounds', () => {
  it('spend: positive, at most 6 decimals, at most 10,000,000; normalised', () => {
    expect(checkSpend('010.500')).toEqual({ ok: true, value: '10.5' })
    expect(checkSpend('10000000')).toEqual({ ok: true, value: '10000000' })
    expect(checkSpend('0.000001')).toEqual({ ok: true, value: '0.000001' })
    for (const bad of ['0', '0.0', '10000000.000001', '1.1234567', '-5', 'abc', '']) {
      expect(checkSpend(bad), bad).toEqual({ ok: false, code: 'invalid_amount' })
    }
  })
  it('fdv: null means no limit; otherwise positive and at most 1e15', () => {
    expect(checkFdv(null)).toEqual({ ok: true, value: null })
    expect(checkFdv('400000')).toEqual({ ok: true, value: '400000' })
    expect(checkFdv('1000000000000000')).toEqual({ ok: true, value: '1000000000000000' })
    for (const bad of ['0', '1000000000000000.1', 'x', '1.1234567']) expect(checkFdv(bad), bad).toEqual({ ok: false, code: 'invalid_fdv' })
  })
  it('expiry: integer 1 ms to 365 days', () => {
    expect(checkExpiry(1).ok).toBe(true)
    expect(checkExpiry(365 * 86_400_000).ok).toBe(true)
    for (const bad of [0, -1, 1.5, 365 * 86_400_000 + 1, Number.NaN]) expect(checkExpiry(bad), String(bad)).toEqual({ ok: false, code: 'invalid_expiry' })
  })
  it('create checks every value, spend first', () => {
    expect(checkCreateValues({ maxSpendUsdc: '0', maxFdvUsdc: '0', expiresInMs: 0 })).toEqual({ ok: false, code: 'invalid_amount' })
    expect(checkCreateValues({ maxSpendUsdc: '1', maxFdvUsdc: '0', expiresInMs: 0 })).toEqual({ ok: false, code: 'invalid_fdv' })
    expect(checkCreateValues({ maxSpendUsdc: '1', maxFdvUsdc: null, expiresInMs: 0 })).toEqual({ ok: false, code: 'invalid_expiry' })
  })
  it('patch checks only the fields present', () => {
    expect(checkPatchValues({ expiresInMs: 5 })).toEqual({ ok: true, value: { expiresInMs: 5 } })
    expect(checkPatchValues({ maxFdvUsdc: null })).toEqual({ ok: true, value: { maxFdvUsdc: null } })
    expect(checkPatchValues({ maxSpendUsdc: '2.50' })).toEqual({ ok: true, value: { maxSpendUsdc: '2.5' } })
    expect(checkPatchValues({ maxSpendUsdc: '-2' })).toEqual({ ok: false, code: 'invalid_amount' })
  })
})
