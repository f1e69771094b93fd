import type { Hash } from 'viem'
import { formatDecimal } from '../../src/domain/decimal.ts'
import { splitPlatformFee } from '../../src/domain/execution/platform-fee.ts'
import { USDC_DECIMALS } from '../../src/domain/order-bounds.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import type { InFlightExecution } from '../../src/journal/journal-records.ts'
import { orderKey } from '../../src/store/order-index.ts'
import type { StoreOperation } from '../../src/store/open-store.ts'
import { WITHOUT_REASON } from '../../src/wallets/bundler/decode-revert-reason.ts'
import { AUCTION_BLOCK_REVERT, LAUNCH_GATING_ERRORS } from '../../src/wallets/bundler/known-errors.ts'
import { failureReason } from '../../src/wallets/failure-reason.ts'
import type { UserOperationResult } from '../../src/wallets/wallet-service.ts'
import type { SubmittedBuy } from './decide-tick.ts'
import type { ExecutorContext } from './executor-context.ts'
import { type BuyOutcome, buyKey } from './find-buy.ts'
import { transitionOps } from './order-transition-ops.ts'
import { buyRequestId } from './submit-buys.ts'
import { followerCountOf } from '../../src/store/follower-count.ts'

/** PrebuyBuyRouter's minimum-out check: the price moved past the order's limit before the buy landed. */
export const PRICE_MOVED_ERROR = 'TooLittleReceived'

/**
 * Why an in-flight order did not buy: the readable reason, and the decoded error name when the account's call
 * reverted (stored in the order's event). A price move never counts towards giving up.
 */
export interface BuyFailure {
  reason: string
  errorName?: string | undefined
}

/**
 * Not an error the chain names: a buy whose handleOps the node refused for EIP-7825's per-transaction gas cap (the
 * transaction's size, never the order's fault; the next tick sends it again, in smaller transactions).
 */
export const OVER_GAS_CAP = 'TransactionOverGasCap'

/** The failure of a buy never sent, or of a submission that threw: a gas-cap refusal is named so it never counts. */
export function unsentFailure(reason: string, code: string | undefined): BuyFailure {
  return code === 'transaction_over_gas_cap' ? { reason, errorName: OVER_GAS_CAP } : { reason }
}

/**
 * Failures that are not the order's fault: the price moved past its limit, the launchpad still gated the block, or
 * the node refused the transaction's size.
 */
const NOT_A_FAULT: ReadonlySet<string> = new Set([PRICE_MOVED_ERROR, ...LAUNCH_GATING_ERRORS, AUCTION_BLOCK_REVERT, OVER_GAS_CAP])

/** Whether a failure counts towards giving up on the order (maxFailedAttempts): never a price move or a gated block. */
export const countsAsFailure = (failure: Pick<BuyFailure, 'errorName'> | undefined): boolean => !NOT_A_FAULT.has(failure?.errorName ?? '')

/** What became of one in-flight order: bought (the outcome the chain recorded) or not (with why). */
export interface Settlement {
  entry: InFlightExecution
  /** The buy as the chain recorded it; absent when the order did not buy. */
  outcome?: BuyOutcome | undefined
  failure?: BuyFailure | undefined
  extra?: { userOpHash?: Hash; txHash?: Hash }
}

export interface BuySettler {
  /** What the chain says about an in-flight order (the router's flag and PrebuyBuy log), as a settlement. */
  fromChain(entry: InFlightExecution, hint?: BuyFailure, extra?: Settlement['extra']): Promise<Settlement>
  /** The settlements of a submission's results: one receipt read per handleOps, the chain asked where a result is unclear. */
  fromResults(submitted: readonly SubmittedBuy[], results: readonly UserOperationResult[]): Promise<Settlement[]>
  /**
   * Records settlements in one batch under the orders' locks: filled from a known outcome, else back to active (or
   * failed after repeated non-price failures); the in-flight entries are deleted in the same write. Only the orders
   * this execution still holds: an order whose in-flight entry now names another execution (a batch, or a later
   * UserOperation of it) is left alone, entry and state. Call under the chain lock.
   */
  settle(settlements: readonly Settlement[]): Promise<void>
}

export type BuySettlerContext = Pick<ExecutorContext, 'store' | 'journal' | 'reads' | 'withOrderLocks' | 'now' | 'maxFailedAttempts' | 'backoff' | 'log'>

