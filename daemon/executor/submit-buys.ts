import type { LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'
import type { UserOperationResult } from '../../src/wallets/wallet-service.ts'
import { createBuyCallEncoder } from './build-buy-calls.ts'
import type { SubmittedBuy } from './decide-tick.ts'
import type { ExecutorContext } from './executor-context.ts'

/** The wallet layer's correlation id of one order's buy (echoed in its result). */
export const buyRequestId = (entry: { keyId: string; slug: string }): string => `${entry.keyId}!${entry.slug}`

export type BuySubmitterContext = Pick<ExecutorContext, 'chains' | 'buyRouters' | 'feeRecipient' | 'wallets' | 'log' | 'stage'>

/**
 * Turns a tick's buys into one UserOperation each (approve the exact spend, then the router's swap with its on-chain
 * minimum out and fee split) and submits them in priority order. Nothing is broadcast before `written` resolves.
 */
export function submitBuys(
  ctx: BuySubmitterContext,
  launch: LaunchRecord,
  tick: PriceTick,
  buys: readonly SubmittedBuy[],
  written: Promise<void>,
): Promise<UserOperationResult[]> {
  const chain = ctx.chains[launch.chain]
  const encode = createBuyCallEncoder({
    buyRouter: ctx.buyRouters[launch.chain],
    stablecoin: chain.addresses.stablecoin,
    weth: chain.addresses.weth,
    ethUsdPool: chain.addresses.ethUsdPool,
    poolKey: launch.poolKey,
    token: launch.token,
    paired: launch.paired,
    feeRecipient: ctx.feeRecipient,
  })
  const requests = buys.map(({ buy, entry }) => ({
    id: buyRequestId(entry),
    userIndex: entry.userIndex,
    calls: encode(entry.orderId, buy.spendAtoms, buy.minTokensOut),
  }))
  ctx.log.info({ slug: launch.slug, chain: launch.chain, block: tick.blockNumber, buys: requests.length }, 'submitting buys')
  ctx.stage('executor.submitCall')
  // The tick priced the next block: the bundle is simulated in that block's context too (a decaying fee changes the
  // amounts, the ticks crossed and so the gas; sized on the last block's context the first bundle ran out of gas).
  const landsIn = { number: BigInt(tick.blockNumber) + 1n, timestamp: BigInt(tick.nextBlockTimestamp) }
  return ctx.wallets.submitUserOperations(launch.chain, requests, { sendAfter: written, landsIn, launchBlock: BigInt(launch.blockNumber) })
}
