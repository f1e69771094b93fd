/** Lines not logged in a past window, by status class ("2xx", "4xx", ...) or by the kind a worker named, for the summary line. */
export interface SuppressedSummary {
  since: number
  until: number
  requests: Record<string, number>
}

export interface LogBudget {
  /**
   * Asks to log one more request now: admitted while the current window has budget left. When this call opens a new
   * window after one that suppressed requests, `summary` says how many (the caller logs it once).
   */
  take(): { admitted: boolean; summary?: SuppressedSummary }
  /** Counts a line that was not admitted: a request by its answer's status code, a worker's line by its kind. */
  suppressed(statusCodeOrKind: number | string): void
}

/**
 * A fixed-window budget of request log lines: the first `perWindow` requests of each window are logged, the rest are
 * counted and summed up in one line when the next window opens. Whatever a client sends, the request log grows by at
 * most `perWindow` entries plus one summary per window. Pure (the clock is injected).
 */
export function createLogBudget(options: { perWindow: number; windowMs: number; now: () => number }): LogBudget {
  let windowStart = Number.NEGATIVE_INFINITY
  let used = 0
  let counts: Record<string, number> = {}
  let lastSuppressedAt = 0
  return {
    take() {
      const t = options.now()
      let summary: SuppressedSummary | undefined
      if (t - windowStart >= options.windowMs) {
        if (Object.keys(counts).length > 0) summary = { since: windowStart, until: lastSuppressedAt, requests: counts }
        windowStart = t
        used = 0
        counts = {}
      }
      if (used < options.perWindow) {
        used += 1
        return summary ? { admitted: true, summary } : { admitted: true }
      }
      return summary ? { admitted: false, summary } : { admitted: false }
    },
    suppressed(statusCodeOrKind) {
      const key = typeof statusCodeOrKind === 'number' ? `${Math.floor(statusCodeOrKind / 100)}xx` : statusCodeOrKind
      counts[key] = (counts[key] ?? 0) + 1
      lastSuppressedAt = options.now()
    },
  }
}
