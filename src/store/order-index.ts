import { parseDecimal } from '../domain/decimal.ts'
import { USDC_DECIMALS } from '../domain/order-bounds.ts'
import type { OrderRecord, OrderStatus } from '../domain/records.ts'
import { descendingKey } from './cursor.ts'

/** Spend atoms fit in 16 digits (the cap is 10^13 atoms); follower counts in 12. */
const SPEND_WIDTH = 16
const FOLLOWER_WIDTH = 12

/** The listing group of GET /orders without a status filter: every order that is not deleted. */
export const VISIBLE_GROUP = 'visible'

export const orderKey = (keyId: string, slug: string): string => `${keyId}!${slug}`

const spendPart = (order: OrderRecord): string => descendingKey(parseDecimal(order.maxSpendUsdc, USDC_DECIMALS) ?? 0n, SPEND_WIDTH)

/** Index keys of one order in ordersBySpend: its status group and, unless deleted, the visible group. */
export function spendIndexKeys(order: OrderRecord): string[] {
  const suffix = `${spendPart(order)}!${order.slug}`
  const keys = [`${order.keyId}!${order.status}!${suffix}`]
  if (order.status !== 'deleted') keys.push(`${order.keyId}!${VISIBLE_GROUP}!${suffix}`)
  return keys
}

export const spendGroupPrefix = (keyId: string, group: OrderStatus | typeof VISIBLE_GROUP): string => `${keyId}!${group}!`

export const projectOrderKey = (order: Pick<OrderRecord, 'slug' | 'status' | 'keyId'>): string => `${order.slug}!${order.status}!${order.keyId}`
export const projectStatusPrefix = (slug: string, status: OrderStatus): string => `${slug}!${status}!`

export const buyerIndexKey = (slug: string, followerCount: number, keyId: string): string =>
  `${slug}!${descendingKey(BigInt(followerCount), FOLLOWER_WIDTH)}!${keyId}`
export const buyersPrefix = (slug: string): string => `${slug}!`
