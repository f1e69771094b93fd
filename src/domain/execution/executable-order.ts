import { parseDecimal } from '../decimal.ts'
import { FDV_DECIMALS, USDC_DECIMALS } from '../order-bounds.ts'
import type { OrderRecord, OrderStatus } from '../records.ts'

/**
 * An order as the executor sees it: amounts already parsed to bigint smallest units (micro-USDC for the spend and
 * the FDV limit), so a tick over 100,000 orders never parses a decimal string.
 */
export interface ExecutableOrder {
  /** Stable identity within a tick (keyId + slug in practice). */
  id: string
  /** The smart wallet that pays; orders of one wallet share its balance. */
  wallet: string
  status: OrderStatus
  maxSpend: bigint
  /** null: no limit. */
  limitFdv: bigint | null
  expiresInMs: number
}

export function toExecutableOrder(record: OrderRecord, wallet: string): ExecutableOrder {
  const maxSpend = parseDecimal(record.maxSpendUsdc, USDC_DECIMALS)
  const limitFdv = record.maxFdvUsdc === null ? null : parseDecimal(record.maxFdvUsdc, FDV_DECIMALS)
  if (maxSpend === undefined || limitFdv === undefined) {
    throw new RangeError(`order ${record.keyId}/${record.slug} has a malformed amount`)
  }
  return {
    id: `${record.keyId}:${record.slug}`,
    wallet,
    status: record.status,
    maxSpend,
    limitFdv,
    expiresInMs: record.expiresInMs,
  }
}
