import type { EligibilityContext } from './eligibility.ts'
import type { ExecutableOrder } from './executable-order.ts'
import { toSafeNumber, type BookBalances, type OrderBook } from './order-book.ts'
import { planTick } from './reference-planner.ts'
import { VerdictCode } from './verdicts.ts'

export interface BookTickInput extends EligibilityContext {
  book: OrderBook
  balances: BookBalances
  /** Already reserved per wallet by in-flight orders from earlier ticks (keys as the orders' `wallet`). */
  reserved?: ReadonlyMap<string, bigint>
  /**
   * Reusable arrays for the plan (see TickWorkspace): the plan's arrays are then views into it, valid until the next
   * tick planned with the same workspace. Without it every tick allocates its own.
   */
  workspace?: TickWorkspace
}

/**
 * Scratch memory for book ticks. A tick over 100,000 orders needs ~2.5 MB of typed arrays; allocating them fresh every
 * tick costs more than the tick's arithmetic (page faults, zeroing, and the GC pressure ArrayBuffers add), so the
 * executor keeps one workspace and plans every tick into it.
 */
export class TickWorkspace {
  private verdicts = new Uint8Array(0)
  private spends = new Float64Array(0)
  private buyList = new Uint32Array(0)
  private expiredList = new Uint32Array(0)
  private availableList = new Float64Array(0)

  /** Arrays for a book of `size` orders and `wallets` wallets; spend zeroed, the rest to be overwritten. */
  take(size: number, wallets: number): { verdict: Uint8Array; spend: Float64Array; buys: Uint32Array; expired: Uint32Array; available: Float64Array } {
    if (this.verdicts.length < size) {
      const capacity = Math.ceil(size * 1.25)
      this.verdicts = new Uint8Array(capacity)
      this.spends = new Float64Array(capacity)
      this.buyList = new Uint32Array(capacity)
      this.expiredList = new Uint32Array(capacity)
    }
    if (this.availableList.length < wallets) this.availableList = new Float64Array(Math.ceil(wallets * 1.25))
    const spend = this.spends.subarray(0, size)
    spend.fill(0)
    return {
      verdict: this.verdicts.subarray(0, size),
      spend,
      buys: this.buyList.subarray(0, size),
      expired: this.expiredList.subarray(0, size),
      available: this.availableList.subarray(0, wallets),
    }
  }
}

export interface BookTickPlan {
  /** VerdictCode per priority position (`submitted` for a buy). */
  verdict: Uint8Array
  /** Spend per priority position (micro-USD, exact integer; 0 unless bought). */
  spend: Float64Array
  /** Priority positions that buy, in priority order. */
  buys: Uint32Array
  /** Priority positions past their expiry, in priority order. */
  expired: Uint32Array
  /** Exact spends per priority position, present only when the reference planner ran (amounts beyond 2^53). */
  exactSpend?: readonly bigint[]
}

/** The spend at a priority position as an exact bigint. */
export const spendAt = (plan: BookTickPlan, p: number): bigint => (plan.exactSpend ? plan.exactSpend[p]! : BigInt(plan.spend[p]!))

/**
 * planTick over a prepared book, with the same decisions (status, expiry, pool state, limit, funds, in that order;
 * spend sized in priority order against the wallet's unreserved balance) but one linear pass over typed arrays:
 * no decimal parsing, no sorting, no bigint arithmetic per order, no per-order allocation. Books outside the
 * exact-number bounds (see OrderBook) are planned by the bigint reference planTick.
 */
export function planBookTick(input: BookTickInput): BookTickPlan {
  const { book, balances } = input
  if (!book.exact) return referencePlan(input)
  const n = book.size
  const wallets = balances.value.length
  const arrays = input.workspace
    ? input.workspace.take(n, wallets)
    : { verdict: new Uint8Array(n), spend: new Float64Array(n), buys: new Uint32Array(n), expired: new Uint32Array(n), available: new Float64Array(wallets) }
  const { verdict, buys, expired, available } = arrays
  initialAvailable(balances.value, available)
  if (input.reserved && input.reserved.size > 0) applyReservations(book, balances, input.reserved, available)
  // Limits are doubles (see OrderBook): a different double compares like the exact value, and an equal one is exact
  // unless the book keeps exact limits beyond 2^53 (then the bigints settle it).
  const cap = input.effectiveCap
  const capNumber = cap === null ? Number.POSITIVE_INFINITY : Number(cap)
  const launched = input.launchedAtMs !== null
  const packed = decideAll(
    book,
    cap,
    capNumber,
    launched,
    input.launchedAtMs ?? 0,
    input.nowMs,
    input.swapsAllowed,
    available,
    verdict,
    arrays.spend,
    buys,
    expired,
  )
  const buyCount = Math.floor(packed / COUNT_BASE)
  return { verdict, spend: arrays.spend, buys: buys.subarray(0, buyCount), expired: expired.subarray(0, packed - buyCount * COUNT_BASE) }
}

// The loops below are separate small functions, each called once per tick, with nothing but a return after their loop:
// V8 compiles such a loop on the stack, mid-call, and the compiled code deoptimised at the first statement after the
// loop it had not seen run yet, on every tick (measured with --trace-deopt).

/** decideAll returns buys * COUNT_BASE + expiries (both below 2^26 orders: exact). */
const COUNT_BASE = 2 ** 26

