import type { Clock } from '../../src/services/clock.ts'

export interface RateLimitVerdict {
  allowed: boolean
  limit: number
  remaining: number
  /** Epoch ms when the current window ends. */
  resetAt: number
  /** Whole seconds until the window ends (at least 1). */
  retryAfterSeconds: number
}

export interface RateLimiter {
  hit(id: string): RateLimitVerdict
  /** Gives back one hit of the current window (a request the service refused costs the caller nothing); the verdict after it. */
  refund(id: string): RateLimitVerdict
}

/**
 * Fixed windows aligned to multiples of `windowMs`: cheap (one map entry per caller) and the reset time is the
 * same for every request in a window, which is what X-RateLimit-Reset promises.
 */
export function createFixedWindowLimiter({ limit, windowMs, now }: { limit: number; windowMs: number; now: Clock }): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>()
  return {
    hit(id) {
      const nowMs = now()
      const start = Math.floor(nowMs / windowMs) * windowMs
      let entry = windows.get(id)
      if (!entry || entry.start !== start) {
        // Forget stale callers now and then so the map tracks only recent ones.
        if (windows.size > 50_000) for (const [key, value] of windows) if (value.start !== start) windows.delete(key)
        entry = { start, count: 0 }
        windows.set(id, entry)
      }
      entry.count += 1
      return verdictOf(entry, nowMs)
    },
    refund(id) {
      const nowMs = now()
      const start = Math.floor(nowMs / windowMs) * windowMs
      const entry = windows.get(id)
      if (!entry || entry.start !== start) return verdictOf({ start, count: 0 }, nowMs) // that window has ended anyway
      entry.count = Math.max(0, entry.count - 1)
      return verdictOf(entry, nowMs)
    },
  }

  function verdictOf(entry: { start: number; count: number }, nowMs: number): RateLimitVerdict {
    const resetAt = entry.start + windowMs
    return {
      allowed: entry.count <= limit,
      limit,
      remaining: Math.max(0, limit - entry.count),
      resetAt,
      retryAfterSeconds: Math.max(1, Math.ceil((resetAt - nowMs) / 1000)),
    }
  }
}
