/**
 * Bounds on order values (the spec leaves them open; these are published in the OpenAPI document and docs/api.md).
 */
export const USDC_DECIMALS = 6
/** Largest spend cap per order: 10,000,000 USDC. */
export const MAX_SPEND_USDC = 10_000_000n
/** Fraction digits accepted for the FDV cap (it is compared in USDC units). */
export const FDV_DECIMALS = 6
/** Largest FDV cap: 1e15 USD. */
export const MAX_FDV_USDC = 1_000_000_000_000_000n
export const MIN_EXPIRES_IN_MS = 1
/** Longest expiry after launch: 365 days. */
export const MAX_EXPIRES_IN_MS = 365 * 24 * 60 * 60 * 1000
/** Items per POST, PATCH or DELETE /orders. */
export const MAX_BATCH_ITEMS = 50
