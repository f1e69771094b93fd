/**
 * Expiry counts from the launch: an order launched at `launchedAtMs` is valid for exactly `expiresInMs` and expired
 * from `launchedAtMs + expiresInMs` on. Before launch (null) nothing expires.
 */
export const expiresAt = (launchedAtMs: number | null, expiresInMs: number): number | null => (launchedAtMs === null ? null : launchedAtMs + expiresInMs)

export function isExpired(launchedAtMs: number | null, expiresInMs: number, nowMs: number): boolean {
  const deadline = expiresAt(launchedAtMs, expiresInMs)
  return deadline !== null && nowMs >= deadline
}
