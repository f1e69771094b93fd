import { z } from 'zod'

/**
 * Decimal strings <-> integer atomic amounts. Amounts travel as strings so JSON never rounds them; every comparison
 * and index key uses the bigint atomic value.
 */
export const DECIMAL_PATTERN = /^(\d+)(?:\.(\d+))?$/

/** Parses "12.5" with `decimals` fraction digits allowed into atomic units; undefined when not a plain decimal. */
export function parseDecimal(value: string, decimals: number): bigint | undefined {
  const match = DECIMAL_PATTERN.exec(value)
  if (!match) return undefined
  const whole = match[1] ?? '0'
  const fraction = match[2] ?? ''
  if (fraction.length > decimals) return undefined
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')
}

/** Atomic units back to the shortest decimal string ("12.5", "3", "0.000001"). */
export function formatDecimal(atomic: bigint, decimals: number): string {
  const negative = atomic < 0n
  const abs = negative ? -atomic : atomic
  const base = 10n ** BigInt(decimals)
  const whole = abs / base
  const fraction = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

/** A non-negative decimal amount as a string ("12.5"), as parseDecimal reads it; at most `maxDecimals` fraction digits when given. */
export function decimalSchema(maxDecimals?: number) {
  const error =
    maxDecimals === undefined ? 'expected a non-negative decimal amount' : `expected a non-negative decimal amount with at most ${maxDecimals} decimals`
  const amount = z.string({ error }).regex(DECIMAL_PATTERN, { error })
  return maxDecimals === undefined ? amount : amount.refine((value) => (value.split('.')[1] ?? '').length <= maxDecimals, { error })
}
