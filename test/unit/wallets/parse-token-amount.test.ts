import { describe, expect, it } from 'vitest'
import { PrebuyError } from '../../../src/common/errors.ts'
import { isAmountSyntax, parseTokenAmount } from '../../../src/wallets/parse-token-amount.ts'

describe('parseTokenAmount', () => {
  it('converts decimals to atomic units', () => {
    expect(parseTokenAmount('1.5', 6)).toBe(1_500_000n)
    expect(parseTokenAmount('0.000001', 6)).toBe(1n)
    expect(parseTokenAmount('12', 18)).toBe(12n * 10n ** 18n)
    expect(parseTokenAmount('7', 0)).toBe(7n)
  })
  it.each(['0', '0.000', '-1', '1e6', ' 1', '1.', '.5', 'abc', '', '0x10', '1,5'])('refuses %j as invalid_amount', (amount) => {
    expect(() => parseTokenAmount(amount, 6)).toThrow(expect.objectContaining({ code: 'invalid_amount', kind: 'bad_request' }))
  })
  it('refuses more decimals than the token has', () => {
    expect(() => parseTokenAmount('0.0000001', 6)).toThrow(PrebuyError)
    expect(() => parseTokenAmount('1.1', 0)).toThrow(PrebuyError)
  })
  it('syntax check accepts max', () => {
    expect(isAmountSyntax('max')).toBe(true)
    expect(isAmountSyntax('MAX')).toBe(false)
  })
})