/**
 * What each wallet may still spend, one array read per order: -1 marks an empty wallet (its orders are `no_balance`),
 * 0 a wallet whose balance is all reserved or spent (`fully_reserved`).
 */
function initialAvailable(balance: Float64Array, available: Float64Array): void {
  for (let w = 0; w < available.length; w++) {
    const b = balance[w]!
    available[w] = b > 0 ? b : -1
  }
}

function applyReservations(book: OrderBook, balances: BookBalances, reserved: ReadonlyMap<string, bigint>, available: Float64Array): void {
  reserved.forEach((held, wallet) => {
    const w = book.wallets.indexOf(wallet)
    if (w !== -1 && w < available.length && available[w]! > 0) available[w] = toSafeNumber(balances.exact(w) - held)
  })
}

function decideAll(
  book: OrderBook,
  cap: bigint | null,
  capNumber: number,
  launched: boolean,
  launchedAt: number,
  now: number,
  swaps: boolean,
  available: Float64Array,
  verdict: Uint8Array,
  spendOut: Float64Array,
  buys: Uint32Array,
  expired: Uint32Array,
): number {
  const { active, expiresInMs, limit, limitExact, walletOf, spend } = book
  const n = book.size
  let buyCount = 0
  let expiredCount = 0
  for (let p = 0; p < n; p++) {
    if (active[p] === 0) {
      verdict[p] = VerdictCode.in_flight
    } else if (launched && now >= launchedAt + expiresInMs[p]!) {
      verdict[p] = VerdictCode.expired
      expired[expiredCount++] = p
    } else if (!swaps) {
      verdict[p] = VerdictCode.swaps_not_allowed
    } else if (limit[p]! < capNumber || (limit[p] === capNumber && limitExact !== undefined && belowCap(limitExact[p]!, cap))) {
      verdict[p] = VerdictCode.limit_below_cap
    } else {
      const w = walletOf[p]!
      const left = available[w]!
      if (left < 0) {
        verdict[p] = VerdictCode.no_balance
      } else {
        const want = spend[p]!
        const s = want < left ? want : left
        if (s === 0) {
          // Nothing left (or a zero spend, which the API refuses): as sizeSpend's 0, no attempt.
          verdict[p] = VerdictCode.fully_reserved
        } else {
          available[w] = left - s
          verdict[p] = VerdictCode.submitted
          spendOut[p] = s
          buys[buyCount++] = p
        }
      }
    }
  }
  return buyCount * COUNT_BASE + expiredCount
}

const belowCap = (limit: bigint | null, cap: bigint | null): boolean => limit !== null && (cap === null || limit < cap)

/** What each wallet has reserved after the tick: earlier reservations plus this tick's buys (as planTick reports). */
export function reservedAfter(book: OrderBook, plan: BookTickPlan, reserved: ReadonlyMap<string, bigint> = new Map()): Map<string, bigint> {
  const out = new Map(reserved)
  for (const p of plan.buys) {
    const wallet = book.wallets.names[book.walletOf[p]!]!
    out.set(wallet, (out.get(wallet) ?? 0n) + spendAt(plan, p))
  }
  return out
}

/**
 * The book's orders as ExecutableOrders in priority order (ids are the positions). Status is only `active` or not: all
 * a plan looks at. For the reference planner and tests; a tick never builds them.
 */
export function bookOrders(book: OrderBook): ExecutableOrder[] {
  const orders: ExecutableOrder[] = new Array(book.size)
  for (let p = 0; p < book.size; p++) {
    const limit = book.limit[p]!
    orders[p] = {
      id: String(p),
      wallet: book.wallets.names[book.walletOf[p]!]!,
      status: book.active[p] === 1 ? 'active' : 'executing',
      maxSpend: book.spendExact ? book.spendExact[p]! : BigInt(book.spend[p]!),
      limitFdv: book.limitExact ? book.limitExact[p]! : limit === Number.POSITIVE_INFINITY ? null : BigInt(limit),
      expiresInMs: book.expiresInMs[p]!,
    }
  }
  return orders
}

/** The bigint reference planner, its result laid out like a book tick (for books outside the number bounds). */
function referencePlan(input: BookTickInput): BookTickPlan {
  const { book } = input
  const n = book.size
  const orders = bookOrders(book)
  const positionOf = new Map<ExecutableOrder, number>()
  for (let p = 0; p < n; p++) positionOf.set(orders[p]!, p)
  const balanceMap = new Map<string, bigint>()
  const names = book.wallets.names
  for (let w = 0; w < input.balances.value.length; w++) balanceMap.set(names[w]!, input.balances.exact(w))
  const plan = planTick({ ...input, prioritisedOrders: orders, balances: balanceMap })
  const verdict = new Uint8Array(n)
  const spend = new Float64Array(n)
  for (const s of plan.skipped) verdict[positionOf.get(s.order)!] = VerdictCode[s.reason]
  const expired = Uint32Array.from(plan.expired, (o) => positionOf.get(o)!)
  for (const p of expired) verdict[p] = VerdictCode.expired
  const exactSpend: bigint[] = new Array<bigint>(n).fill(0n)
  const buys = Uint32Array.from(plan.buys, (b) => {
    const p = positionOf.get(b.order)!
    spend[p] = Number(b.spend)
    exactSpend[p] = b.spend
    return p
  })
  return { verdict, spend, buys, expired, exactSpend }
}
