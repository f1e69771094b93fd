/**
 * What keeps withdrawals from draining the service's gas: the service pays every withdrawal's gas (~75k on Base,
 * whatever the amount), so without limits anyone with a key could burn the bundler's ETH with dust withdrawals and
 * leave nothing for launch buys.
 */
export interface WithdrawalPolicy {
  /**
   * Smallest withdrawal of the stablecoin and of native ETH, decimal token units. A withdrawal of the whole balance
   * is always allowed (it cannot be repeated without funding the wallet again). Other tokens have no minimum: only
   * the rate limit applies (their value is not known).
   */
  minStablecoin: string
  minEth: string
  /** Withdrawals per key (wallet) per hour, on all chains together. */
  perKeyPerHour: number
  /**
   * Below this balance of the bundler EOA (ETH, decimal) withdrawals are refused with 503: the remaining gas is kept
   * for launch buys. Ignored on a chain served by an external bundler (operations there pay their own gas).
   */
  bundlerReserveEth: string
}

export const DEFAULT_WITHDRAWAL_POLICY: WithdrawalPolicy = {
  minStablecoin: '1',
  minEth: '0.0005',
  perKeyPerHour: 10,
  bundlerReserveEth: '0.002',
}

export interface WithdrawalCounter {
  /** Counts one withdrawal of the wallet; `allowed` false (nothing counted) once the hour's quota is used. */
  take(id: string): { allowed: true } | { allowed: false; retryAfterSeconds: number; limit: number; resetAt: number }
}

/** Most wallets tracked at once. */
const MAX_TRACKED = 100_000

/** A sliding count per wallet over the last `windowMs` (timestamps of its withdrawals, at most `limit` kept). */
export function createWithdrawalCounter(limit: number, windowMs: number, now: () => number = Date.now): WithdrawalCounter {
  const recent = new Map<string, number[]>()
  return {
    take(id) {
      const at = now()
      const times = (recent.get(id) ?? []).filter((t) => t > at - windowMs)
      if (times.length >= limit) {
        recent.set(id, times)
        const oldest = times[0] ?? at
        // resetAt: when the oldest counted withdrawal leaves the window, i.e. when one more is allowed.
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - at) / 1000)), limit, resetAt: oldest + windowMs }
      }
      times.push(at)
      recent.delete(id)
      recent.set(id, times)
      // Past the bound the least recently used wallet goes (Map order is insertion order, refreshed above): windows
      // that ended are the oldest, and a flood of new wallets cannot grow the map or cost more than one step each.
      if (recent.size > MAX_TRACKED) {
        const oldest = recent.keys().next()
        if (!oldest.done) recent.delete(oldest.value)
      }
      return { allowed: true }
    },
  }
}
