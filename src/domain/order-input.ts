import { formatDecimal, parseDecimal } from './decimal.ts'
import { FDV_DECIMALS, MAX_EXPIRES_IN_MS, MAX_FDV_USDC, MAX_SPEND_USDC, MIN_EXPIRES_IN_MS, USDC_DECIMALS } from './order-bounds.ts'
import type { OrderItemCode } from './order-codes.ts'

/** Order values after validation: decimals normalised ("010.50" -> "10.5") so equal amounts compare equal. */
export interface OrderValues {
  maxSpendUsdc: string
  maxFdvUsdc: string | null
  expiresInMs: number
}

export type Checked<T> = { ok: true; value: T } | { ok: false; code: OrderItemCode }

export function checkSpend(value: string): Checked<string> {
  const atomic = parseDecimal(value, USDC_DECIMALS)
  if (atomic === undefined || atomic <= 0n || atomic > MAX_SPEND_USDC * 10n ** BigInt(USDC_DECIMALS)) {
    return { ok: false, code: 'invalid_amount' }
  }
  return { ok: true, value: formatDecimal(atomic, USDC_DECIMALS) }
}

export function checkFdv(value: string | null): Checked<string | null> {
  if (value === null) return { ok: true, value: null }
  const atomic = parseDecimal(value, FDV_DECIMALS)
  if (atomic === undefined || atomic <= 0n || atomic > MAX_FDV_USDC * 10n ** BigInt(FDV_DECIMALS)) {
    return { ok: false, code: 'invalid_fdv' }
  }
  return { ok: true, value: formatDecimal(atomic, FDV_DECIMALS) }
}

export function checkExpiry(value: number): Checked<number> {
  if (!Number.isInteger(value) || value < MIN_EXPIRES_IN_MS || value > MAX_EXPIRES_IN_MS) {
    return { ok: false, code: 'invalid_expiry' }
  }
  return { ok: true, value }
}

/** A POST item: all three values are required (maxFdvUsdc may be null: no price limit). */
export function checkCreateValues(input: OrderValues): Checked<OrderValues> {
  const spend = checkSpend(input.maxSpendUsdc)
  if (!spend.ok) return spend
  const fdv = checkFdv(input.maxFdvUsdc)
  if (!fdv.ok) return fdv
  const expiry = checkExpiry(input.expiresInMs)
  if (!expiry.ok) return expiry
  return { ok: true, value: { maxSpendUsdc: spend.value, maxFdvUsdc: fdv.value, expiresInMs: expiry.value } }
}

/** A PATCH item: whichever values are present. */
export function checkPatchValues(input: Partial<OrderValues>): Checked<Partial<OrderValues>> {
  const out: Partial<OrderValues> = {}
  if (input.maxSpendUsdc !== undefined) {
    const spend = checkSpend(input.maxSpendUsdc)
    if (!spend.ok) return spend
    out.maxSpendUsdc = spend.value
  }
  if (input.maxFdvUsdc !== undefined) {
    const fdv = checkFdv(input.maxFdvUsdc)
    if (!fdv.ok) return fdv
    out.maxFdvUsdc = fdv.value
  }
  if (input.expiresInMs !== undefined) {
    const expiry = checkExpiry(input.expiresInMs)
    if (!expiry.ok) return expiry
    out.expiresInMs = expiry.value
  }
  return { ok: true, value: out }
}
