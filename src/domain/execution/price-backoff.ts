/**
 * Orders whose buys keep reverting for price (the router's TooLittleReceived: the pool returned fewer tokens than the
 * order's limit allows) at the same price: each such attempt costs the bundler gas and decides nothing new, so after
 * `threshold` of them the order waits, exponentially longer, before it is tried again at that price. A different price
 * (the pool moved, a fee decayed) ends the wait at once: it may well fill. Pure: block numbers in, verdicts out.
 */

export interface PriceBackoffOptions {
  /** Price reverts at the same price before the order waits (default 2: the second identical failure). */
  threshold?: number
  /** Longest wait, blocks (default 64: 12.8 s at Base's 200 ms blocks). */
  maxWaitBlocks?: number
  /** Two prices within this many basis points are the same price (default 10). */
  samePriceBps?: number
}

interface OrderBackoff {
  /** The effective cap the reverted attempts were decided on (stablecoin atoms; null: infinite). */
  price: bigint | null
  reverts: number
  /** First block a new attempt at the same price may land in. */
  retryAt: bigint
}

export interface BackoffWait {
  reverts: number
  retryAt: bigint
}

export class PriceBackoff {
  private readonly orders = new Map<string, OrderBackoff>()
  private readonly attempts = new Map<string, { price: bigint | null; blockNumber: bigint }>()
  private readonly threshold: number
  private readonly maxWaitBlocks: number
  private readonly samePriceBps: bigint

  constructor(options: PriceBackoffOptions = {}) {
    this.threshold = options.threshold ?? 2
    this.maxWaitBlocks = options.maxWaitBlocks ?? 64
    this.samePriceBps = BigInt(options.samePriceBps ?? 10)
  }

  /** Whether two caps are the same price for the backoff. */
  samePrice(a: bigint | null, b: bigint | null): boolean {
    if (a === null || b === null) return a === b
    const gap = a > b ? a - b : b - a
    const base = a > b ? a : b
    return gap * 10_000n <= base * this.samePriceBps
  }

  /** A buy of the order decided at `price` was submitted on the tick of `blockNumber` (kept until it settles). */
  attempted(keyId: string, price: bigint | null, blockNumber: bigint): void {
    this.attempts.set(keyId, { price, blockNumber })
  }

  /**
   * The order's last attempt reverted for price. Returns the wait it starts (undefined: none yet): 2, 4, 8 ... blocks
   * once `threshold` attempts at the same price reverted, up to maxWaitBlocks, counted from the attempt's block.
   */
  priceReverted(keyId: string): BackoffWait | undefined {
    const attempt = this.attempts.get(keyId)
    if (!attempt) return undefined
    this.attempts.delete(keyId)
    const { price, blockNumber } = attempt
    const previous = this.orders.get(keyId)
    const reverts = previous && this.samePrice(previous.price, price) ? previous.reverts + 1 : 1
    const over = reverts - this.threshold
    const wait = over < 0 ? 0 : Math.min(2 ** (over + 1), this.maxWaitBlocks)
    const retryAt = blockNumber + 1n + BigInt(wait)
    this.orders.set(keyId, { price, reverts, retryAt })
    return wait > 0 ? { reverts, retryAt } : undefined
  }

  /** Whether a buy of the order decided at `price`, landing in `landsIn`, must wait; the wait if so. */
  waiting(keyId: string, price: bigint | null, landsIn: bigint): BackoffWait | undefined {
    const state = this.orders.get(keyId)
    if (!state || landsIn >= state.retryAt || !this.samePrice(state.price, price)) return undefined
    return { reverts: state.reverts, retryAt: state.retryAt }
  }

  /** The order bought, failed for another reason, or is gone: its count starts again. */
  clear(keyId: string): void {
    this.orders.delete(keyId)
    this.attempts.delete(keyId)
  }

  /** Orders currently counted (for tests and metrics). */
  get size(): number {
    return this.orders.size
  }
}
