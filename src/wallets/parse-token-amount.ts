import { PrebuyError } from '../common/errors.ts'

const DECIMAL = /^(\d+)(?:\.(\d+))?$/

/**
 * "1.5" in a token with `decimals` decimals -> atomic units. Refuses (bad_request `invalid_amount`) anything that is
 * not a plain positive decimal: signs, exponents, spaces, zero, and more fractional digits than the token has (we
 * never round a user's amount).
 */
export function parseTokenAmount(amount: string, decimals: number): bigint {
  const match = DECIMAL.exec(amount)
  if (!match) throw invalidAmount('The amount must be a positive decimal number or "max".')
  const whole = match[1] ?? '0'
  const fraction = match[2] ?? ''
  if (fraction.length > decimals) throw invalidAmount(`The amount has more than ${decimals} decimals, the token's precision.`)
  const atomic = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')
  if (atomic === 0n) throw invalidAmount('The amount must be greater than zero.')
  return atomic
}

/** Syntax check before any chain call: the decimals limit is applied once the token is known. */
export function isAmountSyntax(amount: string): boolean {
  return amount === 'max' || DECIMAL.test(amount)
}

const invalidAmount = (message: string) => new PrebuyError('invalid_amount', message)
