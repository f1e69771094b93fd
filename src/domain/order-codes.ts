/**
 * Every per-item outcome of the batch order endpoints. Published in the OpenAPI document and docs/api.md.
 */
export const ORDER_ITEM_STATUSES = {
  created: 'POST: a new active order was created (also when an earlier order for the slug was deleted, expired or failed).',
  unchanged: 'POST: an active order for the slug already exists and was left as it is. PATCH: the values sent equal the current ones.',
  updated: 'PATCH: the active order now carries the values sent.',
  deleted: 'DELETE: the active order is now deleted.',
  already_deleted: 'DELETE: there was no active order for the slug (never placed, deleted, filled, expired or failed); nothing changed.',
} as const
export type OrderItemStatus = keyof typeof ORDER_ITEM_STATUSES

export const ORDER_ITEM_CODES = {
  unknown_project: 'No approved project has this slug.',
  invalid_amount: 'maxSpendUsdc must be a positive decimal with at most 6 decimals, at most 10000000.',
  invalid_fdv: 'maxFdvUsdc must be null or a positive decimal with at most 6 decimals, at most 1000000000000000.',
  invalid_expiry: 'expiresInMs must be an integer from 1 to 31536000000 (365 days).',
  duplicate_slug: 'The slug already appeared earlier in this batch; only its first occurrence is processed.',
  project_launched: 'The project has launched; new orders are no longer accepted for it.',
  no_active_order: 'PATCH: there is no order for this slug, or it was deleted.',
  order_not_active: 'PATCH: the order is executing, filled, expired or failed and can no longer be changed.',
  order_executing: 'DELETE: the order is being executed right now and cannot be deleted.',
} as const
export type OrderItemCode = keyof typeof ORDER_ITEM_CODES

export type BatchItemResult = { slug: string; ok: true; status: OrderItemStatus } | { slug: string; ok: false; code: OrderItemCode; message: string }

export const itemOk = (slug: string, status: OrderItemStatus): BatchItemResult => ({ slug, ok: true, status })
export const itemFailed = (slug: string, code: OrderItemCode): BatchItemResult => ({
  slug,
  ok: false,
  code,
  message: ORDER_ITEM_CODES[code],
})
