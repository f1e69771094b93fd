import { PrebuyError } from '../common/errors.ts'
import { formatDecimal, parseDecimal } from '../domain/decimal.ts'
import { type DemandSlice, demandSlices } from '../domain/demand-slices.ts'
import { launchFeeCurve, placeOnFeeCurve, settledPoint } from '../launch-methods/open-market/domain/fee-curve-placement.ts'
import { readEthUsd } from '../chain/read-eth-usd.ts'
import { clankerDefaultStartFdv, clankerReferencePool, referenceFeeSchedule, referenceLaunchDescription } from '../launchpads/reference-launch.ts'
import { demandOnPool } from '../launch-methods/open-market/domain/demand-on-pool.ts'
import type { DevBuyLaunch } from '../launch-methods/dev-buy/domain/dev-buy-eligibility.ts'
import { type Fraction, toNumber } from '../pricing/fraction.ts'
import { settleOtc } from '../launch-methods/pooled-otc/domain/otc-fill.ts'
import { FDV_DECIMALS, USDC_DECIMALS } from '../domain/order-bounds.ts'
import type { Launchpad, LaunchMethod, OrderRecord, ProjectRecord } from '../domain/records.ts'
import type { ExclusionReason } from '../launch-methods/dev-buy/domain/dev-buy-eligibility.ts'
import type { DevBuyChain } from '../launch-methods/dev-buy/chain/dev-buy-chain.ts'
import { newLaunchSalt } from '../launch-methods/dev-buy/chain/launch-salt.ts'
import { DevBuyPlanReverted, planDevBuyLaunch } from '../launch-methods/dev-buy/chain/launch-dev-buy.ts'
import { pooledBuyers } from '../launch-methods/pooled-buyers.ts'
import { formatEther } from 'viem'
import type { Store } from '../store/open-store.ts'
import type { WalletService } from '../wallets/wallet-service.ts'
import type { Clock } from './clock.ts'
import type { ProjectService } from './project-service.ts'

/** What a launch would do with the live order book and the wallets' balances now (docs/launch-methods.md). */
export interface LaunchSimulation {
  slug: string
  launchMethod: LaunchMethod
  generatedAt: string
  /** Open-market demand: one slice per price limit, each eligible once the effective market cap is at or below it. */
  demand: Array<{ maxFdvUsdc: string | null; orderCount: number; fundedSpendUsdc: string; eligibleFundedSpendUsdc: string }>
  /**
   * The open-market demand placed on the launch fee curve of the project's launchpad (its reference launch: the
   * launchpad's default fees, a block every 2 s); null once the project's launch is known (the live launch then says).
   */
  openMarket: {
    launchpad: Launchpad
    reference: string
    blockSeconds: number
    firstSwapAfterSeconds: number
    firstSwapFeePercent: string
    settledAfterSeconds: number
    settledFeePercent: string
    /** The launch's starting spot FDV the slices are placed from; null: not known (pass one). */
    startFdvUsdc: string | null
    startFdvSource: 'request' | 'launchpad_default' | null
    slices: Array<{
      maxFdvUsdc: string | null
      fundedSpendUsdc: string
      maxSpotFdvAtFirstSwapUsdc: string | null
      maxSpotFdvSettledUsdc: string | null
      eligibleAtStart: { block: number; afterSeconds: number; feePercent: string } | null
      /** Funded spend of the slices ahead of it (no limit first, then higher limits). */
      demandAheadUsdc: string
      /** On the launchpad's default pool, once the demand ahead has bought at the settled fee: the effective cap the
       *  slice meets (it buys there if its limit is at or above it); null: no default pool known, or it is exhausted. */
      effectiveCapWhenReachedUsdc: string | null
    }>
  } | null
  /** A pooled OTC settlement run now on the project's offer; null without an offer (or for other methods). */
  otc: {
    fdvUsdc: string
    offeredTokens: string
    demandUsdc: string
    oversubscribed: boolean
    fillRatio: number
    soldTokens: string
    unsoldTokens: string
    fills: Array<{ keyId: string; spendUsdc: string; tokens: string; creditedTokens: string }>
    skipped: Array<{ keyId: string; reason: 'limit_below_otc' | 'no_balance' }>
  } | null
  /** The dev buy its launch would make now, on the pool it would deploy; null before its parameters, after it, or for other methods. */
  devBuy: {
    /**
     * The token it deploys: null until the launch is under way, since each attempt draws a secret salt (nobody can
     * deploy the token first); while launching, the one that attempt deploys.
     */
    tokenAddress: string | null
    spendUsdc: string
    ethIn: string
    boughtTokens: string
    feeTokens: string
    /** The FDV the buy pays on average (stablecoin in over tokens out), and the effective cap at its last token. */
    averageFdvUsdc: string
    marginalCapUsdc: string | null
    allocations: Array<{ keyId: string; spendUsdc: string; tokens: string }>
    excluded: Array<{ keyId: string; reason: ExclusionReason }>
  } | null
}

export type SimulationViewer = { keyId: string } | 'operator'