export function createBuySettler(ctx: BuySettlerContext): BuySettler {
  const { store, journal } = ctx

  /**
   * Where to look for this order's buy: from its first attempt, not this one. An attempt whose result was unclear (not
   * mined yet) goes back to active and may land later; the next attempt then meets the router's AlreadyExecuted, and a
   * search from its own block missed the earlier buy: the order ended failed with its stablecoin spent. Every attempt's
   * block is in the order's events (active -> executing); an order id belongs to one placement, so an older placement's
   * events only make the search start earlier.
   */
  async function firstAttemptBlock(entry: InFlightExecution): Promise<bigint> {
    let first = BigInt(entry.fromBlock)
    for (const event of await journal.orderEventsOf(entry.keyId, entry.slug)) {
      if (event.to === 'executing' && event.blockNumber !== undefined && BigInt(event.blockNumber) < first) first = BigInt(event.blockNumber)
    }
    return first
  }

  const fromChain: BuySettler['fromChain'] = async (entry, hint, extra = {}) => {
    const outcome = await ctx.reads.buyOf(entry.chain, entry.wallet, entry.orderId, await firstAttemptBlock(entry))
    return { entry, outcome, failure: outcome ? undefined : (hint ?? { reason: 'not found on chain after restart' }), extra }
  }

  async function fromResults(submitted: readonly SubmittedBuy[], results: readonly UserOperationResult[]): Promise<Settlement[]> {
    const byId = new Map(results.map((r) => [r.id, r]))
    // One receipt per handleOps transaction, however many buys it carried.
    const receipts = new Map<Hash, Promise<Map<string, BuyOutcome>>>()
    const buysIn = (entry: InFlightExecution, txHash: Hash) => {
      let found = receipts.get(txHash)
      if (!found) {
        found = ctx.reads.buysInTransaction(entry.chain, txHash)
        receipts.set(txHash, found)
      }
      return found
    }
    return Promise.all(
      submitted.map(async ({ entry }): Promise<Settlement> => {
        const result = byId.get(buyRequestId(entry))
        if (!result) return fromChain(entry, { reason: 'no result from the bundler' })
        const extra = { ...(result.userOpHash ? { userOpHash: result.userOpHash } : {}), ...('txHash' in result ? { txHash: result.txHash } : {}) }
        if (result.status === 'included') {
          const outcome = (await buysIn(entry, result.txHash)).get(buyKey(entry.wallet, entry.orderId))
          return outcome ? { entry, outcome, extra } : fromChain(entry, undefined, extra)
        }
        // Anything else is asked of the chain too: an AlreadyExecuted revert means an earlier attempt bought, and an
        // operation not mined yet may have landed meanwhile.
        const failure =
          result.status === 'reverted'
            ? await revertFailure(entry, result)
            : result.status === 'not_sent'
              ? unsentFailure(failureReason(result), result.code)
              : { reason: failureReason(result) }
        return fromChain(entry, failure, extra)
      }),
    )
  }

  /**
   * A reverted buy's failure. A revert without any reason in a Clanker auction block is gating (the module's
   * decode of a plain swap's empty hook data), named AUCTION_BLOCK_REVERT so it never counts towards giving up.
   */
  async function revertFailure(entry: InFlightExecution, result: Extract<UserOperationResult, { status: 'reverted' }>): Promise<BuyFailure> {
    const failure = { reason: result.revert.message, errorName: result.revert.name }
    if (result.revert.name !== WITHOUT_REASON) return failure
    const launch = await journal.getLaunchBySlug(entry.slug)
    const mevModule = launch?.feeSources.mevModule
    if (!launch || (launch.feeSchedule as { kind?: string } | null)?.kind !== 'clanker_auction' || !mevModule) return failure
    if (!(await ctx.reads.auctionBlock(entry.chain, mevModule, launch.poolId, result.blockNumber))) return failure
    return { reason: `${result.revert.message}: block ${result.blockNumber} was a Clanker auction block`, errorName: AUCTION_BLOCK_REVERT }
  }

  /** Non-price failures since the order was last placed or filled, from the journal (retry rule: give up after N). */
  async function consecutiveFailures(entry: InFlightExecution): Promise<number> {
    const events = await journal.orderEventsOf(entry.keyId, entry.slug)
    let count = 0
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!
      if (e.from === 'executing' && e.to === 'active') {
        if (!countsAsFailure(e)) break
        count++
      } else if (e.from === 'active' && e.to === 'executing') continue
      else break
    }
    return count
  }

  /** The ops that record one settlement of an order still `executing`. */
  async function settlementOps({ entry, outcome, failure, extra = {} }: Settlement, current: OrderRecord, followers: number, at: number) {
    const hashes = { ...(extra.userOpHash ? { userOpHash: extra.userOpHash } : {}), ...(extra.txHash ? { txHash: extra.txHash } : {}) }
    if (outcome) {
      const split = splitPlatformFee(outcome.tokensReceived)
      const fill = journal.putFill({
        chain: entry.chain,
        keyId: entry.keyId,
        slug: entry.slug,
        blockNumber: outcome.blockNumber.toString(),
        txHash: outcome.txHash,
        wallet: entry.wallet,
        orderId: entry.orderId,
        userIndex: entry.userIndex,
        spendAtoms: outcome.amountIn.toString(),
        token: entry.token,
      })
      const event = {
        ...hashes,
        txHash: outcome.txHash,
        blockNumber: outcome.blockNumber.toString(),
        spendAtoms: outcome.amountIn.toString(),
        tokensReceived: split.buyer.toString(),
        feeTokens: outcome.fee.toString(),
      }
      ctx.backoff.clear(entry.keyId)
      return [fill, ...transitionOps(ctx, current, 'filled', at, event, followers, { execution: executionOf(outcome, at) })]
    }
    let reason = failure?.reason ?? 'not executed'
    if (failure?.errorName === PRICE_MOVED_ERROR) {
      // Reverted for price again at the same price: the order waits before its next attempt at it (price-backoff.ts).
      const wait = ctx.backoff.priceReverted(entry.keyId)
      if (wait) {
        reason = `${reason}; backing off until block ${wait.retryAt} (${wait.reverts} price reverts at this price)`
        ctx.log.info({ keyId: entry.keyId, slug: entry.slug, reverts: wait.reverts, retryAt: wait.retryAt.toString() }, 'order backs off after price reverts')
      }
    }
    const errorName = failure?.errorName === undefined ? {} : { errorName: failure.errorName }
    const giveUp = countsAsFailure(failure) && (await consecutiveFailures(entry)) + 1 >= ctx.maxFailedAttempts
    const failed = { execution: { spentUsdc: '0', tokensReceived: '0', feeTokens: '0', txHash: extra.txHash ?? '', executedAt: at, failureReason: reason } }
    return transitionOps(ctx, current, giveUp ? 'failed' : 'active', at, { reason, ...errorName, ...hashes }, followers, giveUp ? failed : {})
  }

  return {
    fromChain,
    fromResults,
    async settle(settlements) {
      if (settlements.length === 0) return
      await ctx.withOrderLocks(
        settlements.map((s) => s.entry.keyId),
        async () => {
          const currents = (await store.sub.orders.getMany(settlements.map((s) => orderKey(s.entry.keyId, s.entry.slug)))) as Array<OrderRecord | undefined>
          const inFlight = (await journal.sub.inFlight.getMany(settlements.map((s) => `${s.entry.chain}!${s.entry.keyId}!${s.entry.slug}`))) as Array<
            InFlightExecution | undefined
          >
          const followers = await Promise.all(settlements.map((s) => followerCountOf(store, s.entry.keyId)))
          const ops: StoreOperation[] = []
          const at = ctx.now()
          for (const [i, settlement] of settlements.entries()) {
            // The same guard as a batch's settle (settle-batch.ts): no entry at all is nobody else's; an entry of another
            // execution means the order moved on since this buy was sent (released and taken by a batch, or sent again),
            // and settling this one would undo that execution's reservation and state while its transaction may land.
            const claimed = inFlight[i]
            if (claimed !== undefined && !sameExecution(claimed, settlement.entry)) {
              const held = {
                keyId: settlement.entry.keyId,
                slug: settlement.entry.slug,
                heldBy: claimed.batchId ?? `a UserOperation of block ${claimed.fromBlock}`,
              }
              if (settlement.outcome) ctx.log.error(held, 'a settled UserOperation bought an order another execution holds now: bought twice')
              else ctx.log.warn(held, 'a settled UserOperation left alone an order another execution holds now')
              continue
            }
            ops.push(journal.deleteInFlight(settlement.entry))
            const current = currents[i]
            if (current?.status !== 'executing') continue
            ops.push(...(await settlementOps(settlement, current, followers[i]!, at)))
          }
          await store.batch(ops)
        },
      )
    },
  }
}

/**
 * Whether two in-flight entries of one order are the same execution: the same batch (none: a single UserOperation) sent
 * at the same moment from the same tick. An entry is written once, with the order's move to executing, and never
 * rewritten; the order is executing until it is settled, so no two of its executions share a moment.
 */
export const sameExecution = (a: InFlightExecution, b: InFlightExecution): boolean =>
  a.batchId === b.batchId && a.submittedAt === b.submittedAt && a.fromBlock === b.fromBlock && a.orderId === b.orderId

/** The order's execution summary from the buy the chain recorded (the buyer's tokens net of the platform fee). */
export const executionOf = (outcome: BuyOutcome, at: number): NonNullable<OrderRecord['execution']> => ({
  spentUsdc: formatDecimal(outcome.amountIn, USDC_DECIMALS),
  tokensReceived: (outcome.tokensReceived - outcome.fee).toString(),
  feeTokens: outcome.fee.toString(),
  txHash: outcome.txHash,
  executedAt: at,
})