export interface SimulationOptions {
  /** The launch's starting spot FDV (micro-USD) to place the open-market demand from, instead of the launchpad's default. */
  startFdv?: bigint
}

export interface LaunchSimulationService {
  /** The project's owner key (or the operator) sees what its launch would do now. */
  simulate(slug: string, viewer: SimulationViewer, options?: SimulationOptions): Promise<LaunchSimulation>
}

/** Base's block time: the reference launch's blocks. */
const REFERENCE_BLOCK_SECONDS = 2
const percent = (fee: Fraction): string => (toNumber(fee) * 100).toFixed(4)

export function createLaunchSimulationService(deps: {
  store: Store
  wallets: WalletService
  projects: ProjectService
  now: Clock
  /** Chain access for the dev-buy part (and ETH's price for Clanker's default start); absent: that part is null. */
  devBuyChain?: DevBuyChain
}): LaunchSimulationService {
  const { store, wallets, projects, now, devBuyChain } = deps

  /** The launchpad's default start where it has one (Clanker: a fixed pool on WETH, priced at ETH's price now). */
  async function defaultStart(project: ProjectRecord): Promise<{ fdv: bigint; pool: DevBuyLaunch } | null> {
    if (project.launchpad !== 'clanker' || !devBuyChain) return null
    const ethUsd = await readEthUsd(devBuyChain.client(project.chain), devBuyChain.chainConfig(project.chain))
    return { fdv: clankerDefaultStartFdv(ethUsd), pool: clankerReferencePool(ethUsd) }
  }

  async function placeOpenMarket(project: ProjectRecord, slices: readonly DemandSlice[], options: SimulationOptions): Promise<LaunchSimulation['openMarket']> {
    if (project.launch !== null) return null
    // Placed on a launch in block 0 at time 0: only the offsets matter.
    const origin = { number: 0n, timestamp: 0 }
    const curve = launchFeeCurve(referenceFeeSchedule(project.launchpad, origin), origin, REFERENCE_BLOCK_SECONDS)
    const first = curve[0]
    const settled = settledPoint(curve)
    if (!first || !settled) return null
    const requested = options.startFdv ?? null
    const reference = requested === null ? await defaultStart(project) : null
    const startFdv = requested ?? reference?.fdv ?? null
    // The pool curve is known only for the launchpad's default start (the shape of another start is the launcher's).
    const onPool = reference ? demandOnPool(reference.pool, slices) : null
    const fdv = (atoms: bigint | null) => (atoms === null ? null : formatDecimal(atoms, FDV_DECIMALS))
    return {
      launchpad: project.launchpad,
      reference: referenceLaunchDescription(project.launchpad),
      blockSeconds: REFERENCE_BLOCK_SECONDS,
      firstSwapAfterSeconds: first.afterSeconds,
      firstSwapFeePercent: percent(first.totalFee),
      settledAfterSeconds: settled.afterSeconds,
      settledFeePercent: percent(settled.totalFee),
      startFdvUsdc: fdv(startFdv),
      startFdvSource: requested !== null ? 'request' : reference !== null ? 'launchpad_default' : null,
      slices: slices.map((slice, i) => {
        const placed = placeOnFeeCurve(slice.limitFdv, curve, startFdv)
        const ahead = onPool?.[i]
        return {
          maxFdvUsdc: fdv(slice.limitFdv),
          fundedSpendUsdc: formatDecimal(slice.spend, USDC_DECIMALS),
          maxSpotFdvAtFirstSwapUsdc: fdv(placed.maxSpotFdvAtFirstSwap),
          maxSpotFdvSettledUsdc: fdv(placed.maxSpotFdvSettled),
          eligibleAtStart:
            placed.atStart === null
              ? null
              : { block: placed.atStart.block, afterSeconds: placed.atStart.afterSeconds, feePercent: percent(placed.atStart.totalFee) },
          // eligibleSpend counts this slice and every one ahead of it.
          demandAheadUsdc: formatDecimal(slice.eligibleSpend - slice.spend, USDC_DECIMALS),
          effectiveCapWhenReachedUsdc: fdv(ahead?.capWhenReached ?? null),
        }
      }),
    }
  }

  async function simulateDevBuy(project: ProjectRecord, orders: readonly OrderRecord[]): Promise<LaunchSimulation['devBuy']> {
    const launch = project.devBuy
    if (project.launchMethod !== 'dev_buy' || !launch || launch.state?.status === 'launched' || project.launch !== null) return null
    const coordinator = devBuyChain?.coordinator(project.chain)
    // Planned with a throwaway salt: the launch draws its own secret one (launch-salt.ts), so the token's address is
    // known only once the launch is under way; the plan is the same whichever way the token sorts against WETH.
    const deployment = coordinator ? devBuyChain!.deployment(project.chain, launch.params, coordinator, newLaunchSalt()) : null
    if (!coordinator || !deployment) return null
    const buyers = await pooledBuyers(store, orders)
    let planned: Awaited<ReturnType<typeof planDevBuyLaunch>>
    try {
      planned = await planDevBuyLaunch(
        { wallets, client: devBuyChain!.client(project.chain) },
        { chain: devBuyChain!.chainConfig(project.chain), coordinator, buyers, deployment },
      )
    } catch (error) {
      // An expected chain condition (the deployment or the quote would revert) is the caller's answer, not a failure.
      if (error instanceof DevBuyPlanReverted) {
        throw new PrebuyError('dev_buy_would_revert', `The dev-buy launch would revert now (${error.stage}): ${error.revert.message}`, {
          details: { stage: error.stage, revert: error.revert.name },
        })
      }
      throw error
    }
    const { plan } = planned
    const tokens = (atoms: bigint) => formatDecimal(atoms, 18)
    const usd = (atoms: bigint) => formatDecimal(atoms, USDC_DECIMALS)
    return {
      tokenAddress: launch.state?.status === 'launching' ? (launch.state.token ?? null) : null,
      spendUsdc: usd(plan.quote?.stableIn ?? 0n),
      ethIn: formatEther(planned.quotedEth),
      boughtTokens: tokens(plan.quote?.tokensOut ?? 0n),
      feeTokens: tokens(plan.allocation?.fee ?? 0n),
      averageFdvUsdc: formatDecimal(plan.quote?.averageFdv ?? 0n, FDV_DECIMALS),
      marginalCapUsdc: plan.quote?.marginalCap == null ? null : formatDecimal(plan.quote.marginalCap, FDV_DECIMALS),
      allocations: (plan.allocation?.allocations ?? []).map((a) => ({ keyId: a.id, spendUsdc: usd(a.contribution), tokens: tokens(a.tokens) })),
      excluded: plan.excluded.map((e) => ({ keyId: e.id, reason: e.reason })),
    }
  }

  return {
    async simulate(slug, viewer, options = {}) {
      const project = await projects.getProject(slug)
      if (!project) throw new PrebuyError('project_not_found', 'No project has this slug.')
      if (viewer !== 'operator' && (project.ownerKeyId === null || project.ownerKeyId !== viewer.keyId)) {
        throw new PrebuyError('not_project_owner', 'Only the key that owns the project may simulate its launch.')
      }
      const orders = await projects.ordersOfProject(slug, ['active'])
      const keys = await Promise.all(orders.map((o) => store.sub.keys.get(o.keyId)))
      const userIndexes = keys.flatMap((k) => (k ? [k.userIndex] : []))
      const balances = userIndexes.length === 0 ? new Map<number, bigint>() : await wallets.stablecoinBalances(project.chain, userIndexes)
      const funded = orders.map((order, i) => ({
        id: order.keyId,
        maxSpend: parseDecimal(order.maxSpendUsdc, USDC_DECIMALS) ?? 0n,
        limitFdv: order.maxFdvUsdc === null ? null : (parseDecimal(order.maxFdvUsdc, FDV_DECIMALS) ?? 0n),
        balance: keys[i] ? (balances.get(keys[i]!.userIndex) ?? 0n) : 0n,
      }))
      const usdc = (atoms: bigint) => formatDecimal(atoms, USDC_DECIMALS)
      // Funded spend: what each wallet can pay now, min(cap, balance).
      const slices = demandSlices(funded.map((o) => ({ limitFdv: o.limitFdv, spend: o.maxSpend < o.balance ? o.maxSpend : o.balance })))
      const demand = slices.map((s) => ({
        maxFdvUsdc: s.limitFdv === null ? null : formatDecimal(s.limitFdv, FDV_DECIMALS),
        orderCount: s.orders,
        fundedSpendUsdc: usdc(s.spend),
        eligibleFundedSpendUsdc: usdc(s.eligibleSpend),
      }))
      let otc: LaunchSimulation['otc'] = null
      if (project.launchMethod === 'pooled_otc' && project.otc) {
        const offer = project.otc
        const tokens = (atoms: bigint) => formatDecimal(atoms, offer.tokenDecimals)
        const offered = BigInt(offer.tokenAmount)
        const plan = settleOtc({ fdv: parseDecimal(offer.fdvUsdc, FDV_DECIMALS)!, totalSupply: BigInt(offer.totalSupply), offered }, funded)
        otc = {
          fdvUsdc: offer.fdvUsdc,
          offeredTokens: tokens(offered),
          demandUsdc: usdc(plan.demand),
          oversubscribed: plan.oversubscribed,
          fillRatio: plan.fillRatio,
          soldTokens: tokens(offered - plan.unsold),
          unsoldTokens: tokens(plan.unsold),
          fills: plan.fills.map((f) => ({ keyId: f.id, spendUsdc: usdc(f.spend), tokens: tokens(f.tokens), creditedTokens: tokens(f.credited) })),
          skipped: plan.skipped.map((s) => ({ keyId: s.id, reason: s.reason })),
        }
      }
      const devBuy = await simulateDevBuy(project, orders)
      const openMarket = await placeOpenMarket(project, slices, options)
      return { slug, launchMethod: project.launchMethod, generatedAt: new Date(now()).toISOString(), demand, openMarket, otc, devBuy }
    },
  }
}
